/**
 * The repetition run (its Java side: test-repeat-source.ts): the failing tests run once and
 * then again, each on its own in reverse order, in one JVM on the workspace's test class
 * path, started under the same isolation as a verification stage. The JUnit Platform
 * launcher is the project's own version, taken from the local repository next to the
 * engine jar the class path names (Surefire brings its launcher itself, so the test class
 * path has none). IO at the edge; what the results mean is the caller's (repair/integrity/).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compiledHarness, javaOf, runHarnessJvm } from './behaviour-probe.js';
import { compileCaptureClasses, type CaptureFile } from './call-capture.js';
import type { SandboxInfo } from './sandbox.js';
import { REPEAT_CLASS_NAME, REPEAT_SOURCE } from './test-repeat-source.js';

export type RepeatStatus = 'SUCCESSFUL' | 'FAILED' | 'ABORTED';

/** One test method's result in one of the two runs. */
export interface RepeatResult {
  run: 1 | 2;
  /** `Class#method` */
  test: string;
  status: RepeatStatus;
  /** The first line of what it threw (empty when it passed). */
  why: string;
}

/** A probed method's arguments at one call while the tests ran (`n:1900`, `s:text`, `null`, ...). */
export interface CapturedCall {
  site: string;
  args: string[];
}

export interface RepeatRun {
  results: RepeatResult[];
  end: 'complete' | 'budget' | 'failed';
  why?: string;
  durationMs: number;
  /** The probed methods' calls while the tests ran (when `capture` was asked for and compiled). */
  captured: CapturedCall[];
  /** Why nothing was captured although it was asked for. */
  captureWhy?: string;
}

export interface RepeatInput {
  workspaceRoot: string;
  /** The failing tests' module folder inside the workspace (tests may read files relative to it). */
  moduleDir: string;
  scratchDir: string;
  cacheDir: string;
  env: NodeJS.ProcessEnv;
  pass: readonly string[];
  sandbox: SandboxInfo;
  /** The workspace's test class path (Surefire's, test classes included). */
  classPath: string[];
  /** `Class#method` or `Class` */
  tests: readonly string[];
  budgetMs: number;
  signal?: AbortSignal;
  /** Main files to compile with a record call in the probed methods (call-capture.ts). */
  capture?: readonly CaptureFile[];
}

/** Where the run's files go inside the workspace (removed after). */
export const REPEAT_DIR = '.mvnx-repeat';

export async function runTestsTwice(input: RepeatInput): Promise<RepeatRun> {
  const started = Date.now();
  const failed = (why: string): RepeatRun => ({
    results: [],
    end: 'failed',
    why,
    durationMs: Date.now() - started,
    captured: [],
  });
  const launcher = launcherJarFor(input.classPath);
  if (!launcher) return failed('no JUnit Platform launcher of the engine version on the test class path was found');
  const java = javaOf(input.env);
  if (!java) return failed('no java was found (JAVA_HOME, PATH)');
  const harness = await compiledHarness(input.cacheDir, input.env, 'test-repeat', REPEAT_CLASS_NAME, REPEAT_SOURCE);
  if ('why' in harness) return failed(harness.why);
  const dir = path.join(input.workspaceRoot, REPEAT_DIR);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await cp(harness.classes, path.join(dir, 'harness'), { recursive: true });
  const spec = [
    `budget\t${input.budgetMs}`,
    ...input.tests.map((test) => {
      const [className, method] = test.split('#');
      return `test\t${className}\t${methodName(method ?? '')}`;
    }),
  ];
  const specFile = path.join(dir, 'spec.tsv');
  await writeFile(specFile, `${spec.join('\n')}\n`);
  let captureWhy: string | undefined;
  const instrumented: string[] = [];
  if (input.capture && input.capture.length > 0) {
    const compiled = await compileCaptureClasses({
      ...input,
      files: input.capture,
      dir,
      harnessClasses: path.join(dir, 'harness'),
      classPath: input.classPath,
    });
    if ('why' in compiled) captureWhy = compiled.why;
    else instrumented.push(compiled.classes);
  }
  // The instrumented classes shadow the patched ones: the same code, plus a record call.
  const classPath = [
    ...instrumented,
    path.join(dir, 'harness'),
    ...(input.classPath.includes(launcher) ? [] : [launcher]),
  ];
  // As Surefire runs them: relative paths from the module folder.
  const jvmArgs = [`-Dbasedir=${input.moduleDir}`, `-Duser.dir=${input.moduleDir}`];
  const run = await runHarnessJvm(
    input,
    java,
    jvmArgs,
    [...classPath, ...input.classPath],
    REPEAT_CLASS_NAME,
    specFile,
  );
  await rm(dir, { recursive: true, force: true });
  const parsed = parseRepeatOutput(run.stdout);
  if (parsed.error) return failed(`the tests could not be run again: ${parsed.error}`);
  if (parsed.end === undefined)
    return failed(
      run.timedOut ? 'the repetition did not end in time' : `the repetition stopped: ${run.stderr.split('\n')[0]}`,
    );
  return {
    results: parsed.results,
    end: parsed.end,
    durationMs: Date.now() - started,
    captured: parsed.captured,
    ...(captureWhy ? { captureWhy } : {}),
  };
}

/** A Surefire test name's method: `total(int)[1]` and `total()` are `total`. */
export function methodName(name: string): string {
  return name.replace(/[([].*$/, '').trim();
}

/** The harness's output lines. */
export function parseRepeatOutput(stdout: string): {
  results: RepeatResult[];
  captured: CapturedCall[];
  end?: 'complete' | 'budget';
  error?: string;
} {
  const results: RepeatResult[] = [];
  const captured: CapturedCall[] = [];
  let end: 'complete' | 'budget' | undefined;
  let error: string | undefined;
  for (const line of stdout.split('\n')) {
    const fields = line.split('\t');
    if (fields[0] === 'end') end = fields[1] === 'budget' ? 'budget' : 'complete';
    if (fields[0] === 'error') error = fields.slice(1).join(' ');
    if (fields[0] === 'c' && fields.length >= 2)
      captured.push({ site: fields[1]!, args: fields.slice(2).map((value) => canonicalCaptured(unescaped(value))) });
    if (fields[0] !== 't' || fields.length < 4) continue;
    const status = fields[3];
    if (status !== 'SUCCESSFUL' && status !== 'FAILED' && status !== 'ABORTED') continue;
    results.push({ run: fields[1] === '2' ? 2 : 1, test: fields[2]!, status, why: fields[4] ?? '' });
  }
  return { results, captured, ...(end ? { end } : {}), ...(error ? { error } : {}) };
}

function unescaped(text: string): string {
  return text.replace(/\\(.)/g, (_, char: string) => ({ n: '\n', t: '\t', r: '\r' })[char] ?? char);
}

/** Java's `1900.0` and `1900` are one number, as the probe's constants write it (`n:1900`). */
function canonicalCaptured(value: string): string {
  if (!value.startsWith('n:')) return value;
  const text = value.slice(2);
  if (/^-?\d+$/.test(text)) return `n:${BigInt(text)}`;
  return `n:${Number(text)}`;
}

/**
 * The launcher jar of the JUnit Platform version the class path's engine jar has, from the
 * local repository it lies in (`…/junit-platform-engine/<v>/junit-platform-engine-<v>.jar`);
 * the class path's own launcher when it has one.
 */
export function launcherJarFor(classPath: readonly string[]): string | undefined {
  const own = classPath.find((entry) => /junit-platform-launcher-[^\\/]*\.jar$/.test(entry));
  if (own) return own;
  for (const entry of classPath) {
    const match = /^(.*[\\/])junit-platform-engine([\\/])([^\\/]+)[\\/]junit-platform-engine-\3\.jar$/.exec(entry);
    if (!match) continue;
    const [, base, sep, version] = match;
    const jar = `${base}junit-platform-launcher${sep}${version}${sep}junit-platform-launcher-${version}.jar`;
    if (existsSync(jar)) return jar;
  }
  return undefined;
}
