import { describe, expect, it } from 'vitest';
import { decideOutcome, fixPresence, readFixFiles, withOutcome, type Observation } from '../../src/report/outcome.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { attempt, diagnostic, record } from './stats-support.js';

const FILE = 'src/main/java/com/acme/Calc.java';
const ORIGINAL =
  'class Calc {\n    int multiply(int a, int b) {\n        int result = a * b\n        return result;\n    }\n}\n';
const FIXED = ORIGINAL.replace('a * b\n', 'a * b;\n');
const PATCH = `--- a/${FILE}\n+++ b/${FILE}\n@@ -2,4 +2,4 @@\n     int multiply(int a, int b) {\n-        int result = a * b\n+        int result = a * b;\n         return result;\n     }\n`;

const files = readFixFiles(PATCH);
const at = (day: number) => `2024-06-${String(day).padStart(2, '0')}T12:00:00.000Z`;
const observe = (day: number, content: string | null, commit?: string, subject?: string): Observation => ({
  at: at(day),
  files: new Map([[FILE, content]]),
  ...(commit ? { commit, subject } : {}),
});
const fixedRun = (overrides: Partial<RunRecord> = {}) =>
  record({
    runId: 'r1',
    startedAt: at(1),
    status: 'fixed',
    stopReason: 'fixed',
    tier: 'assist',
    action: 'suggest',
    diagnostics: [diagnostic('compile', "';' expected", FILE)],
    attempts: [attempt(1, 'verified', 'fixer')],
    ...overrides,
  });
const decide = (run: RunRecord, observations: Observation[], otherRecords: RunRecord[] = []) =>
  decideOutcome({ record: run, files, observations, otherRecords });

describe('fixPresence', () => {
  it('sees the fix, the old code, or neither, whatever the indentation', () => {
    const presence = (content: string | null) => fixPresence(files, new Map([[FILE, content]]));
    expect(presence(FIXED)).toBe('fixed');
    expect(presence(FIXED.replaceAll('        ', '\t\t'))).toBe('fixed');
    expect(presence(ORIGINAL)).toBe('unfixed');
    expect(presence(ORIGINAL.replace('int result = a * b', 'long result = (long) a * b;'))).toBe('changed');
    expect(presence(null)).toBe('changed');
  });

  it('anchors a weak change (a lone brace, a deletion) on its neighbours', () => {
    const deletion = readFixFiles(`--- a/F.java\n+++ b/F.java\n@@ -1,4 +1,3 @@\n class F {\n-    }\n     int x;\n }\n`);
    expect(deletion[0]!.groups).toEqual([
      { removed: ['}'], added: [], contextBefore: 'class F {', contextAfter: 'int x;' },
    ]);
    const presence = (content: string) => fixPresence(deletion, new Map([['F.java', content]]));
    expect(presence('class F {\n    int x;\n}\n')).toBe('fixed');
    expect(presence('class F {\n    }\n    int x;\n}\n')).toBe('unfixed');
  });
});

describe('decideOutcome', () => {
  it('adopted: the same change in a later commit, made without mvnx apply', () => {
    const events = decide(fixedRun(), [observe(3, FIXED, 'c0ffee1234', 'fix the build'), observe(9, FIXED)]);
    expect(events).toEqual([
      {
        outcome: 'adopted',
        at: at(3),
        evidence: 'the same change is in commit c0ffee1 "fix the build"',
        commit: 'c0ffee1234',
      },
    ]);
  });

  it('adopted from the working tree when it is not committed yet', () => {
    expect(decide(fixedRun(), [observe(9, FIXED)])).toEqual([
      { outcome: 'adopted', at: at(9), evidence: 'the same change is in the working tree (not committed yet)' },
    ]);
  });

  it('nothing while the old code is still there', () => {
    expect(decide(fixedRun(), [observe(2, ORIGINAL, 'aaa'), observe(9, ORIGINAL)])).toEqual([]);
  });

  it('reverted: an applied fix that a later commit undid', () => {
    const applied = withOutcome(fixedRun({ applied: true }), { outcome: 'applied', at: at(1), evidence: 'mvnx apply' });
    const events = decide(applied, [
      observe(2, FIXED, 'bbb1111', 'commit the fix'),
      observe(5, ORIGINAL, 'ccc2222', 'Revert "commit the fix"'),
      observe(9, ORIGINAL),
    ]);
    expect(events).toEqual([
      {
        outcome: 'reverted',
        at: at(5),
        evidence: 'commit ccc2222 "Revert "commit the fix"" put the old lines back',
        commit: 'ccc2222',
      },
    ]);
    expect(withOutcome(applied, ...events)).toMatchObject({
      outcome: 'reverted',
      outcomeHistory: [{ outcome: 'applied' }, { outcome: 'reverted' }],
    });
  });

  it('an applied fix only discarded from the working tree is not reverted: git history never had it', () => {
    const applied = withOutcome(fixedRun({ applied: true }), { outcome: 'applied', at: at(1), evidence: 'auto' });
    expect(decide(applied, [observe(9, ORIGINAL)])).toEqual([]);
  });

  it('adopted and then reverted in one pass', () => {
    const events = decide(fixedRun(), [observe(2, FIXED, 'aaa1111'), observe(4, ORIGINAL, 'bbb2222')]);
    expect(events.map((event) => event.outcome)).toEqual(['adopted', 'reverted']);
  });

  it('superseded: the lines were changed another way and the failure did not come back', () => {
    const other = ORIGINAL.replace('int result = a * b', 'return a * b;').replace('        return result;\n', '');
    expect(decide(fixedRun(), [observe(3, other, 'ddd3333', 'rewrite multiply'), observe(9, other)])).toEqual([
      {
        outcome: 'superseded',
        at: at(3),
        evidence: 'commit ddd3333 "rewrite multiply" changed those lines another way',
        commit: 'ddd3333',
      },
    ]);
    // The same failure recorded after that change: the failure is not gone, so nothing is decided.
    const cameBack = fixedRun({ runId: 'r2', startedAt: at(5), status: 'unfixed' });
    expect(decide(fixedRun(), [observe(3, other, 'ddd3333'), observe(9, other)], [cameBack])).toEqual([]);
    // A later run's fix for the same failure was taken instead.
    const taken = fixedRun({ runId: 'r0', startedAt: '2024-06-02T00:00:00.000Z', outcome: 'adopted' });
    expect(decide(fixedRun(), [observe(3, other, 'ddd3333'), observe(9, other)], [taken])[0]!.evidence).toBe(
      "run r0's fix was taken instead",
    );
  });

  it('never changes a final outcome, and has nothing to say about a run without a fix', () => {
    expect(decide(fixedRun({ outcome: 'reverted' }), [observe(2, FIXED, 'x')])).toEqual([]);
    expect(decide(fixedRun({ outcome: 'superseded' }), [observe(2, FIXED, 'x')])).toEqual([]);
    expect(decide(fixedRun({ status: 'unfixed' }), [observe(2, FIXED, 'x')])).toEqual([]);
  });
});
