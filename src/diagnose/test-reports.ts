/**
 * The file side of test results: finding the reports a run wrote, and turning failing
 * cases into diagnostics whose file/line point at the first frame in project source.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { diagnosticFingerprint } from './fingerprint.js';
import { discoverModules, type ModuleFolder } from './modules.js';
import { joinRelative, relativeToRoot, toForwardSlashes } from './log-paths.js';
import {
  analyseStackTrace,
  condenseStackTrace,
  firstProjectFrame,
  frameSourceCandidates,
  type CauseChain,
  type ProjectFrame,
  type StackFrame,
} from './stack.js';
import { parseSurefireReport, type ReportedTestCase } from './surefire.js';
import { truncate } from './text.js';
import type { Diagnostic, TestCaseResult } from './types.js';

/** Reports older than the run start by more than this are stale (clock and fs slack). */
export const CLOCK_SLACK_MS = 2_000;
const REPORT_DIRS = ['target/surefire-reports', 'target/failsafe-reports'];
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/**
 * The last parse of each report file in this process, with a hash of what it parsed: the
 * diagnosis and the repair's baseline read the same reports of the user's build (jsoup: 57
 * reports, 1,834 cases, about 80 ms to parse each time). One entry per file, replaced when
 * the file's content changes (each verification build rewrites its workspace's reports).
 * Answers are shared, never changed by a reader.
 */
const lastParse = new Map<string, { hash: string; parsed: ReturnType<typeof parseSurefireReport> }>();

function parseReportOnce(absFile: string, xml: string, reportFile: string): ReturnType<typeof parseSurefireReport> {
  const hash = createHash('sha256').update(reportFile).update('\u0000').update(xml).digest('hex');
  const known = lastParse.get(absFile);
  if (known?.hash === hash) return known.parsed;
  const parsed = parseSurefireReport(xml, reportFile);
  lastParse.set(absFile, { hash, parsed });
  return parsed;
}

export interface CollectedCase extends ReportedTestCase {
  module?: string;
  moduleDir: string;
  reportFile: string;
}

export interface CollectInput {
  projectRoot: string;
  /** Module folders, root-relative (or absolute); default: every module the poms list. */
  moduleDirs?: string[];
  since?: Date;
  /**
   * Report file (root-relative) -> its modification time before a run: a report still
   * bearing that time was not rewritten by the run, however recent it is.
   */
  unchangedSince?: ReadonlyMap<string, number>;
  /** Folders already discovered from the poms (skips reading them again). */
  knownFolders?: ModuleFolder[];
  /** Report folders relative to each module; default Surefire's and Failsafe's. */
  reportDirs?: readonly string[];
}

export interface CollectOutcome {
  cases: CollectedCase[];
  warnings: string[];
  reportCount: number;
}

async function listReports(dir: string): Promise<string[]> {
  try {
    const names = await readdir(dir);
    return names.filter((n) => /^TEST-.*\.xml$/.test(n)).sort();
  } catch {
    return [];
  }
}

async function moduleFolders(input: CollectInput, warnings: string[]): Promise<ModuleFolder[]> {
  const discovered = input.knownFolders ?? (await discoverModules(input.projectRoot, warnings));
  if (!input.moduleDirs) return discovered.length > 0 ? discovered : [{ dir: '' }];
  return input.moduleDirs.map((d) => {
    const dir = relativeToRoot(d, input.projectRoot);
    return discovered.find((f) => f.dir === dir) ?? { dir };
  });
}

export async function collectTestCases(input: CollectInput): Promise<CollectOutcome> {
  const warnings: string[] = [];
  const folders = await moduleFolders(input, warnings);
  const threshold = input.since ? input.since.getTime() - CLOCK_SLACK_MS : -Infinity;
  const cases: CollectedCase[] = [];
  const seen = new Map<string, number>();
  let reportCount = 0;
  for (const folder of folders) {
    for (const reportDir of input.reportDirs ?? REPORT_DIRS) {
      const relDir = joinRelative(folder.dir, reportDir);
      const absDir = path.join(input.projectRoot, relDir);
      for (const name of await listReports(absDir)) {
        const absFile = path.join(absDir, name);
        const reportFile = `${relDir}/${name}`;
        let info;
        try {
          info = await stat(absFile);
        } catch {
          continue;
        }
        if (info.mtimeMs < threshold) continue;
        if (input.unchangedSince?.get(reportFile) === info.mtimeMs) continue;
        if (info.size > MAX_REPORT_BYTES) {
          warnings.push(`report ${reportFile} is larger than ${MAX_REPORT_BYTES} bytes; skipped`);
          continue;
        }
        reportCount++;
        const xml = await readFile(absFile, 'utf8');
        const parsed = parseReportOnce(absFile, xml, reportFile);
        warnings.push(...parsed.warnings);
        for (const c of parsed.cases) {
          // Surefire may list a nested class's cases in more than one report.
          const key = `${folder.dir}\u0000${c.className}\u0000${c.reportedName}`;
          const at = seen.get(key);
          const entry: CollectedCase = {
            ...c,
            moduleDir: folder.dir,
            reportFile,
            ...(folder.artifactId ? { module: folder.artifactId } : {}),
          };
          if (at === undefined) {
            seen.set(key, cases.length);
            cases.push(entry);
          } else if (c.failure && !cases[at]?.failure) {
            cases[at] = entry;
          }
        }
      }
    }
  }
  return { cases, warnings, reportCount };
}

/** Every report's modification time, to tell afterwards which ones a run rewrote (see `unchangedSince`). */
export async function reportTimes(
  input: Pick<CollectInput, 'projectRoot' | 'moduleDirs' | 'knownFolders'>,
): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const folder of await moduleFolders(input, [])) {
    for (const reportDir of REPORT_DIRS) {
      const relDir = joinRelative(folder.dir, reportDir);
      for (const name of await listReports(path.join(input.projectRoot, relDir))) {
        const info = await stat(path.join(input.projectRoot, relDir, name)).catch(() => undefined);
        if (info) times.set(`${relDir}/${name}`, info.mtimeMs);
      }
    }
  }
  return times;
}

export async function collectTestResults(input: CollectInput): Promise<TestCaseResult[]> {
  const { cases } = await collectTestCases(input);
  return cases.map((c) => ({
    className: c.className,
    method: c.method,
    ...(c.module ? { module: c.module } : {}),
    status: c.status,
    reportFile: c.reportFile,
    ...(c.reportedName !== c.method ? { reportedName: c.reportedName } : {}),
  }));
}

/**
 * Maps a frame to an existing source file, caching lookups: the test's own module first,
 * then the project's other modules (the code under test often lives in a sibling).
 */
export function sourceResolver(
  projectRoot: string,
  moduleDir: string,
  cache = new Map<string, boolean>(),
  otherModuleDirs: readonly string[] = [],
): (frame: StackFrame) => string | undefined {
  const dirs = [moduleDir, ...otherModuleDirs.filter((dir) => dir !== moduleDir)];
  return (frame) => {
    for (const candidate of dirs.flatMap((dir) =>
      frameSourceCandidates(frame).map((relative) => joinRelative(dir, relative)),
    )) {
      const rel = candidate;
      let exists = cache.get(rel);
      if (exists === undefined) {
        exists = existsSync(path.join(projectRoot, rel));
        cache.set(rel, exists);
      }
      if (exists) return toForwardSlashes(rel);
    }
    return undefined;
  };
}

const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** Pure given `resolve`: one diagnostic per failing case. */
export function testCaseDiagnostic(c: CollectedCase, resolve: (frame: StackFrame) => string | undefined): Diagnostic {
  const failure = c.failure ?? { outcome: 'error' as const, type: '', message: '', stackTrace: '' };
  const lines = failure.stackTrace.split(/\r?\n/);
  const chain = analyseStackTrace(lines, resolve);
  const rootCause = chain.rootCause > 0 ? chain.sections[chain.rootCause]?.header.split('\n')[0] : undefined;
  // A display name is not a method name; the test class's own frame says which method ran.
  let method = c.method;
  if (!IDENTIFIER.test(method)) {
    const own = firstProjectFrame(lines, (f) => (f.className === c.className ? f.method : undefined));
    if (own) method = own.file;
  }
  const project = failureLocation(chain, c.className, method, failure.type);
  const firstLine = failure.message.split(/\r?\n/)[0]?.trim() ?? '';
  const message = truncate(firstLine || failure.type || `${c.status} without a message`, 500);
  // A StackOverflowError is usually a code bug (recursion); running out of memory is not.
  const crashed = /OutOfMemoryError|InternalError|UnknownError/.test(failure.type);
  const d: Diagnostic = {
    kind: 'test',
    category: crashed ? 'jvm-crash' : 'test',
    fixable: !crashed,
    message,
    ...(project ? { file: project.file, ...(project.frame.line ? { line: project.frame.line } : {}) } : {}),
    ...(c.module ? { module: c.module } : {}),
    test: `${c.className}#${method}`,
    testFailure: {
      className: c.className,
      method,
      outcome: failure.outcome,
      failureType: failure.type,
      stackTrace: condenseStackTrace(lines, (frame) => resolve(frame) !== undefined),
      ...(rootCause ? { rootCause } : {}),
      ...(chain.projectFrames.length > 0
        ? {
            frames: chain.projectFrames.map(({ frame, file }) => ({
              file,
              ...(frame.line ? { line: frame.line } : {}),
              className: frame.className,
              method: frame.method,
            })),
          }
        : {}),
      reportFile: c.reportFile,
    },
    ...(crashed
      ? { reason: 'the test JVM ran out of memory or crashed; that needs JVM settings, not a code patch' }
      : {}),
    fingerprint: '',
  };
  d.fingerprint = diagnosticFingerprint(d);
  return d;
}

/** Test sources and resources by convention, of any module. */
const TEST_SIDE_PATH = /(^|\/)src\/(test|it|integration-test|testFixtures|test-fixtures)\//;
/** Failures a test framework's assertion raised (not an exception of the code under test). */
const ASSERTION_FAILURE =
  /^(org\.opentest4j|org\.junit|junit\.framework|org\.assertj|org\.hamcrest|org\.testng)\.|AssertionFailedError$|ComparisonFailure$|MultipleFailuresError$/;

/**
 * Where the failure is, for the diagnostic: the deepest project frame, unless that is on
 * the test side (a helper of the test class, a shared test utility, a custom assertion of
 * a test-support module): then the failing test method's own line, so the model looks at
 * the code the test calls, not at the helper; the helper's frames stay in
 * `testFailure.frames` as context.
 */
function failureLocation(
  chain: CauseChain,
  testClass: string,
  method: string,
  failureType: string,
): ProjectFrame | undefined {
  const primary = chain.primary;
  if (!primary) return undefined;
  const own = chain.projectFrames.find(
    (entry) =>
      (entry.frame.className === testClass || entry.frame.className.startsWith(`${testClass}$`)) &&
      entry.frame.method === method,
  );
  if (!own || own === primary) return primary;
  const helper =
    TEST_SIDE_PATH.test(primary.file) || primary.frame.className === testClass || ASSERTION_FAILURE.test(failureType);
  return helper ? own : primary;
}

export function failingTestDiagnostics(
  projectRoot: string,
  cases: CollectedCase[],
  moduleDirs: readonly string[] = [],
): Diagnostic[] {
  const cache = new Map<string, boolean>();
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const c of cases) {
    if (c.status !== 'failed' && c.status !== 'error') continue;
    const d = testCaseDiagnostic(c, sourceResolver(projectRoot, c.moduleDir, cache, moduleDirs));
    // Parameterised invocations of one method failing the same way are one failure.
    if (seen.has(d.fingerprint)) continue;
    seen.add(d.fingerprint);
    out.push(d);
  }
  return out;
}
