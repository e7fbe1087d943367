/**
 * mvnx's own integrity rules, in the order they run: what the comparison of the test
 * classes and of the build settings finds says more about a file than the read-only test
 * side does, so those come first. A plugin's rules run after these (run-rules.ts).
 */
import type { IntegrityRule } from '../types.js';
import { mainReadsTestSide } from './main-reads-test-side.js';
import { testComparison } from './test-comparison.js';
import { testSideChanged } from './test-side-changed.js';
import { testsSkippedByConfig } from './tests-skipped-by-config.js';

export const INTEGRITY_RULES = [
  testComparison,
  testsSkippedByConfig,
  testSideChanged,
  mainReadsTestSide,
] as const satisfies readonly IntegrityRule[];

type BuiltInRule = (typeof INTEGRITY_RULES)[number];

/** The names mvnx's own findings carry: each rule's `reports`, else its id. */
export type IntegrityFindingName = BuiltInRule extends infer Rule
  ? Rule extends { reports: readonly (infer Name)[] }
    ? Name
    : Rule extends { id: infer Id }
      ? Id
      : never
  : never;

/** Every name a built-in rule takes (ids and the related names it reports), which no plugin rule may reuse. */
export const BUILT_IN_INTEGRITY_RULE_NAMES: readonly string[] = INTEGRITY_RULES.flatMap((rule) => [
  rule.id,
  ...('reports' in rule ? rule.reports : []),
]);
