/**
 * Test integrity before any build: a pure function of the candidate fix (whose `before`
 * contents are the original files), the tests that failed and the policy. A fix must
 * make the failing tests pass on the code's merit, not by weakening, skipping, disabling
 * or deleting tests; what it did is read from the patch, never from the model's words.
 */
import type { ChangeSet } from '../../patch/types.js';
import { buildConfigFindings } from './build-config.js';
import { javaTestFindings } from './java-tests.js';
import type { FailingTestRef, IntegrityFinding, IntegrityPolicy, IntegrityVerdict } from './types.js';

export type { FailingTestRef, IntegrityFinding, IntegrityPolicy, IntegrityRule, IntegrityVerdict } from './types.js';
export { readFailingTestSources } from './oracle-inputs.js';
export { specialCasingFindings, testSpecialCasingReason, type SpecialCasingFinding } from './special-casing.js';

export function checkTestIntegrity(input: { changeSet: ChangeSet; failingTests: readonly FailingTestRef[]; policy: IntegrityPolicy }): IntegrityVerdict {
  const findings = [...javaTestFindings(input.changeSet.files, input.failingTests), ...buildConfigFindings(input.changeSet.files)];
  const allowed = (finding: IntegrityFinding) => finding.failingTestEdit && input.policy.allowFailingTestEdits;
  return {
    blocking: findings.filter((finding) => !allowed(finding)),
    allowedFailingTestEdits: findings.filter(allowed),
  };
}

/** The attempt's reason: the contract's `test-weakening` prefix, then every finding. */
export function testWeakeningReason(findings: readonly IntegrityFinding[]): string {
  return `test-weakening: ${findings.map((finding) => finding.message).join('; ')}`;
}

/** `com.acme.FooTest#method` -> a reference the checker matches against the parsed sources. */
export function failingTestRef(test: string): FailingTestRef {
  const [className, method] = test.split('#');
  return { className: className!, ...(method ? { method } : {}) };
}
