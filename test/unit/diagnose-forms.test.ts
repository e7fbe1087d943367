// The line forms real CI logs hold, one table per reader: CI prefixes, javac/javadoc
// entries, -Werror, quality-gate lines, Surefire fork failures, reports, plugin parsers.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  diagnoseBuild,
  mergeRecoveredWarnings,
  needsWarningRecovery,
  normaliseLogLine,
  parseMavenLog,
  streamLogLines,
  type DiagnosticParser,
} from '../../src/diagnose/index.js';
import { assembleDiagnosis } from '../../src/diagnose/diagnosis.js';
import { inferLint, javacEntry, werrorMarker } from '../../src/diagnose/javac-lines.js';
import { inferLogRoot } from '../../src/diagnose/log-root.js';
import { nearestPhase } from '../../src/diagnose/categories.js';
import { MultiLineQuality, qualityLine } from '../../src/diagnose/quality/console.js';
import { readCheckstyleReport, readPmdReport, readSpotbugsReport } from '../../src/diagnose/quality/reports.js';
import { fixGoalFor } from '../../src/diagnose/quality/tools.js';
import { classifyParsed, PluginParserRuns } from '../../src/diagnose/plugin-parsers.js';
import { classFromDump } from '../../src/diagnose/fork-diagnostics.js';
import { decodeMixed } from '../../src/diagnose/read-log.js';

const ROOT = '/__ROOT__';
const temps: string[] = [];
afterEach(async () => {
  while (temps.length > 0) await rm(temps.pop()!, { recursive: true, force: true });
});
async function tempFile(name: string, content: string | Buffer): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-forms-'));
  temps.push(dir);
  const file = path.join(dir, name);
  await writeFile(file, content);
  return { dir, file };
}

describe('normaliseLogLine: what CI systems put before Maven', () => {
  it.each([
    ['2026-12-02T14:36:46.1234567Z [ERROR] x', '[ERROR] x'],
    ['[2019-10-05T15:46:04.334Z] [ERROR] x', '[ERROR] x'],
    ['[2019-10-05T15:46:04.334Z] [build-linux] [ERROR] x', '[ERROR] x'],
    ['14:36:46 [WARNING] y', '[WARNING] y'],
    ['##[error]Process completed with exit code 1.', '[ERROR] Process completed with exit code 1.'],
    ['2026-12-02T14:36:46.1234567Z ##[error][ERROR] x', '[ERROR] x'],
    ['Error:  Failed to execute goal a', '[ERROR] Failed to execute goal a'],
    ['Error:   * <table summary="x">', '[ERROR]  * <table summary="x">'],
    ['Warning:  The POM is missing', '[WARNING] The POM is missing'],
    ['\u001b[1;31m[ERROR]\u001b[m x', '[ERROR] x'],
    ['[ERROR] x\r', '[ERROR] x'],
    // Continuation lines keep their own indentation after one timestamp space.
    ['2026-12-02T14:36:46.1234567Z   symbol:   class Foo', '  symbol:   class Foo'],
    // Not a CI prefix: left alone.
    ['  symbol:   class Foo', '  symbol:   class Foo'],
    ['Error: Could not find or load main class X', 'Error: Could not find or load main class X'],
    ['[INFO] [stdout] hello', '[INFO] [stdout] hello'],
  ])('%j -> %j', (raw, expected) => expect(normaliseLogLine(raw)).toBe(expected));
});

describe('javac and javadoc entries', () => {
  it('reads javadoc errors in the plain form, after the plugin\'s "Exit code" too, with Windows paths', () => {
    expect(javacEntry('Exit code: 1 - /r/src/main/java/A.java:79: error: malformed HTML')).toMatchObject({
      file: '/r/src/main/java/A.java',
      line: 79,
      severity: 'error',
      message: 'malformed HTML',
    });
    expect(javacEntry("C:\\p\\src\\A.java:562: error: bad use of '>'")).toMatchObject({
      file: 'C:\\p\\src\\A.java',
      line: 562,
    });
    expect(javacEntry('src/A.java:3: warning: [rawtypes] found raw type: List')).toMatchObject({
      severity: 'warning',
      lint: 'rawtypes',
      message: 'found raw type: List',
    });
    expect(javacEntry('javadoc: error - invalid flag: --no-fonts')).toBeUndefined();
  });

  it.each([
    ['found raw type: java.util.List', 'rawtypes'],
    ['unchecked conversion', 'unchecked'],
    ['serializable class a.B has no definition of serialVersionUID', 'serial'],
    ['[deprecation] x() in y has been deprecated', 'deprecation'],
    ['x() in y has been deprecated and marked for removal', 'removal'],
    ['redundant cast to java.lang.String', 'cast'],
    ['possible fall-through into case', 'fallthrough'],
    ['something javac never says', undefined],
  ])('lint of %j is %s', (message, lint) => expect(inferLint(message)).toBe(lint));

  it('reads the -Werror verdict of the compiler plugin and of javac', () => {
    expect(werrorMarker('/r/A.java: warnings found and -Werror specified')).toBe('/r/A.java');
    expect(werrorMarker('error: warnings found and -Werror specified')).toBe('');
    expect(werrorMarker('warnings found and -Werror specified')).toBe('');
    expect(werrorMarker('some other error')).toBeUndefined();
  });

  it("-Werror: only the warnings of the failing execution become errors; a passing module's warnings stay warnings", () => {
    const log = parseMavenLog(
      [
        '[INFO] --- maven-compiler-plugin:3.13.0:compile (default-compile) @ core ---',
        '[WARNING] /__ROOT__/core/src/main/java/C.java:[3,8] found raw type: java.util.List',
        '[INFO] --- maven-compiler-plugin:3.13.0:compile (default-compile) @ app ---',
        '[WARNING] /__ROOT__/app/src/main/java/A.java:[10,9] found raw type: java.util.List',
        '  missing type arguments for generic class java.util.List<E>',
        '[ERROR] /__ROOT__/app/src/main/java/A.java: warnings found and -Werror specified',
        '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile) on project app: Compilation failure',
        '[ERROR] /__ROOT__/app/src/main/java/A.java: warnings found and -Werror specified',
      ],
      { projectRoot: ROOT },
    );
    expect(log.compileErrors).toEqual([
      expect.objectContaining({
        file: 'app/src/main/java/A.java',
        line: 10,
        column: 9,
        lint: 'rawtypes',
        module: 'app',
        details: ['missing type arguments for generic class java.util.List<E>'],
      }),
    ]);
  });

  it("-Werror under -q: one line-less failure, which the recompile's warnings replace", () => {
    const quiet = assembleDiagnosis({
      log: parseMavenLog(
        [
          '[ERROR] /__ROOT__/src/A.java: warnings found and -Werror specified',
          '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile) on project app: Compilation failure',
        ],
        { projectRoot: ROOT },
      ),
      testDiagnostics: [],
      moduleFolders: [],
      exitCode: 1,
    });
    expect(quiet.diagnostics).toEqual([
      expect.objectContaining({ message: 'warnings found and -Werror specified', file: 'src/A.java' }),
    ]);
    expect(needsWarningRecovery(quiet)).toBe(true);
    const loud = assembleDiagnosis({
      log: parseMavenLog(
        [
          '[INFO] --- maven-compiler-plugin:3.13.0:compile (default-compile) @ app ---',
          '[WARNING] /__ROOT__/src/A.java:[4,5] found raw type: java.util.List',
          '[ERROR] /__ROOT__/src/A.java: warnings found and -Werror specified',
        ],
        { projectRoot: ROOT },
      ),
      testDiagnostics: [],
      moduleFolders: [],
      exitCode: 1,
    });
    const merged = mergeRecoveredWarnings(quiet, loud);
    expect(merged.diagnostics).toEqual([expect.objectContaining({ line: 4, lint: 'rawtypes' })]);
    expect(merged.fingerprint).not.toBe(quiet.fingerprint);
    expect(needsWarningRecovery(merged)).toBe(false);
    expect(mergeRecoveredWarnings(quiet, quiet)).toBe(quiet);
  });

  it('reads errors printed without a prefix only inside an error block, never from test output', () => {
    const log = parseMavenLog(
      [
        '[INFO] Running com.acme.ProcessorTest',
        '/__ROOT__/src/main/java/Gen.java:[1,1] printed by a test',
        'Gen.java:3: error: printed by an annotation-processor test',
        '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile) on project app: Compilation failure: Compilation failure:',
        '[ERROR] /__ROOT__/src/main/java/A.java:[1,1] first',
        '/__ROOT__/src/main/java/B.java:[2,2] second, without a prefix',
        '  symbol:   class B',
      ],
      { projectRoot: ROOT },
    );
    expect(log.compileErrors.map((d) => `${d.file}:${d.line}`)).toEqual([
      'src/main/java/A.java:1',
      'src/main/java/B.java:2',
    ]);
    expect(log.compileErrors[1]?.details).toEqual(['symbol:   class B']);
  });

  it('reads Windows paths without a drive against a root with or without one', () => {
    const line = '[ERROR] \\work\\app\\src\\main\\java\\A.java:[11,45] cannot find symbol';
    expect(parseMavenLog([line], { projectRoot: '\\work\\app' }).compileErrors[0]?.file).toBe('src/main/java/A.java');
    expect(parseMavenLog([line], { projectRoot: 'C:\\work\\app' }).compileErrors[0]?.file).toBe('src/main/java/A.java');
  });
});

describe('quality gates on the console', () => {
  it.each([
    [
      'src/main/java/A.java:[10,1] (whitespace) FileTabCharacter: File contains tab characters (this is the first instance).',
      {
        tool: 'checkstyle',
        file: 'src/main/java/A.java',
        fileBase: 'module',
        line: 10,
        column: 1,
        rule: 'FileTabCharacter',
      },
    ],
    [
      '/r/src/main/java/A.java:[10] (imports) UnusedImports: Unused import - java.util.List.',
      { tool: 'checkstyle', fileBase: 'absolute', line: 10, rule: 'UnusedImports' },
    ],
    [
      "PMD Failure: com.acme.Cart:14 Rule:UnusedLocalVariable Priority:3 Avoid unused local variables such as 'count'..",
      {
        tool: 'pmd',
        className: 'com.acme.Cart',
        line: 14,
        rule: 'UnusedLocalVariable',
        message: "Avoid unused local variables such as 'count'.",
      },
    ],
    [
      'Medium: Possible null pointer dereference of found in a.B.c(String[]) [a.B] Dereferenced at B.java:[line 18] NP_NULL_ON_SOME_PATH',
      { tool: 'spotbugs', className: 'a.B', sourceFile: 'B.java', line: 18, rule: 'NP_NULL_ON_SOME_PATH' },
    ],
    [
      'High: a.B.c() may expose internal representation [a.B, a.C] At B.java:[lines 3-9] EI_EXPOSE_REP',
      { tool: 'spotbugs', className: 'a.B', line: 3, rule: 'EI_EXPOSE_REP' },
    ],
    [
      'Low: a.B defines equals but not hashCode [a.B] In B.java HE_EQUALS_NO_HASHCODE',
      { tool: 'spotbugs', className: 'a.B', sourceFile: 'B.java', rule: 'HE_EQUALS_NO_HASHCODE' },
    ],
    ['Non complying file: /r/src/A.java', { tool: 'fmt', file: '/r/src/A.java', fileBase: 'absolute' }],
    ['Missing header in: C:\\r\\src\\A.java', { tool: 'license', fileBase: 'absolute' }],
    [
      "File '/r/src/A.java' has not been previously formatted.  Please format file",
      { tool: 'formatter', file: '/r/src/A.java' },
    ],
  ])('%s', (line, expected) => expect(qualityLine(line, {})).toMatchObject(expected));

  it("reads spotless' file list with the first changed line of each file, and forbiddenapis' two-line finding", () => {
    const reader = new MultiLineQuality();
    const lines = [
      'The following files had format violations:',
      '    src\\main\\java\\A.java',
      '        @@ -30,9 +30,7 @@',
      '         ····this.x·=·x;',
      '         ··}',
      '        -',
      '    src/main/java/B.java',
      '        @@ -1,3 +1,3 @@',
      '        -\\tint·x;',
      "Run 'mvn spotless:apply' to fix these violations.",
      'Forbidden method invocation: java.lang.String#toLowerCase() [Uses default locale]',
      '  in com.acme.Labels (Labels.java:8)',
    ];
    const found = lines.flatMap((line) => reader.feed(line).findings);
    expect(found).toEqual([
      expect.objectContaining({ tool: 'spotless', file: 'src\\main\\java\\A.java', line: 32 }),
      expect.objectContaining({ tool: 'spotless', file: 'src/main/java/B.java', line: 1 }),
      expect.objectContaining({
        tool: 'forbiddenapis',
        className: 'com.acme.Labels',
        sourceFile: 'Labels.java',
        line: 8,
      }),
    ]);
  });

  it('counts a finding only when its gate failed the build', () => {
    const passing = parseMavenLog(
      [
        '[INFO] --- maven-checkstyle-plugin:3.3.1:check (validate) @ app ---',
        '[WARNING] src/main/java/A.java:[1,1] (whitespace) FileTabCharacter: tab',
        '[ERROR] /__ROOT__/src/main/java/B.java:[2,2] cannot find symbol',
      ],
      { projectRoot: ROOT },
    );
    expect(passing.qualityFindings).toEqual([]);
    expect(passing.compileErrors).toHaveLength(1);
  });

  it('a gate that failed without naming a file: a formatter is still fixable, another gate is not (and says why)', () => {
    const log = parseMavenLog(
      [
        '[ERROR] Failed to execute goal com.spotify.fmt:fmt-maven-plugin:2.23:check (default) on project app: Found 1 non-complying files, failing build -> [Help 1]',
        '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-pmd-plugin:3.21.2:check (default) on project lib: You have 3 PMD violations. For more details see: /__ROOT__/lib/target/pmd.xml -> [Help 1]',
      ],
      { projectRoot: ROOT },
    );
    expect(log.qualityFailures[1]).toMatchObject({ tool: 'pmd', reportPath: '/__ROOT__/lib/target/pmd.xml' });
    const d = assembleDiagnosis({ log, testDiagnostics: [], moduleFolders: [], exitCode: 1 });
    expect(d.diagnostics).toEqual([
      expect.objectContaining({
        kind: 'quality',
        tool: 'fmt',
        fixable: true,
        goal: 'com.spotify.fmt:fmt-maven-plugin:2.23:check',
      }),
      expect.objectContaining({
        kind: 'quality',
        tool: 'pmd',
        fixable: false,
        reason: expect.stringContaining('target/pmd.xml'),
      }),
    ]);
    expect(d.fixable).toBe(true);
  });

  it('knows which goal repairs a formatting or header failure', () => {
    expect(fixGoalFor('com.diffplug.spotless:spotless-maven-plugin:2.43.0:check', 'spotless')).toBe(
      'com.diffplug.spotless:spotless-maven-plugin:2.43.0:apply',
    );
    expect(fixGoalFor('com.spotify.fmt:fmt-maven-plugin:2.23:check', 'fmt')).toBe(
      'com.spotify.fmt:fmt-maven-plugin:2.23:format',
    );
    expect(fixGoalFor('com.mycila:license-maven-plugin:4.3:check', 'license')).toBe(
      'com.mycila:license-maven-plugin:4.3:format',
    );
    expect(fixGoalFor('org.codehaus.mojo:license-maven-plugin:2.4.0:check-file-header', 'license')).toBe(
      'org.codehaus.mojo:license-maven-plugin:2.4.0:update-file-header',
    );
    expect(fixGoalFor('org.apache.maven.plugins:maven-checkstyle-plugin:3.3.1:check', 'checkstyle')).toBeUndefined();
    expect(fixGoalFor(undefined, 'spotless')).toBeUndefined();
  });
});

describe('quality reports', () => {
  it('reads checkstyle, PMD and SpotBugs reports, and a broken one as a warning', () => {
    expect(
      readCheckstyleReport(
        '<checkstyle><file name="/r/A.java"><error line="3" column="2" severity="error" message="m" source="com.puppycrawl.tools.checkstyle.checks.whitespace.FileTabCharacterCheck"/><error line="4" severity="info" message="i" source="x"/></file></checkstyle>',
      ).findings,
    ).toEqual([
      {
        tool: 'checkstyle',
        file: '/r/A.java',
        fileBase: 'absolute',
        message: 'm',
        rule: 'FileTabCharacter',
        line: 3,
        column: 2,
      },
    ]);
    expect(
      readPmdReport(
        '<pmd><file name="/r/A.java"><violation beginline="5" begincolumn="3" rule="R" priority="3">  text\n  more </violation></file></pmd>',
      ).findings,
    ).toEqual([
      { tool: 'pmd', file: '/r/A.java', fileBase: 'absolute', message: 'text more', rule: 'R', line: 5, column: 3 },
    ]);
    expect(
      readSpotbugsReport(
        '<BugCollection><BugInstance type="T" priority="2"><LongMessage>long</LongMessage><SourceLine classname="a.B" start="7" sourcefile="B.java"/></BugInstance></BugCollection>',
      ).findings,
    ).toEqual([{ tool: 'spotbugs', message: 'long', rule: 'T', className: 'a.B', sourceFile: 'B.java', line: 7 }]);
    expect(readPmdReport('<pmd><file name="x"', 'target/pmd.xml').warnings[0]).toMatch(/^cannot read target\/pmd.xml/);
  });
});

describe('Surefire fork failures', () => {
  const assemble = (lines: string[]) =>
    assembleDiagnosis({
      log: parseMavenLog(lines, { projectRoot: ROOT }),
      testDiagnostics: [],
      moduleFolders: [],
      exitCode: 1,
    });

  it('a kill by the OOM killer is a JVM crash that says so, not a test failure', () => {
    const d = assemble([
      '[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ app ---',
      '[INFO] Running com.acme.BigTest',
      '[ERROR] The forked VM terminated without properly saying goodbye. VM crash or System.exit called?',
      '[ERROR] Process Exit Code: 137',
    ]);
    expect(d.diagnostics).toEqual([
      expect.objectContaining({
        kind: 'other',
        category: 'jvm-crash',
        message: expect.stringContaining('com.acme.BigTest'),
      }),
    ]);
    expect(d.reason).toMatch(/SIGKILL.*out-of-memory killer/);
  });

  it('a timeout without a known test is a test diagnostic that cannot be fixed, and says how to learn more', () => {
    const d = assemble([
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project app: There was a timeout or other error in the fork -> [Help 1]',
    ]);
    expect(d.diagnostics).toEqual([
      expect.objectContaining({ kind: 'test', fixable: false, reason: expect.stringContaining('without -q') }),
    ]);
    expect(d.fixable).toBe(false);
  });

  it('finds the running test class in a dump file', () => {
    expect(
      classFromDump(
        '"main" #1\n\tat java.lang.Thread.sleep(Native Method)\n\tat com.acme.Poller.await(Poller.java:9)\n\tat com.acme.PollerTest.waits(PollerTest.java:8)\n',
      ),
    ).toBe('com.acme.PollerTest');
    expect(classFromDump('# Created at x\nRunning com.acme.SlowIT\n')).toBe('com.acme.SlowIT');
    expect(classFromDump('Killing self fork JVM.')).toBeUndefined();
  });
});

describe('reasons that say what happened', () => {
  it('names the mistyped phase and the nearest real one', () => {
    expect(nearestPhase('compil')).toBe('compile');
    expect(nearestPhase('verfy')).toBe('verify');
    expect(nearestPhase('zzzzzzzz')).toBeUndefined();
  });
});

describe('logs from elsewhere', () => {
  it('infers the project root of a foreign log from the module folders it shows', () => {
    expect(inferLogRoot(['/home/runner/work/app/app/core', '/home/runner/work/app/app/service'])).toBe(
      '/home/runner/work/app/app',
    );
    expect(inferLogRoot(['C:\\a\\proj\\core', 'C:\\a\\proj'])).toBe('C:/a/proj');
    expect(inferLogRoot([])).toBe('');
    const log = parseMavenLog([
      '[INFO] --- maven-resources-plugin:3.3.1:resources (default-resources) @ app ---',
      '[INFO] skip non existing resourceDirectory /ci/ws/app/src/main/resources',
      '[ERROR] /ci/ws/app/src/main/java/A.java:[1,2] boom',
    ]);
    expect(log.logRoot).toBe('/ci/ws/app');
    expect(log.compileErrors[0]?.file).toBe('src/main/java/A.java');
  });

  it('reads lone CR, CRLF split across chunks, a UTF-16 BE log and a line that is partly not UTF-8', async () => {
    const read = async (content: Buffer) => {
      const { file } = await tempFile('log.txt', content);
      const lines: string[] = [];
      const stats = await streamLogLines(file, (l) => lines.push(l), { chunkSize: 3 });
      return { lines, stats };
    };
    expect((await read(Buffer.from('a\rb\r\nc\n\rd'))).lines).toEqual(['a', 'b', 'c', '', 'd']);
    const be = Buffer.from('\ufeffx\r\ny', 'utf16le').swap16();
    expect(await read(be)).toMatchObject({ lines: ['x', 'y'], stats: { encoding: 'utf-16be' } });
    expect(decodeMixed(Buffer.from([0x4a, 0xfc, 0x72, 0x67, 0x65, 0x6e, 0x20, 0xc3, 0xa9]))).toBe('Jürgen é');
    expect(decodeMixed(Buffer.from([0xe2, 0x82]))).toBe('â\u0082');
  });
});

describe('plugin parsers', () => {
  it("classify a parser's findings the built-in way", () => {
    expect(
      classifyParsed({ kind: 'quality', message: 'm', file: '/r/src/A.java', line: 3 }, '/r', 'acme'),
    ).toMatchObject({ kind: 'quality', category: 'quality', fixable: true, file: 'src/A.java', tool: 'acme' });
    expect(classifyParsed({ kind: 'compile', message: 'no place' }, '/r', 'acme')).toMatchObject({
      fixable: false,
      reason: 'parser acme named no file to fix',
    });
    expect(
      classifyParsed(
        { kind: 'other', message: 'license server down', category: 'dependency-resolution' },
        '/r',
        'acme',
      ),
    ).toMatchObject({ fixable: false, category: 'dependency-resolution', reason: expect.any(String) });
    expect(classifyParsed({ kind: 'other', message: 'x', category: 'made-up' }, '/r', 'acme')).toMatchObject({
      category: 'unknown',
    });
  });

  it('a parser that throws or returns junk is stopped with a warning; the others go on', () => {
    const good: DiagnosticParser = {
      name: 'good',
      start: () => ({
        line: (l) =>
          l.text.startsWith('LINT ')
            ? { kind: 'quality', message: l.text.slice(5), file: 'A.java', line: 1 }
            : undefined,
      }),
    };
    const thrower: DiagnosticParser = {
      name: 'thrower',
      start: () => ({
        line: () => {
          throw new Error('boom');
        },
      }),
    };
    const junk: DiagnosticParser = {
      name: 'junk',
      start: () => ({ finish: () => [{ kind: 'weird', message: '' } as never] }),
    };
    const runs = new PluginParserRuns([good, thrower, junk], { projectRoot: '/r' });
    runs.line({ number: 1, text: 'LINT one' });
    runs.line({ number: 2, text: 'LINT two' });
    const found = runs.finish('/r');
    expect(found.map((d) => d.message)).toEqual(['one', 'two']);
    expect(runs.warnings).toEqual([
      'parser thrower: line() failed: boom; it was stopped (what it found before is kept)',
      expect.stringMatching(/^parser junk: finish\(\) failed: returned an invalid diagnostic: kind must be one of/),
    ]);
  });

  it('diagnoseBuild runs them over the log and hands them the reports they ask for', async () => {
    const { dir, file } = await tempFile(
      'console.txt',
      '[INFO] --- acme-lint:1.0:check (default) @ app ---\n[ERROR] ACME src/main/java/A.java:4 do not do that\n[ERROR] Failed to execute goal com.acme:acme-lint:1.0:check (default) on project app: 1 finding\n',
    );
    const { mkdir } = await import('node:fs/promises');
    await mkdir(path.join(dir, 'target'), { recursive: true });
    await writeFile(path.join(dir, 'target', 'acme-lint.txt'), 'src/main/java/B.java:9 from the report\n');
    const seen: string[] = [];
    const parser: DiagnosticParser = {
      name: 'acme-lint',
      reports: ['acme-lint.txt'],
      start: () => ({
        line: (line) => {
          seen.push(`${line.level}:${line.plugin ?? ''}`);
          const m = /^ACME (\S+):(\d+) (.*)$/.exec(line.text);
          return m
            ? {
                kind: 'quality',
                file: m[1]!,
                line: Number(m[2]),
                message: m[3]!,
                ...(line.module ? { module: line.module } : {}),
              }
            : undefined;
        },
        report: (report) =>
          report.text
            .trim()
            .split('\n')
            .map((row) => {
              const [where, ...rest] = row.split(' ');
              return {
                kind: 'quality' as const,
                file: where!.split(':')[0]!,
                line: Number(where!.split(':')[1]),
                message: rest.join(' '),
              };
            }),
      }),
    };
    const d = await diagnoseBuild({
      projectRoot: dir,
      logFile: file,
      runStartedAt: new Date(Date.now() - 5_000),
      exitCode: 1,
      parsers: [parser],
    });
    expect(seen).toContain('ERROR:acme-lint');
    expect(d.diagnostics.map((x) => `${x.kind} ${x.tool} ${x.file}:${x.line}`)).toEqual([
      'quality acme-lint src/main/java/A.java:4',
      'quality acme-lint src/main/java/B.java:9',
    ]);
    expect(d.fixable).toBe(true);
  });
});
