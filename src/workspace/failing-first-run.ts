/**
 * Putting the failing tests first in a verdict build, the IO side: read what decides the
 * way (class-order.ts), then either place the class orderer among the failing modules'
 * test classes and name the -D arguments and the reports to watch, or write the Surefire
 * execution into their poms (failing-first.ts); afterwards, read what that execution did.
 * Only ever in the workspace copy.
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { collectTestResults } from '../diagnose/index.js';
import type { TestCaseResult } from '../diagnose/types.js';
import { defaultCacheDir } from '../shared/cache-dir.js';
import { classOrderArgs, decideClassOrder, failingClasses, testCaseTimes, testClassPathOf } from './class-order.js';
import { CLASS_ORDER_FILE, compiledClassOrder } from './class-order-compile.js';
import {
  addFailingFirstExecution,
  FAILING_FIRST_REPORTS,
  failingFirstOutcome,
  PomEditError,
  type FailingFirstOutcome,
} from './failing-first.js';
import type { WatchedModule } from './failing-first-watch.js';
import type { VerificationStage } from './verify-plan.js';

export type FailingFirstPlan =
  /**
   * The Surefire execution in the poms (`placed` false: it could not be written, the stage runs as the plain full
   * build).
   */
  | { how: 'execution'; placed: boolean; modules: string[]; why: string }
  /** The class orderer is in place: run with `args`, watch `watched`. */
  | { how: 'class-order'; args: string[]; watched: WatchedModule[]; tests: string[] };

export interface FailingFirstInput {
  /** The workspace copy's root, and the user's tree (where the user's build left its reports). */
  root: string;
  source: string;
  failingFirst: NonNullable<VerificationStage['failingFirst']>;
  args: readonly string[];
  baselineTests: readonly TestCaseResult[];
  /** The build's environment; its XDG_CACHE_HOME says where the compiled orderer is kept. */
  env: NodeJS.ProcessEnv;
}

export async function prepareFailingFirst(input: FailingFirstInput): Promise<FailingFirstPlan> {
  const order = await classOrderFor(input);
  if ('args' in order) return order;
  return {
    how: 'execution',
    placed: await placeExecution(input.root, input.failingFirst),
    modules: input.failingFirst.modules,
    why: order.why,
  };
}

async function classOrderFor(input: FailingFirstInput): Promise<FailingFirstPlan | { why: string }> {
  const { root, failingFirst } = input;
  const read = (file: string) => readFile(file, 'utf8').catch(() => undefined);
  const classes = failingClasses(failingFirst.tests);
  // Each failing class's module: the failing module whose test sources hold it.
  const moduleOf = new Map<string, string>();
  const testSources: (string | undefined)[] = [];
  for (const name of classes) {
    let found: string | undefined;
    for (const dir of failingFirst.modules) {
      found = await read(path.join(root, dir, 'src/test/java', `${name.replace(/\./g, '/')}.java`));
      if (found !== undefined) {
        moduleOf.set(name, dir);
        break;
      }
    }
    testSources.push(found);
  }
  const poms = (await Promise.all(failingFirst.modules.map((dir) => read(path.join(root, dir, 'pom.xml'))))).filter(
    (text): text is string => text !== undefined,
  );
  const platformProperties = (
    await Promise.all(
      failingFirst.modules.map((dir) => read(path.join(root, dir, 'src/test/resources/junit-platform.properties'))),
    )
  ).filter((text): text is string => text !== undefined);
  // The user's build's reports of the failing classes: its test class path, and what their other tests cost.
  const reportFiles = [
    ...new Set(
      input.baselineTests
        .filter((test) => classes.includes(test.className.split('$')[0]!) && test.reportFile)
        .map((test) => test.reportFile),
    ),
  ];
  const reports = (await Promise.all(reportFiles.map((file) => read(path.join(input.source, file))))).filter(
    (text): text is string => text !== undefined,
  );
  const testClassPath = reports.map(testClassPathOf).find((value) => value !== undefined);
  const failing = new Set(failingFirst.tests);
  const otherTestsSeconds = reports
    .flatMap(testCaseTimes)
    .filter((c) => !failing.has(c.test))
    .reduce((sum, c) => sum + c.seconds, 0);
  const inModule = (file: string) =>
    failingFirst.modules.some((dir) => file.startsWith(dir === '' ? 'target/' : `${dir}/target/`));
  const moduleTests = input.baselineTests.filter(
    (test) => test.status !== 'skipped' && inModule(test.reportFile),
  ).length;
  const decision = decideClassOrder({
    args: input.args,
    poms,
    platformProperties,
    testSources,
    otherTestsSeconds,
    moduleTests,
    ...(testClassPath ? { testClassPath } : {}),
  });
  if (!decision.order) return { why: decision.why };

  const compiled = await compiledClassOrder({
    jupiterApiJar: decision.jupiterApiJar,
    cacheDir: defaultCacheDir(input.env),
    env: input.env,
  });
  if ('why' in compiled) return compiled;
  const watched: WatchedModule[] = [];
  for (const dir of failingFirst.modules) {
    const target = path.join(root, dir, 'target/test-classes', CLASS_ORDER_FILE);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(compiled.classes, CLASS_ORDER_FILE), target);
    const own = classes.filter((name) => moduleOf.get(name) === dir);
    if (own.length > 0) watched.push({ targetDir: path.join(root, dir, 'target'), classes: own });
  }
  return { how: 'class-order', args: classOrderArgs(classes), watched, tests: failingFirst.tests };
}

/**
 * The failing-first execution written into each failing module's pom of the workspace
 * (never the user's tree). All or none: when one pom cannot take it, none is changed and
 * the stage runs as the plain full build (its verdict still needs the failing tests to pass).
 */
async function placeExecution(
  root: string,
  failingFirst: NonNullable<VerificationStage['failingFirst']>,
): Promise<boolean> {
  const edits: [string, string][] = [];
  for (const dir of failingFirst.modules) {
    const file = path.join(root, dir, 'pom.xml');
    try {
      edits.push([file, addFailingFirstExecution(await readFile(file, 'utf8'), failingFirst.tests)]);
    } catch (error) {
      if (error instanceof PomEditError || (error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
  for (const [file, text] of edits) await writeFile(file, text);
  return edits.length > 0;
}

/**
 * What the failing-first execution did in a run: whether it stopped the build (from the
 * log), and the reports it wrote in its own folder. After a stop those reports are copied
 * among Surefire's usual ones, where the diagnosis of the failed build reads them.
 */
export async function readFailingFirstExecution(
  root: string,
  plan: Extract<FailingFirstPlan, { how: 'execution' }>,
  logFile: string,
  startedAt: Date,
): Promise<{ outcome: FailingFirstOutcome; tests: TestCaseResult[] }> {
  if (!plan.placed) return { outcome: 'not-reached', tests: [] };
  const outcome = failingFirstOutcome(await readFile(logFile, 'utf8').catch(() => ''));
  const tests = await collectTestResults({
    projectRoot: root,
    moduleDirs: plan.modules,
    since: startedAt,
    reportDirs: [FAILING_FIRST_REPORTS],
  });
  if (outcome === 'stopped') {
    for (const dir of plan.modules) {
      const from = path.join(root, dir, FAILING_FIRST_REPORTS);
      const names = await readdir(from).catch(() => [] as string[]);
      for (const name of names)
        if (/^TEST-.*\.xml$/.test(name)) await copyFile(path.join(from, name), path.join(from, '..', name));
    }
  }
  return { outcome, tests };
}
