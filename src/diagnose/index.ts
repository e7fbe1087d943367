/** Diagnosis: a failed Maven build (log + test reports) -> structured diagnostics. */
import { MavenLogParser } from './log-parser.js';
import { assembleDiagnosis } from './diagnosis.js';
import { discoverModules } from './modules.js';
import { streamLogLines } from './read-log.js';
import { collectTestCases, failingTestDiagnostics } from './test-reports.js';
import type { Diagnosis } from './types.js';

export { parseMavenLog, MavenLogParser } from './log-parser.js';
export { collectTestResults, CLOCK_SLACK_MS } from './test-reports.js';
export { diagnosticFingerprint, diagnosisFingerprint } from './fingerprint.js';
export { discoverModules, summarisePom, type ModuleFolder } from './modules.js';
export { relativeToRoot } from './paths.js';
export { parseSurefireReport, normaliseTestMethod } from './surefire.js';
export { NON_CODE_RULES, CATEGORY_REASONS } from './categories.js';
export type * from './types.js';

export interface DiagnoseBuildInput {
  projectRoot: string;
  logFile: string;
  runStartedAt: Date;
  exitCode: number;
  interrupted?: boolean;
  timedOut?: boolean;
  logTruncated?: boolean;
}

export async function diagnoseBuild(input: DiagnoseBuildInput): Promise<Diagnosis> {
  const warnings: string[] = [];
  const parser = new MavenLogParser({ projectRoot: input.projectRoot });
  try {
    const stats = await streamLogLines(input.logFile, (line) => parser.feed(line));
    if (stats.cutLines > 0) warnings.push(`${stats.cutLines} overlong log line(s) were cut`);
  } catch (error) {
    warnings.push(`cannot read the log ${input.logFile}: ${(error as Error).message}`);
  }
  const log = parser.result();
  const moduleFolders = await discoverModules(input.projectRoot, warnings);

  const touched = log.modules.filter((m) => m.status !== 'SKIPPED');
  const dirs = moduleFolders
    .filter((f) => touched.length === 0 || touched.some((m) => m.artifactId === f.artifactId || m.name === f.name))
    .map((f) => f.dir);
  const collected = await collectTestCases({
    projectRoot: input.projectRoot,
    moduleDirs: dirs.length > 0 ? dirs : [''],
    since: input.runStartedAt,
    knownFolders: moduleFolders,
  });
  warnings.push(...collected.warnings);

  return assembleDiagnosis({
    log,
    testDiagnostics: failingTestDiagnostics(input.projectRoot, collected.cases, moduleFolders.map((folder) => folder.dir)),
    moduleFolders,
    exitCode: input.exitCode,
    ...(input.interrupted ? { interrupted: true } : {}),
    ...(input.timedOut ? { timedOut: true } : {}),
    ...(input.logTruncated ? { logTruncated: true } : {}),
    warnings,
  });
}
