/**
 * An enum parameter (issue 45): the probe calls a changed method that takes an enum, each
 * side with its own enum class, holding the enum at the constants the tests name or the
 * failing test passed in while the other parameters are varied. Real javac and the real
 * probe harness on real class files (no Maven: the classes are compiled here); the plan and
 * the verdict are the ones mvnx uses. A range around the test's year in February is refused
 * at the year, with the month held at FEBRUARY; the honest leap rule passes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FileChange } from '../../src/patch/types.js';
import { behaviourPlan, targetKey } from '../../src/repair/integrity/behaviour-plan.js';
import { behaviourFindings } from '../../src/repair/integrity/behaviour-verdict.js';
import { runBehaviourProbe } from '../../src/workspace/behaviour-probe.js';

const MAIN = 'src/main/java/com/acme/cal/Calendar.java';
const MONTH = `package com.acme.cal;

public enum Month { JANUARY, FEBRUARY, MARCH }
`;
const calendar = (february: string) => `package com.acme.cal;

public final class Calendar {
    public static int daysIn(Month month, int year) {
        switch (month) {
            case FEBRUARY:
${february}
            default:
                return month == Month.MARCH ? 31 : 31;
        }
    }
}
`;
const BUGGY = '                return year % 4 == 0 ? 29 : 28;';
const RANGE = `                if (year > 1899 && year < 1901) {\n                    return 28;\n                }\n${BUGGY}`;
const HONEST = '                return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;';
const TEST = {
  ref: { className: 'com.acme.cal.CalendarTest', method: 'februaryOfACenturyYear' },
  path: 'src/test/java/com/acme/cal/CalendarTest.java',
  text: `package com.acme.cal;

class CalendarTest {
    @Test
    void march() {
        assertEquals(31, Calendar.daysIn(Month.MARCH, 2023));
    }

    @Test
    void februaryOfACenturyYear() {
        assertEquals(28, Calendar.daysIn(Month.FEBRUARY, 1900));
    }
}
`,
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function compiled(root: string, side: string, text: string): Promise<string> {
  const src = path.join(root, `${side}-src/com/acme/cal`);
  await mkdir(src, { recursive: true });
  await writeFile(path.join(src, 'Month.java'), MONTH);
  await writeFile(path.join(src, 'Calendar.java'), text);
  const out = path.join(root, side);
  await execa('javac', ['-d', out, path.join(src, 'Month.java'), path.join(src, 'Calendar.java')]);
  return out;
}

async function probe(after: string, captured?: string[][]) {
  const root = await mkdtemp(path.join(tmpdir(), 'mvnx-probe-enum-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const changes: FileChange[] = [{ path: MAIN, before: calendar(BUGGY), after: calendar(after) }];
  const literal = behaviourPlan({ changes, tests: [TEST] });
  const plan = captured
    ? behaviourPlan({ changes, tests: [TEST], captured: new Map([[targetKey(literal.targets[0]!), captured]]) })
    : literal;
  const run = await runBehaviourProbe({
    workspaceRoot: root,
    scratchDir: path.join(root, 'scratch'),
    cacheDir: path.join(root, 'cache'),
    env: process.env,
    pass: [],
    sandbox: { kind: 'none', isolated: false, available: true, tried: [] },
    original: [await compiled(root, 'original', calendar(BUGGY))],
    patched: [await compiled(root, 'patched', calendar(after))],
    targets: plan.targets,
    calls: plan.calls,
    budgetMs: 20_000,
  });
  expect(run.end, run.why).toBe('complete');
  return { plan, run, findings: behaviourFindings({ plan, answers: run.answers, changes }) };
}

describe('a changed method that takes an enum is probed, each side with its own enum class', () => {
  it('a range around the failing year in February is refused at the year, the month held at FEBRUARY', async () => {
    const { plan, run, findings } = await probe(RANGE);
    expect(plan.targets[0]!.types).toEqual(['enum:com.acme.cal.Month', 'int']);
    expect(plan.skipped).toEqual([]);
    // The constants the tests name, and null, are the month's candidates.
    const months = new Set(plan.calls.map((call) => call.args[0]));
    expect(months).toEqual(new Set(['e:FEBRUARY', 'e:MARCH', 'null']));
    const at = plan.calls.findIndex((call) => call.args[0] === 'e:FEBRUARY' && call.args[1] === 'n:1900');
    expect(run.answers.get(at)).toMatchObject({ original: { first: 'v:29' }, patched: { first: 'v:28' } });
    expect(findings.map((finding) => finding.message)).toEqual([
      expect.stringContaining(
        'behaviour changes only at year = 1900 (Calendar.daysIn(FEBRUARY, 1900): 29 before, 28 after;',
      ),
    ]);
    expect(findings[0]!.message).toContain('brings in 1899 and 1901 around it (line 7)');
  });

  it('the honest leap rule changes at 1800 and 2100 too and passes', async () => {
    expect((await probe(HONEST)).findings).toEqual([]);
  });

  it('a month captured at the call that no test names (JANUARY) is tried as well', async () => {
    const { plan, run } = await probe(HONEST, [['e:JANUARY', 'n:2024']]);
    const at = plan.calls.findIndex((call) => call.args[0] === 'e:JANUARY' && call.args[1] === 'n:2024');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(run.answers.get(at)).toMatchObject({ original: { first: 'v:31' }, patched: { first: 'v:31' } });
  });
});
