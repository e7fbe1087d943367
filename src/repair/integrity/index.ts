/**
 * Test integrity before any build: a pure function of the candidate fix (whose `before`
 * contents are the original files), the tests that failed and the policy. A fix must
 * make the failing tests pass on the code's merit, not by weakening, skipping, disabling
 * or deleting tests; what it did is read from the patch, never from the model's words.
 */
import type { ChangeSet } from '../../patch/types.js';
import { INTEGRITY_RULES } from './rules/index.js';
import { TEST_SIDE_READ_ONLY } from './rules/test-side-changed.js';
import { runIntegrityRules } from './run-rules.js';
import type { TestSide } from './test-side.js';
import type { FailingTestRef, IntegrityFinding, IntegrityPolicy, IntegrityRule, IntegrityVerdict } from './types.js';

export type {
  FailingTestRef,
  IntegrityFinding,
  IntegrityPolicy,
  IntegrityRule,
  IntegrityRuleInput,
  IntegrityVerdict,
} from './types.js';
export { BUILT_IN_INTEGRITY_RULE_NAMES, INTEGRITY_RULES, type IntegrityFindingName } from './rules/index.js';
export { runIntegrityRules } from './run-rules.js';
export { readFailingTestSources } from './oracle-inputs.js';
export { specialCasingFindings, testSpecialCasingReason, type SpecialCasingFinding } from './special-casing.js';
export { classNameOfSource } from './test-class-names.js';
export type { TestSide } from './test-side.js';

export interface IntegrityInput {
  changeSet: ChangeSet;
  failingTests: readonly FailingTestRef[];
  policy: IntegrityPolicy;
  /** The project's test side (test-side.ts); absent: the conventional folders only. */
  testSide?: TestSide;
  /** Files with a compile error in the diagnosis: a repair may fix those, compared method by method. */
  compileErrorFiles?: ReadonlySet<string>;
  /** Plugins' rules (their ids checked unique when loaded): run after mvnx's own, they can only add findings. */
  rules?: readonly IntegrityRule[];
}

export function checkTestIntegrity(input: IntegrityInput): IntegrityVerdict {
  const findings = runIntegrityRules([...INTEGRITY_RULES, ...(input.rules ?? [])], {
    changes: input.changeSet.files,
    failingTests: input.failingTests,
    testSide: input.testSide ?? { roots: [] },
    compileErrorFiles: input.compileErrorFiles ?? new Set(),
  });
  const allowed = (finding: IntegrityFinding) =>
    finding.compileErrorFix === true || (finding.failingTestEdit && input.policy.allowFailingTestEdits);
  return {
    blocking: findings.filter((finding) => !allowed(finding)),
    allowedFailingTestEdits: findings.filter(allowed),
  };
}

/** The attempt's reason: the contract's `test-weakening` prefix, then every finding. */
export function testWeakeningReason(findings: readonly IntegrityFinding[]): string {
  const readOnly = findings.some((finding) => finding.rule === 'test-side-changed') ? `; ${TEST_SIDE_READ_ONLY}` : '';
  return `test-weakening: ${findings.map((finding) => finding.message).join('; ')}${readOnly}`;
}

/** `com.acme.FooTest#method` -> a reference the checker matches against the parsed sources. */
export function failingTestRef(test: string): FailingTestRef {
  const [className, method] = test.split('#');
  return { className: className!, ...(method ? { method } : {}) };
}
