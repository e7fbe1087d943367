import { describe, expect, it } from 'vitest';
import {
  doneWhenProblems,
  formatVerifyTable,
  summariseVerify,
  type VerifyRound,
} from '../../src/bench/verify-bench.js';
import {
  generateProject,
  MULTI_MODULE_BUGS,
  MULTI_MODULE_SPEC,
  SINGLE_MODULE_BUGS,
  SINGLE_MODULE_SPEC,
} from '../../src/bench/verify-projects.js';

describe('the bench:verify projects', () => {
  const multi = generateProject(MULTI_MODULE_SPEC, MULTI_MODULE_BUGS);
  const single = generateProject(SINGLE_MODULE_SPEC, SINGLE_MODULE_BUGS);

  it('are of realistic size: at least 6 modules, a few hundred classes and tests, with inter-module dependencies', () => {
    expect(multi.stats.modules).toBeGreaterThanOrEqual(6);
    expect(multi.stats.mainClasses).toBeGreaterThanOrEqual(200);
    expect(multi.stats.tests).toBeGreaterThanOrEqual(200);
    expect(single.stats.mainClasses).toBeGreaterThanOrEqual(200);
    const reportPom = multi.files.get('report/pom.xml')!;
    expect(reportPom).toContain('<artifactId>core</artifactId>');
  });

  it('are the same on every generation (a seeded generator)', () => {
    const again = generateProject(MULTI_MODULE_SPEC, MULTI_MODULE_BUGS);
    expect([...again.files.entries()]).toEqual([...multi.files.entries()]);
  });

  it('bugs sit in a leaf module, a core module, a test and a leaf the build stops at before an independent module; each broken file differs from the correct one', () => {
    expect(multi.bugs.map((bug) => [bug.kind, bug.file.split('/')[0]])).toEqual([
      ['leaf', 'report'],
      ['core', 'core'],
      ['test', 'service'],
      ['leaf', 'app'],
    ]);
    for (const bug of [...multi.bugs, ...single.bugs]) {
      expect(bug.broken).not.toBe(bug.correct);
      expect(multi.files.get(bug.file) ?? single.files.get(bug.file)).toBe(bug.correct);
      expect(bug.file.includes('/src/test/')).toBe(bug.kind === 'test');
      for (const reply of Object.values(bug.replies)) expect(reply).toMatch(/```diff\n/);
    }
  });
});

const round = (over: Partial<VerifyRound>): VerifyRound => ({
  plainCleanMs: 10_000,
  plainIncrementalMs: 6_000,
  rejectCompileMs: 2_000,
  rejectTestMs: 3_000,
  verifiedMs: 4_000,
  wholeRunMs: 20_000,
  stages: { rejectCompile: ['failing-tests'], rejectTest: ['failing-tests'], verified: ['failing-tests', 'full'] },
  problems: [],
  ...over,
});

describe('bench:verify figures', () => {
  it("are medians of per-round ratios to that round's plain clean build", () => {
    const summary = summariseVerify('multi-module (7 modules)', 'leaf module (report)', [
      round({}),
      round({ plainCleanMs: 20_000 }),
      round({ plainCleanMs: 5_000, verifiedMs: 4_000 }),
    ]);
    // verified: 0.4, 0.2, 0.8 -> 0.4
    expect(summary.ratios.verified).toBeCloseTo(0.4);
    expect(summary.plainCleanMs).toBe(10_000);
    expect(summary.stages.verified).toBe('failing-tests → full');
    expect(formatVerifyTable([summary])).toContain(
      '| multi-module (7 modules) | leaf module (report) | 10.0 | 0.60× | 0.20× | 0.30× | 0.40× | 2.00× |',
    );
  });

  it('a missing figure stays missing, not zero', () => {
    const summary = summariseVerify('single-module', 'single module', [round({ rejectTestMs: null })]);
    expect(summary.ratios.rejectTest).toBeNull();
    expect(formatVerifyTable([summary])).toContain('| - |');
  });

  it('the done-when limits: 0.25× to reject a non-compiling candidate, 0.40× a failing one, 1.0× single-module and 0.5× the leaf bug to verify', () => {
    const within = summariseVerify('multi-module (7 modules)', 'leaf module (report)', [
      round({ rejectCompileMs: 2_500, rejectTestMs: 4_000, verifiedMs: 5_000 }),
    ]);
    expect(doneWhenProblems([within])).toEqual([]);
    const over = summariseVerify('multi-module (7 modules)', 'leaf module (report)', [
      round({ rejectCompileMs: 2_600, rejectTestMs: 4_100, verifiedMs: 5_100 }),
    ]);
    expect(doneWhenProblems([over])).toEqual([
      'multi-module (7 modules) / leaf module (report): rejecting a candidate that does not compile took 0.26× (limit 0.25×)',
      'multi-module (7 modules) / leaf module (report): rejecting a candidate whose test still fails took 0.41× (limit 0.40×)',
      'multi-module (7 modules) / leaf module (report): verifying the fix took 0.51× (limit 0.50×)',
    ]);
    // No verified limit for a core bug on the multi-module project; 1.0× on the single-module one.
    expect(
      doneWhenProblems([
        summariseVerify('multi-module (7 modules)', 'core module (core)', [round({ verifiedMs: 9_000 })]),
      ]),
    ).toEqual([]);
    expect(
      doneWhenProblems([summariseVerify('single-module', 'single module', [round({ verifiedMs: 10_100 })])]),
    ).toEqual(['single-module / single module: verifying the fix took 1.01× (limit 1.00×)']);
  });
});
