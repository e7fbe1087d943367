// The log side of diagnosis on hand-written inputs: robustness, categories, paths.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseBuild, parseMavenLog, relativeToRoot } from '../../src/diagnose/index.js';
import { assembleDiagnosis } from '../../src/diagnose/diagnosis.js';
import { streamLogLines } from '../../src/diagnose/read-log.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = '/__ROOT__';

async function tempFile(name: string, content: string | Buffer): Promise<{ dir: string; file: string }> {
  const dir = await tempDir('mvnx-diagnose-log-');
  const file = path.join(dir, name);
  await writeFile(file, content);
  return { dir, file };
}

describe('relativeToRoot', () => {
  it.each([
    ['/w/p/src/A.java', '/w/p', 'src/A.java'],
    ['/w/p/src/A.java', '/w/p/', 'src/A.java'],
    ['C:\\Users\\dev\\my proj\\src\\A.java', 'C:\\Users\\dev\\my proj', 'src/A.java'],
    ['C:/Users/dev/my proj/src/A.java', 'C:\\Users\\dev\\my proj', 'src/A.java'],
    ['/elsewhere/A.java', '/w/p', '/elsewhere/A.java'],
    ['D:\\other\\A.java', 'C:\\p', 'D:/other/A.java'],
    ['src\\A.java', '/w/p', 'src/A.java'],
    ['/w/p', '/w/p', ''],
  ])('%s under %s is %s', (file, root, expected) => {
    expect(relativeToRoot(file, root)).toBe(expected);
  });
});

describe('parseMavenLog', () => {
  it('keeps warnings out of the diagnostics, and their continuation lines too', () => {
    const result = parseMavenLog(
      [
        '[INFO] --- maven-compiler-plugin:3.13.0:compile (default-compile) @ app ---',
        '[WARNING] /__ROOT__/src/main/java/A.java:[3,8] deprecated API',
        '  symbol: class Old',
        '[ERROR] /__ROOT__/src/main/java/B.java:[4,1] class, interface, enum, or record expected',
      ],
      { projectRoot: ROOT },
    );
    expect(result.compileErrors).toHaveLength(1);
    expect(result.compileErrors[0]).toMatchObject({
      file: 'src/main/java/B.java',
      line: 4,
      column: 1,
      module: 'app',
      scope: 'main',
    });
    expect(result.compileErrors[0]?.details).toBeUndefined();
    expect(result.mavenWarnings).toEqual(['/__ROOT__/src/main/java/A.java:[3,8] deprecated API']);
  });

  it('reads errors without a column and classifies test sources by the goal', () => {
    const result = parseMavenLog(
      [
        '[INFO] --- maven-compiler-plugin:3.13.0:testCompile (default-testCompile) @ app ---',
        '[ERROR] /__ROOT__/src/it/java/ATest.java:[9] unreachable statement',
      ],
      { projectRoot: ROOT },
    );
    expect(result.compileErrors[0]).toMatchObject({ line: 9, scope: 'test', message: 'unreachable statement' });
    expect(result.compileErrors[0]?.column).toBeUndefined();
  });

  it('gives an unparseable javac failure a diagnostic that is not fixable', () => {
    const result = parseMavenLog(['[ERROR] Failure executing javac, but could not parse the error:'], {
      projectRoot: ROOT,
    });
    expect(result.compileErrors).toEqual([
      expect.objectContaining({ kind: 'compile', fixable: false, reason: expect.any(String) }),
    ]);
  });

  it('names an unrecognised failure unknown, with the goal message', () => {
    const result = parseMavenLog(
      [
        '[INFO] BUILD FAILURE',
        '[ERROR] Failed to execute goal com.x:weird-plugin:1.0:run (default) on project app: it broke -> [Help 1]',
      ],
      { projectRoot: ROOT },
    );
    expect(result.otherFailures).toEqual([
      expect.objectContaining({ category: 'unknown', module: 'app', message: 'it broke -> [Help 1]', fixable: false }),
    ]);
  });

  it('recognises a forked VM crash and hs_err files: a JVM crash, not a test failure', () => {
    const log = parseMavenLog(
      [
        '[ERROR] ExecutionException The forked VM terminated without properly saying goodbye. VM crash or System.exit called?',
        '# /__ROOT__/hs_err_pid4242.log',
      ],
      { projectRoot: ROOT },
    );
    expect(log.forkFailures).toEqual([expect.objectContaining({ kind: 'exit', fatalErrorFile: true })]);
    const diagnosis = assembleDiagnosis({ log, testDiagnostics: [], moduleFolders: [], exitCode: 1 });
    expect(diagnosis.diagnostics).toEqual([
      expect.objectContaining({ kind: 'other', category: 'jvm-crash', fixable: false }),
    ]);
    expect(diagnosis.reason).toMatch(/hs_err_pid file/);
  });

  it('reads the Surefire console summary as a fallback for missing reports', () => {
    const result = parseMavenLog(
      [
        '[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ bank ---',
        '[ERROR] Failures: ',
        '[ERROR]   AccountTest.withdraw:25 expected: <70> but was: <69>',
        '[ERROR] Errors: ',
        '[ERROR]   AccountTest.deposit:39 » IllegalArgument negative deposit: -3',
        '[ERROR] Tests run: 9, Failures: 1, Errors: 1, Skipped: 0',
      ],
      { projectRoot: ROOT },
    );
    expect(result.testFailuresReported).toBe(true);
    expect(result.consoleTestFailures).toEqual([
      {
        className: 'AccountTest',
        method: 'withdraw',
        line: 25,
        message: 'expected: <70> but was: <69>',
        outcome: 'failure',
        module: 'bank',
      },
      {
        className: 'AccountTest',
        method: 'deposit',
        line: 39,
        message: 'IllegalArgument negative deposit: -3',
        outcome: 'error',
        module: 'bank',
      },
    ]);
  });

  it('skips binary junk with a warning, and keeps a line another tool decoded lossily (U+FFFD)', () => {
    const result = parseMavenLog(
      [
        '\u0000\u0001\u0002garbage',
        '[ERROR] /__ROOT__/A.java:[1,1] oops',
        '[ERROR] /__ROOT__/J\ufffdrgen/B.java:[2,2] lost letter',
      ],
      { projectRoot: ROOT },
    );
    expect(result.compileErrors.map((d) => d.file)).toEqual(['A.java', 'J\ufffdrgen/B.java']);
    expect(result.warnings).toEqual(['log contains 1 line(s) of binary data; they were skipped']);
  });
});

describe('streamLogLines', () => {
  it('cuts an overlong line instead of holding it whole, and counts the cut', async () => {
    const { file } = await tempFile('long.txt', 'x'.repeat(300_000) + '\nnext\n');
    const lines: string[] = [];
    const stats = await streamLogLines(file, (l) => lines.push(l), { maxLineLength: 1000, chunkSize: 4096 });
    expect(lines.map((l) => l.length)).toEqual([1000, 4]);
    expect(stats.cutLines).toBe(1);
  });

  it('decodes multi-byte characters split across chunks, and reads the bytes that are not UTF-8 as Latin-1', async () => {
    const bytes = Buffer.concat([Buffer.from('[ERROR] ü'), Buffer.from([0xff, 0xfe]), Buffer.from('\nlast')]);
    const { file } = await tempFile('bytes.txt', bytes);
    const lines: string[] = [];
    const stats = await streamLogLines(file, (l) => lines.push(l), { chunkSize: 9 });
    expect(lines).toEqual(['[ERROR] üÿþ', 'last']);
    expect(stats.latin1Lines).toBe(1);
  });
});

describe('diagnoseBuild on edge inputs', () => {
  it('turns an interrupt into a non-fixable diagnosis even with compile errors in the log', async () => {
    const { dir, file } = await tempFile('console.txt', '[ERROR] /x/A.java:[1,1] oops\n');
    const d = await diagnoseBuild({
      projectRoot: dir,
      logFile: file,
      runStartedAt: new Date(),
      exitCode: 130,
      interrupted: true,
    });
    expect(d.diagnostics.map((x) => x.category)).toEqual(['compile', 'interrupted']);
    expect(d.fixable).toBe(false);
    expect(d.reason).toBe('the build was interrupted before it finished');
  });

  it('turns a timeout into category timeout', async () => {
    const { dir, file } = await tempFile('console.txt', '[INFO] Scanning for projects...\n');
    const d = await diagnoseBuild({
      projectRoot: dir,
      logFile: file,
      runStartedAt: new Date(),
      exitCode: 143,
      timedOut: true,
    });
    expect(d.diagnostics).toEqual([expect.objectContaining({ kind: 'other', category: 'timeout', fixable: false })]);
    expect(d.fixable).toBe(false);
  });

  it('says so when the log is missing, instead of throwing', async () => {
    const dir = await tempDir('mvnx-diagnose-log-');
    const d = await diagnoseBuild({
      projectRoot: dir,
      logFile: path.join(dir, 'absent.txt'),
      runStartedAt: new Date(),
      exitCode: 1,
    });
    expect(d.warnings[0]).toMatch(/^cannot read the log .*absent\.txt/);
    expect(d.diagnostics).toEqual([
      expect.objectContaining({
        category: 'unknown',
        message: 'Maven exited with code 1 and the log names no failure',
      }),
    ]);
    expect(d.fixable).toBe(false);
  });

  it('warns about a truncated log and still reports what it holds', async () => {
    const { dir, file } = await tempFile('console.txt', '[ERROR] /x/A.java:[1,1] oops\n[ERROR] /x/B.java:[2');
    const d = await diagnoseBuild({
      projectRoot: dir,
      logFile: file,
      runStartedAt: new Date(),
      exitCode: 1,
      logTruncated: true,
    });
    expect(d.diagnostics).toHaveLength(1);
    expect(d.warnings).toContain('the log was truncated (its head was dropped); the diagnosis may be partial');
    expect(d.fixable).toBe(true);
  });

  it('reports a malformed root pom as a warning, not a throw', async () => {
    const { dir, file } = await tempFile('console.txt', '[ERROR] /x/A.java:[1,1] oops\n');
    await writeFile(
      path.join(dir, 'pom.xml'),
      '<project><artifactId>a</artifactId><modules><module>m</modules></project',
    );
    const d = await diagnoseBuild({ projectRoot: dir, logFile: file, runStartedAt: new Date(), exitCode: 1 });
    expect(d.warnings).toContain('cannot read pom.xml: Closing Tag is not closed.');
    expect(d.diagnostics).toHaveLength(1);
  });
});

describe('never throws on arbitrary input', () => {
  it('parseMavenLog and parseSurefireReport return a result for any text', async () => {
    const fc = (await import('fast-check')).default;
    const { parseSurefireReport } = await import('../../src/diagnose/index.js');
    const fragments = fc.constantFrom(
      '[ERROR] ',
      '[WARNING] ',
      '/__ROOT__/A.java:[',
      '1,2] ',
      '  symbol: x',
      'Failed to execute goal ',
      ' on project ',
      '<testcase name="',
      '"/>',
      '<failure ',
      '\u0000',
      '\ufffd',
      '\x1b[1;31m',
      'C:\\x\\',
      '\n',
    );
    const text = fc.array(fc.oneof(fragments, fc.string()), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const log = parseMavenLog(t.split('\n'), { projectRoot: ROOT });
        expect(Array.isArray(log.compileErrors)).toBe(true);
        expect(Array.isArray(parseSurefireReport(t, 'r.xml').cases)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
