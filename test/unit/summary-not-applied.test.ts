// Issue 49 item 7: a verified fix tier auto could not apply (a file changed since the fix was made) must not end with
// a `mvnx apply` that would be refused the same way, nor read "verified fix applied; not applied".
import { describe, expect, it } from 'vitest';
import { renderSummary } from '../../src/report/summary.js';
import type { RunRecord } from '../../src/report/run-record.js';

const record = {
  runId: 'r2',
  startedAt: '2026-12-05T00:00:00Z',
  finishedAt: '2026-12-05T00:01:00Z',
  mavenArgs: ['verify'],
  mavenExitCode: 1,
  tier: 'auto',
  status: 'fixed',
  stopReason: 'fixed',
  diagnostics: [],
  attempts: [
    { n: 1, source: 'fixer', fixer: 'missing-import', fingerprint: 'f', outcome: 'verified', filesChanged: ['A.java'] },
  ],
  applied: false,
  action: 'apply',
  risk: 'low',
  decisions: ['tier auto: the verified fix is to be applied', 'not applied: A.java changed since the fix was made'],
} as unknown as RunRecord;

describe('the summary of a verified fix tier auto could not apply', () => {
  it('says why and points at the patch, never at a refused mvnx apply', () => {
    const text = renderSummary(record, { recordDir: '/p/.mvnx/runs/r2', projectRoot: '/p' });
    expect(text).toContain(
      'mvnx: verified fix for A.java (quick-fix missing-import) in .mvnx/runs/r2/fix.patch was not applied: ' +
        'A.java changed since the fix was made.',
    );
    expect(text).toContain('git apply --check .mvnx/runs/r2/fix.patch');
    expect(text).not.toContain('mvnx apply');
    expect(text).not.toMatch(/verified fix applied; not applied/);
  });
});
