/**
 * `verify.tests` (issue 26 part 3), kept out of schema.ts (which is full): which tests of
 * the module a fix touches run in the verdict build, and what auto does with it.
 */
import { z } from 'zod';

export const VERIFY_TESTS = ['affected', 'all'] as const;
export type VerifyTests = (typeof VERIFY_TESTS)[number];

export const verifyTestsField = z
  .enum(VERIFY_TESTS)
  .default('affected')
  .describe(
    "affected: in the module the fix touches, keep your build's outputs, compile again only the classes the fix can change (and those using a changed declaration), and run only the test classes whose dependencies, read from the compiled classes, reach a changed class (the failing tests always); the other test classes' results are taken from your build and the run record names both. Reflection or ServiceLoader on the way, resources, build files, generated sources or anything unreadable: all tests, as with all. Needs verify.scope affected. all: every test of the affected modules runs.",
  );

/** verify.tests, unless auto may apply a fix and auto.requireFullVerification asks for the whole build. */
export function effectiveTests(config: {
  tier: string;
  rules: readonly { tier?: string | undefined }[];
  auto: { requireFullVerification: boolean };
  verify: { tests: VerifyTests };
}): VerifyTests {
  const mayApplyAtAuto = config.tier === 'auto' || config.rules.some((rule) => rule.tier === 'auto');
  return config.auto.requireFullVerification && mayApplyAtAuto ? 'all' : config.verify.tests;
}
