// `mvnx diagnose` on the checked-in logs: the built CLI, a checkout of the fixture
// project in a temp folder (not the machine the log came from: its paths say /__ROOT__,
// C:\Users\dev\my proj, /home/Jürgen/app...), the saved reports given with --reports.
// It must print exactly the diagnosis that was reviewed for the build itself
// (expected.json), which diagnose-live.test.ts checks against live Maven runs.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/repair-project.js';
import { comparable, loadCases, projectDir } from '../unit/diagnose-cases.js';
import { readFile } from 'node:fs/promises';

const cases = await loadCases();
const scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-diagnose-cli-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function checkout(project: string, name: string): Promise<string> {
  const root = path.join(scratch, name, project);
  await cp(projectDir(project), root, { recursive: true });
  return root;
}

const mvnx = (cwd: string, args: string[], input?: string) =>
  execa('node', [cliPath, 'diagnose', ...args], {
    cwd,
    reject: false,
    env: { CI: 'true' },
    ...(input !== undefined ? { input } : { stdin: 'ignore' as const }),
  });

describe('mvnx diagnose on the checked-in logs', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s prints the reviewed diagnosis', async (_name, c) => {
    const cwd = await checkout(c.project, c.name);
    const reports = path.join(c.dir, 'reports');
    const run = await mvnx(cwd, [
      path.join(c.dir, 'console.txt'),
      '--json',
      ...(existsSync(reports) ? ['--reports', reports] : []),
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const printed = comparable(JSON.parse(run.stdout)) as {
      diagnostics: unknown;
      fixable: unknown;
      reason: unknown;
      modules: unknown;
    };
    const expected = JSON.parse(await readFile(path.join(c.dir, 'expected.json'), 'utf8')) as typeof printed;
    expect(printed.diagnostics).toEqual(expected.diagnostics);
    expect(printed.fixable).toBe(expected.fixable);
    expect(printed.reason).toBe(expected.reason);
    expect(printed.modules).toEqual(expected.modules);
  });

  it("prints one line per diagnostic and the verdict, reads stdin, and takes the log's root when given", async () => {
    const werror = cases.find((c) => c.name === 'werror')!;
    const cwd = await checkout(werror.project, 'human');
    const text = await mvnx(cwd, [path.join(werror.dir, 'console.txt')]);
    expect(text.stdout).toMatch(
      /^compile {2}src\/main\/java\/com\/acme\/api\/Api\.java:10:9 +\[rawtypes\] found raw type: java\.util\.List$/m,
    );
    expect(text.stdout).toMatch(/\nfixable: yes \(5 of 5 diagnostics\)$/);
    const piped = await mvnx(
      cwd,
      ['-', '--root', '/__ROOT__'],
      await readFile(path.join(werror.dir, 'console.txt'), 'utf8'),
    );
    expect(piped.stdout).toBe(text.stdout);

    const oom = cases.find((c) => c.name === 'test-oom')!;
    const other = await mvnx(await checkout(oom.project, 'human-oom'), [path.join(oom.dir, 'console.txt')]);
    expect(other.stdout).toMatch(
      /fixable: no: the test JVM ran out of memory while running com\.acme\.HogTest; raise -Xmx/,
    );
  });

  it('says in one line what is wrong with its arguments, with exit 2', async () => {
    const empty = path.join(scratch, 'empty');
    await cp(projectDir('werror'), empty, { recursive: true });
    const cases2: Array<[string[], RegExp]> = [
      [[], /^mvnx diagnose: which log\? usage: mvnx diagnose LOGFILE/],
      [['absent.log'], /^mvnx diagnose: log file .*absent\.log does not exist$/],
      [['a.log', 'b.log'], /^mvnx diagnose: one log file at a time, got a\.log and b\.log/],
      [['x.log', '--frobnicate'], /^mvnx diagnose: unknown argument --frobnicate/],
      [['x.log', '--reports'], /^mvnx diagnose: --reports needs a value/],
    ];
    await writeFile(path.join(empty, 'x.log'), '[ERROR] x\n');
    for (const [args, message] of cases2) {
      const run = await mvnx(empty, args);
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(run.stderr.trim()).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    const notAFolder = await mvnx(empty, ['x.log', '--reports', 'x.log']);
    expect(notAFolder.stderr.trim()).toMatch(/--reports .*x\.log is not a folder$/);
  });

  it("uses the config's plugin parsers: a team's own lint output becomes fixable quality diagnostics", async () => {
    const dir = path.join(scratch, 'with-parser');
    await cp(projectDir('quality-gates'), dir, { recursive: true });
    await writeFile(
      path.join(dir, 'acme-lint.mjs'),
      `export default {
  name: 'acme',
  parsers: [{
    name: 'acme-lint',
    start: () => ({
      line: ({ text, level, module }) => {
        const m = /^ACME-LINT (\\S+):(\\d+) (.*)$/.exec(text);
        if (level === 'ERROR' && m) return { kind: 'quality', file: m[1], line: Number(m[2]), message: m[3], rule: 'no-println', module };
      },
    }),
  }],
};
`,
    );
    await writeFile(path.join(dir, '.mvnxrc.yaml'), 'plugins:\n  - ./acme-lint.mjs\n');
    await writeFile(
      path.join(dir, 'ci.log'),
      [
        '2026-12-02T10:00:00.0000000Z [INFO] --- acme-lint-maven-plugin:1.2:check (default) @ quality-gates ---',
        '2026-12-02T10:00:00.1000000Z [ERROR] ACME-LINT /home/runner/work/shop/shop/src/main/java/com/acme/shop/Cart.java:14 System.out.println in production code',
        '2026-12-02T10:00:00.2000000Z [ERROR] Failed to execute goal com.acme:acme-lint-maven-plugin:1.2:check (default) on project quality-gates: 1 finding -> [Help 1]',
        '',
      ].join('\n'),
    );
    const run = await mvnx(dir, ['ci.log', '--json', '--root', '/home/runner/work/shop/shop']);
    expect(run.exitCode, run.stderr).toBe(0);
    const diagnosis = JSON.parse(run.stdout) as { diagnostics: Array<Record<string, unknown>>; fixable: boolean };
    expect(diagnosis.diagnostics).toEqual([
      expect.objectContaining({
        kind: 'quality',
        tool: 'acme-lint',
        rule: 'no-println',
        file: 'src/main/java/com/acme/shop/Cart.java',
        line: 14,
        module: 'quality-gates',
        fixable: true,
      }),
    ]);
    expect(diagnosis.fixable).toBe(true);
  });

  it('a plugin of the wrong shape, or a parser name two plugins use, is a config error: one line naming it, exit code 2', async () => {
    const dir = path.join(scratch, 'bad-plugins');
    await cp(projectDir('quality-gates'), dir, { recursive: true });
    const parser = "{ name: 'acme-lint', start: () => ({}) }";
    await writeFile(path.join(dir, 'a.mjs'), `export default { name: 'a', parsers: [${parser}] };\n`);
    await writeFile(path.join(dir, 'b.mjs'), `export default { name: 'b', parsers: [${parser}] };\n`);
    await writeFile(
      path.join(dir, 'shape.mjs'),
      "export default { name: 'c', parsers: [{ name: 'x', start: 'start' }] };\n",
    );
    await writeFile(path.join(dir, 'ci.log'), '[ERROR] BUILD FAILURE\n');
    await writeFile(path.join(dir, '.mvnxrc.yaml'), 'plugins:\n  - ./a.mjs\n  - ./b.mjs\n');
    const twice = await mvnx(dir, ['ci.log']);
    expect(twice.exitCode).toBe(2);
    // The config names plugin files relative to itself; they are absolute once it is loaded.
    expect(twice.stderr).toContain(
      `plugin ${path.join(dir, 'b.mjs')}: parsers[0]: the parser name "acme-lint" is already taken by parsers[0] of plugin ${path.join(dir, 'a.mjs')}`,
    );
    expect(twice.stderr.trim().split('\n')).toHaveLength(1);
    await writeFile(path.join(dir, '.mvnxrc.yaml'), 'plugins:\n  - ./shape.mjs\n');
    const shape = await mvnx(dir, ['ci.log']);
    expect(shape.exitCode).toBe(2);
    expect(shape.stderr).toContain(
      `plugin ${path.join(dir, 'shape.mjs')}: parsers[0].start: found "start" (string), expected a function`,
    );
  });

  it('a log with no failure in it says so instead of inventing one', async () => {
    const dir = path.join(scratch, 'passing');
    await cp(projectDir('werror'), dir, { recursive: true });
    await writeFile(path.join(dir, 'ok.log'), '[INFO] Scanning for projects...\n[INFO] BUILD SUCCESS\n');
    const run = await mvnx(dir, ['ok.log']);
    expect(run.stdout, run.stderr).toBe('no failure found in the log\nfixable: no: the log shows no failed build');
  });
});
