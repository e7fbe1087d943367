/**
 * What the test-integrity check reads and what it finds (the shapes a plugin's rules share are in
 * plugins/contracts.ts).
 */

import type { IntegrityFinding } from '../../plugins/contracts.js';

export type {
  FailingTestRef,
  IntegrityFinding,
  IntegrityRule,
  IntegrityRuleInput,
  TestSide,
  TestSideRoot,
} from '../../plugins/contracts.js';

export interface IntegrityPolicy {
  /** `tests.allowFailingTestEdits`: a fix may change the tests that failed (the test itself may be wrong). */
  allowFailingTestEdits: boolean;
}

/**
 * The findings the test comparison (rules/test-comparison.ts) reports from one parse of
 * the test classes before and after: one rule, related names.
 */
export const TEST_COMPARISON_FINDINGS = [
  /** A failing test's assertion now expects something else. */
  'assertion-changed',
  /** A failing test's assertion was deleted or commented out. */
  'assertion-removed',
  /** A failing test's assertion was replaced by one that cannot fail. */
  'assertion-weakened',
  /** A failing test's assertion was wrapped in a try/catch that swallows its failure. */
  'assertion-swallowed',
  /** A failing test's `fail(...)` was removed. */
  'fail-removed',
  /** Any other change to what a failing test does (its statements, data or setup). */
  'failing-test-changed',
  'test-deleted',
  'test-class-deleted',
  'test-annotation-removed',
  'test-disabled',
  'assumption-added',
  'early-return',
  /** A changed test source mvnx cannot read as Java, so cannot check. */
  'unreadable-test',
] as const;
export type TestComparisonFinding = (typeof TEST_COMPARISON_FINDINGS)[number];

export interface IntegrityVerdict {
  /** Findings that make the patch a `rejected` attempt. */
  blocking: IntegrityFinding[];
  /** Edits of failing tests the policy allows: the fix is then high risk and never applied automatically. */
  allowedFailingTestEdits: IntegrityFinding[];
}
