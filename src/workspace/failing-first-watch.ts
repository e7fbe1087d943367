/**
 * Watching the reports of the failing test classes while the verdict build runs them first
 * (class-order.ts): Surefire writes a class's XML report when the class ends, long before
 * the module's other tests do. Once every failing class of a module has reported, a
 * failing test that still fails ends the candidate: the watch aborts the build, which has
 * then cost one compile and those classes, as the separate Surefire execution would. Its
 * reports stay where the diagnosis of the failed build reads them. The judgement is pure;
 * the polling is the IO edge.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseSurefireReport, type ReportedTestCase } from '../diagnose/surefire.js';
import type { FailingFirstOutcome } from './failing-first.js';

/** A failing module's build folder (absolute: its `target/`) and its failing test classes. */
export interface WatchedModule {
  targetDir: string;
  classes: string[];
}

/** Per module, the cases of each failing class's report once it is complete (absent: not yet). */
export type ReportsSeen = ReadonlyMap<string, ReadonlyMap<string, readonly ReportedTestCase[]>>;

/**
 * `still-failing` as soon as some module has every failing class reported and one of
 * `tests` (`Class#method`) failed there; `passed` when every module has reported without
 * that; else `waiting`. A test absent from the reports is for the verdict to judge.
 */
export function judgeFirstReports(
  modules: readonly WatchedModule[],
  seen: ReportsSeen,
  tests: readonly string[],
): 'waiting' | 'passed' | 'still-failing' {
  const failing = new Set(tests);
  let complete = 0;
  for (const module of modules) {
    const reports = seen.get(module.targetDir);
    if (!module.classes.every((name) => reports?.has(name))) continue;
    complete++;
    const cases = module.classes.flatMap((name) => [...(reports!.get(name) ?? [])]);
    if (cases.some((c) => (c.status === 'failed' || c.status === 'error') && failing.has(`${c.className}#${c.method}`)))
      return 'still-failing';
  }
  return complete === modules.length ? 'passed' : 'waiting';
}

/** Where a test class's XML report is written: by Surefire, or by Failsafe for an integration test. */
export function reportFilesOf(targetDir: string, className: string): string[] {
  return ['surefire-reports', 'failsafe-reports'].map((folder) =>
    path.join(targetDir, folder, `TEST-${className}.xml`),
  );
}

/** Removes the failing classes' reports left from an earlier build, so that only this build's can be seen. */
export async function clearFirstReports(modules: readonly WatchedModule[]): Promise<void> {
  for (const module of modules)
    for (const name of module.classes)
      for (const file of reportFilesOf(module.targetDir, name)) await rm(file, { force: true });
}

/**
 * The cases of a class whose report is complete, or undefined while one is not. A class with
 * `@Nested` classes: Surefire 3 writes the nested reports (`TEST-a.BTest$Inner.xml`) first and
 * the class's own last, and may put the enclosing class's cases in a nested one (jsoup's
 * HtmlParserTest: 251 cases in `$DeepHtmlTrees`, 0 in its own), so all of them are read.
 */
async function casesOfClass(file: string, className: string): Promise<ReportedTestCase[] | undefined> {
  const dir = path.dirname(file);
  const nested = (await readdir(dir).catch(() => [] as string[])).filter(
    (name) => name.startsWith(`TEST-${className}$`) && name.endsWith('.xml'),
  );
  const cases: ReportedTestCase[] = [];
  for (const report of [file, ...nested.map((name) => path.join(dir, name))]) {
    const parsed = parseSurefireReport(await readFile(report, 'utf8').catch(() => ''), report);
    if (parsed.warnings.length > 0) return undefined;
    cases.push(...parsed.cases);
  }
  return cases;
}

export interface FailingFirstWatch {
  /** Aborted when the failing tests still fail: stop the build. */
  signal: AbortSignal;
  /** Stops watching; what the failing classes did (a last look at the reports first). */
  stop(): Promise<FailingFirstOutcome>;
}

const POLL_MS = 100;

export function watchFailingFirst(
  modules: readonly WatchedModule[],
  tests: readonly string[],
  pollMs = POLL_MS,
): FailingFirstWatch {
  const controller = new AbortController();
  const seen = new Map(modules.map((m) => [m.targetDir, new Map<string, ReportedTestCase[]>()]));
  const sizes = new Map<string, number>();
  let verdict: 'waiting' | 'passed' | 'still-failing' = 'waiting';
  let polling: Promise<void> = Promise.resolve();

  const look = async () => {
    for (const module of modules) {
      const reports = seen.get(module.targetDir)!;
      for (const name of module.classes) {
        if (reports.has(name)) continue;
        const file = reportFilesOf(module.targetDir, name).find((candidate) => existsSync(candidate));
        if (!file) continue;
        // Read once its size holds still between two looks: Surefire may be writing it.
        const size = (await stat(file).catch(() => undefined))?.size;
        if (size === undefined || size === 0 || sizes.get(file) !== size) {
          if (size !== undefined) sizes.set(file, size);
          continue;
        }
        const cases = await casesOfClass(file, name);
        if (cases) reports.set(name, cases);
      }
    }
    verdict = judgeFirstReports(modules, seen, tests);
    if (verdict === 'still-failing') controller.abort();
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy || verdict !== 'waiting') return;
    busy = true;
    polling = look()
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, pollMs);

  return {
    signal: controller.signal,
    async stop() {
      clearInterval(timer);
      await polling.catch(() => undefined);
      // The build may have ended between two looks: look once more, twice for the size check.
      if (verdict === 'waiting') await look().then(look);
      return verdict === 'still-failing' ? 'stopped' : verdict === 'passed' ? 'passed' : 'not-reached';
    },
  };
}
