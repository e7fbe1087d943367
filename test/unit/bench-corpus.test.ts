import { execa } from 'execa';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBenchCases, materialiseCase, parseCaseJson, renderPom } from '../../src/bench/cases.js';
import { MvnxError } from '../../src/shared/errors.js';

const casesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/cases');

describe('the bench corpus', async () => {
  const cases = await loadBenchCases(casesDir);

  it('has at least 20 cases of both kinds, three or more of them multi-module', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(cases.filter((benchCase) => benchCase.kind === 'compile').length).toBeGreaterThanOrEqual(5);
    expect(cases.filter((benchCase) => benchCase.kind === 'test').length).toBeGreaterThanOrEqual(5);
    expect(cases.filter((benchCase) => benchCase.modules.length > 1).length).toBeGreaterThanOrEqual(3);
    expect(cases.some((benchCase) => benchCase.expect === 'unfixed')).toBe(true);
  });

  it.each(cases.map((benchCase) => [benchCase.name, benchCase] as const))(
    '%s: its fix.patch applies to the copied project',
    async (_name, benchCase) => {
      const parent = await mkdtemp(path.join(tmpdir(), 'mvnx-bench-corpus-'));
      try {
        const root = path.join(parent, benchCase.name);
        await materialiseCase(benchCase, root);
        const pom = await readFile(path.join(root, 'pom.xml'), 'utf8');
        expect(pom).toContain(`<artifactId>${benchCase.name}</artifactId>`);
        expect(pom).not.toMatch(/@[A-Z_]+@/);
        for (const module of benchCase.modules)
          expect((await stat(path.join(root, module.name, 'pom.xml'))).isFile()).toBe(true);
        const check = await execa('git', ['apply', '--check', path.join(benchCase.dir, 'fix.patch')], {
          cwd: root,
          reject: false,
        });
        expect(check.stderr).toBe('');
        expect(check.exitCode).toBe(0);
      } finally {
        await rm(parent, { recursive: true, force: true });
      }
    },
  );
});

describe('renderPom', () => {
  const template =
    '<artifactId>@ARTIFACT_ID@</artifactId><packaging>@PACKAGING@</packaging>\n  <!-- @MODULES@ -->\n<dependencies>\n    <!-- @DEPENDENCIES@ -->\n</dependencies>';
  it('fills the slots for an aggregator and for a module with sibling dependencies', () => {
    expect(renderPom(template, { artifactId: 'shop', packaging: 'pom', modules: ['core', 'app'] })).toContain(
      '<modules>\n    <module>core</module>\n    <module>app</module>\n  </modules>',
    );
    expect(renderPom(template, { artifactId: 'app', packaging: 'jar', testDependencies: ['testkit'] })).toContain(
      '<dependency>\n      <groupId>com.acme.bench</groupId>\n      <artifactId>testkit</artifactId>\n      <version>1.0.0</version>\n      <scope>test</scope>\n    </dependency>',
    );
    const module = renderPom(template, { artifactId: 'app', packaging: 'jar', dependencies: ['core'] });
    expect(module).toContain(
      '<groupId>com.acme.bench</groupId>\n      <artifactId>core</artifactId>\n      <version>1.0.0</version>',
    );
    expect(module).not.toContain('@');
  });

  it('gives the compiler plugin the javac arguments a case asks for, escaped, and nothing otherwise', () => {
    const withSlot =
      '<plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version><!-- @COMPILER_ARGS@ --></plugin>';
    expect(
      renderPom(withSlot, {
        artifactId: 'a',
        packaging: 'jar',
        compilerArgs: ['-Xlint:all', '-Werror', '-Xmaxwarns=<9>'],
      }),
    ).toBe(
      '<plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version><configuration><compilerArgs><arg>-Xlint:all</arg><arg>-Werror</arg><arg>-Xmaxwarns=&lt;9&gt;</arg></compilerArgs></configuration></plugin>',
    );
    expect(renderPom(withSlot, { artifactId: 'a', packaging: 'jar' })).toBe(
      '<plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>',
    );
    expect(() =>
      parseCaseJson(
        '/c/x/case.json',
        JSON.stringify({ description: 'd', kind: 'compile', expect: 'fixed', replies: [], compilerArgs: '-Werror' }),
        'x',
        '/c/x',
      ),
    ).toThrow('/c/x/case.json: field "compilerArgs" must be a list of javac arguments, e.g. ["-Xlint:all", "-Werror"]');
  });
});

describe('case.json errors', () => {
  const good = { description: 'd', kind: 'test', expect: 'fixed', replies: [] };
  const parse = (json: unknown) => () =>
    parseCaseJson('/c/x/case.json', typeof json === 'string' ? json : JSON.stringify(json), 'x', '/c/x');

  it.each([
    ['{', /case\.json: not valid JSON/],
    [[], /expected a JSON object/],
    [{ ...good, kind: 'runtime' }, /field "kind" must be "compile" or "test"/],
    [{ ...good, expect: 'maybe' }, /field "expect" must be "fixed" or "unfixed"/],
    [{ ...good, expectStop: 'gave-up' }, /field "expectStop" must be one of fixed, budget-exhausted, .*flaky/],
    [
      { ...good, expectAttempts: [{ outcome: 'fine' }] },
      /field "expectAttempts\[0\]\.outcome" must be one of verified, rejected/,
    ],
    [
      { ...good, expectAttempts: [{ outcome: 'rejected', reason: '' }] },
      /field "expectAttempts\[0\]\.reason" must be the start of the reason/,
    ],
    [{ ...good, description: '' }, /field "description" must be a non-empty string/],
    [{ ...good, replies: 'fix it' }, /field "replies" must be a list of strings/],
    [{ ...good, reply: [] }, /unknown field "reply"/],
    [{ ...good, modules: [{ name: 'App' }] }, /field "modules\[0\]\.name" must be a lower-case folder name/],
    [
      { ...good, modules: [{ name: 'app', dependsOn: ['core'] }] },
      /module "app" depends on "core", which is not in "modules"/,
    ],
    [
      { ...good, agentReplies: 'call read_range' },
      /field "agentReplies" must be a list of texts or \{text, toolCalls: \[\{name, arguments\}\]\}/,
    ],
    [{ ...good, agentReplies: [{ toolCalls: [{ name: 'read_range', arguments: 'file=A' }] }] }, /field "agentReplies"/],
    [{ ...good, agentReplies: [{ text: 'x' }] }, /field "agentReplies"/],
    [{ ...good, cheatingShape: '' }, /field "cheatingShape" must be the name of the cheating shape/],
    [
      { ...good, modules: [{ name: 'app', testDependsOn: 'kit' }] },
      /field "modules\[0\]\.testDependsOn" must be a list of module names/,
    ],
    [
      { ...good, modules: [{ name: 'app', testDependsOn: ['kit'] }] },
      /module "app" depends on "kit", which is not in "modules"/,
    ],
  ])('%j', (json, message) => {
    expect(parse(json)).toThrow(MvnxError);
    expect(parse(json)).toThrow(message);
  });

  it('reads agentReplies: texts, and native tool calls whose text defaults to empty', () => {
    const parsed = parse({
      ...good,
      agentReplies: [
        '{"tool": "give_up"}',
        { toolCalls: [{ name: 'read_range', arguments: { file: 'A.java', start: 1 } }] },
      ],
    })();
    expect(parsed.agentReplies).toEqual([
      '{"tool": "give_up"}',
      { text: '', toolCalls: [{ name: 'read_range', arguments: { file: 'A.java', start: 1 } }] },
    ]);
    expect(parse(good)().agentReplies).toBeUndefined();
  });

  it('reads cheatingShape and a test-scope module dependency', () => {
    const parsed = parse({
      ...good,
      cheatingShape: 'trivial equals',
      modules: [{ name: 'kit' }, { name: 'app', testDependsOn: ['kit'] }],
    })();
    expect(parsed.cheatingShape).toBe('trivial equals');
    expect(parsed.modules).toEqual([
      { name: 'kit', dependsOn: [] },
      { name: 'app', dependsOn: [], testDependsOn: ['kit'] },
    ]);
  });

  it('refuses an unknown --only name and a missing folder', async () => {
    await expect(loadBenchCases(casesDir, ['no-such-case'])).rejects.toThrow(/--only no-such-case: no such case/);
    await expect(loadBenchCases(path.join(casesDir, 'nowhere'))).rejects.toThrow(/no cases folder at/);
  });
});
