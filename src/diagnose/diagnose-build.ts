/**
 * The file side of a diagnosis: stream the log through the parser (and any plugin
 * parsers), then read what the build wrote beside it (test reports, quality reports,
 * Surefire dump files) and hand everything to the pure assembly.
 *
 * Two callers: a build mvnx just ran (reports under each module's target/, fresher than
 * the run), and `mvnx diagnose` on a saved CI log (`logRoot: 'infer'`: the log's paths
 * are another machine's; reports from `--reports DIR`, whatever their age).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { assembleDiagnosis } from './diagnosis.js';
import { classFromDump } from './fork-diagnostics.js';
import { MavenLogParser } from './log-parser.js';
import { inferLogRoot, moduleDirOfSource, rebaseDiagnostic } from './log-root.js';
import { discoverModules, type ModuleFolder } from './modules.js';
import { joinRelative, owningModuleDir, relativeToRoot, toForwardSlashes } from './log-paths.js';
import { PluginParserRuns, type DiagnosticParser } from './plugin-parsers.js';
import { classSourceCandidates } from './quality/diagnostics.js';
import { REPORT_READERS } from './quality/reports.js';
import { QUALITY_TOOLS } from './quality/tools.js';
import { streamLogLines } from './read-log.js';
import { parseSurefireReport } from './surefire.js';
import { CLOCK_SLACK_MS, collectTestCases, failingTestDiagnostics, type CollectedCase } from './test-reports.js';
import type { Diagnosis, LogParseResult, QualityFinding } from './types.js';

export interface DiagnoseBuildInput {
  projectRoot: string;
  logFile: string;
  /** Reports older than this (less clock slack) are stale. Absent: every report counts (a saved log). */
  runStartedAt?: Date;
  /** Maven's exit code; negative when unknown (a saved log). */
  exitCode: number;
  interrupted?: boolean;
  timedOut?: boolean;
  logTruncated?: boolean;
  /** The project root as the log's paths name it: default `projectRoot`; `'infer'` for a log from another machine. */
  logRoot?: string;
  /**
   * Saved reports (surefire-reports/, checkstyle-result.xml, pmd.xml, spotbugsXml.xml, dumps) to read instead of
   * target/.
   */
  reportsDir?: string;
  /** Plugins' parsers. */
  parsers?: readonly DiagnosticParser[];
}

const MAX_REPORT_BYTES = 64 * 1024 * 1024;
const MAX_DUMP_BYTES = 1024 * 1024;
const MAX_WALKED_FILES = 20_000;

export async function diagnoseBuild(input: DiagnoseBuildInput): Promise<Diagnosis> {
  const warnings: string[] = [];
  const runs = new PluginParserRuns(input.parsers ?? [], { projectRoot: input.projectRoot });
  const logRoot = input.logRoot === 'infer' ? undefined : (input.logRoot ?? input.projectRoot);
  const parser = new MavenLogParser({
    ...(logRoot !== undefined ? { projectRoot: logRoot } : {}),
    ...(input.parsers?.length ? { onLine: (line) => runs.line(line) } : {}),
  });
  try {
    const stats = await streamLogLines(input.logFile, (line) => parser.feed(line));
    if (stats.cutLines > 0) warnings.push(`${stats.cutLines} overlong log line(s) were cut`);
    if (stats.latin1Lines > 0)
      warnings.push(`${stats.latin1Lines} log line(s) were not UTF-8 and were read as Latin-1`);
  } catch (error) {
    warnings.push(`cannot read the log ${input.logFile}: ${(error as Error).message}`);
  }
  let log = parser.result();
  const moduleFolders = await discoverModules(input.projectRoot, warnings);
  const files = new FileLookup(input.projectRoot);
  const since = input.runStartedAt ? input.runStartedAt.getTime() - CLOCK_SLACK_MS : -Infinity;
  const saved = input.reportsDir ? await walkReports(input.reportsDir, warnings) : undefined;

  const cases = saved
    ? await savedTestCases(saved, moduleFolders, warnings)
    : await builtTestCases(input, log, moduleFolders, warnings);
  const reportFindings = await qualityReportFindings({ input, log, folders: moduleFolders, saved, since, warnings });
  if (input.logRoot === 'infer' && log.logRoot === '') log = withRootFromReports(log, reportFindings);
  const dumpClasses = await dumpFileClasses({ input, log, folders: moduleFolders, saved, since });
  for (const report of await pluginReports(runs.reportNames, input.projectRoot, moduleFolders, saved, since))
    runs.report(report);
  const parserDiagnostics = runs.finish(log.logRoot);
  warnings.push(...runs.warnings);

  return assembleDiagnosis({
    log,
    testDiagnostics: failingTestDiagnostics(
      input.projectRoot,
      cases,
      moduleFolders.map((folder) => folder.dir),
    ),
    moduleFolders,
    exitCode: input.exitCode,
    ...(input.interrupted ? { interrupted: true } : {}),
    ...(input.timedOut ? { timedOut: true } : {}),
    ...(input.logTruncated ? { logTruncated: true } : {}),
    warnings,
    reportFindings,
    dumpClasses,
    classFile: (dir, className, sourceFile) =>
      classSourceCandidates(dir, className, sourceFile).find((candidate) => files.exists(candidate)),
    parserDiagnostics,
  });
}

/** A saved log that named no module folder: the reports' absolute paths may. */
function withRootFromReports(log: LogParseResult, findings: QualityFinding[]): LogParseResult {
  const logRoot = inferLogRoot(
    findings.flatMap((f) => (f.file && f.fileBase === 'absolute' ? [moduleDirOfSource(f.file)] : [])),
  );
  if (logRoot === '') return log;
  return {
    ...log,
    logRoot,
    compileErrors: log.compileErrors.map((d) => rebaseDiagnostic(d, logRoot)),
    otherFailures: log.otherFailures.map((d) => rebaseDiagnostic(d, logRoot)),
  };
}

class FileLookup {
  private readonly cache = new Map<string, boolean>();
  constructor(private readonly root: string) {}
  exists(rel: string): boolean {
    let known = this.cache.get(rel);
    if (known === undefined) {
      known = existsSync(path.join(this.root, rel));
      this.cache.set(rel, known);
    }
    return known;
  }
}

async function builtTestCases(
  input: DiagnoseBuildInput,
  log: LogParseResult,
  folders: ModuleFolder[],
  warnings: string[],
): Promise<CollectedCase[]> {
  const touched = log.modules.filter((m) => m.status !== 'SKIPPED');
  const dirs = folders
    .filter((f) => touched.length === 0 || touched.some((m) => m.artifactId === f.artifactId || m.name === f.name))
    .map((f) => f.dir);
  const collected = await collectTestCases({
    projectRoot: input.projectRoot,
    moduleDirs: dirs.length > 0 ? dirs : [''],
    ...(input.runStartedAt ? { since: input.runStartedAt } : {}),
    knownFolders: folders,
  });
  warnings.push(...collected.warnings);
  return collected.cases;
}

/** Every file under a saved-reports folder, relative to it (forward slashes), bounded. */
async function walkReports(dir: string, warnings: string[]): Promise<{ dir: string; files: string[] }> {
  const files: string[] = [];
  const visit = async (rel: string, depth: number): Promise<void> => {
    if (depth > 10 || files.length >= MAX_WALKED_FILES) return;
    let entries;
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (error) {
      if (depth === 0) warnings.push(`cannot read the reports folder ${dir}: ${(error as Error).message}`);
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const child = joinRelative(rel, entry.name);
      if (entry.isDirectory()) await visit(child, depth + 1);
      else if (entry.isFile() && files.length < MAX_WALKED_FILES) files.push(child);
    }
  };
  await visit('', 0);
  return { dir, files };
}

/** A saved report's module: the longest module folder its path starts with (after dropping `target/`). */
function moduleOfSaved(rel: string, folders: ModuleFolder[]): ModuleFolder | undefined {
  const withoutTarget = rel
    .split('/')
    .filter((part) => part !== 'target')
    .join('/');
  const dir = owningModuleDir(
    withoutTarget,
    folders.map((f) => f.dir).filter((d) => d !== ''),
  );
  return folders.find((f) => f.dir === dir) ?? folders.find((f) => f.dir === '');
}

async function savedTestCases(
  saved: { dir: string; files: string[] },
  folders: ModuleFolder[],
  warnings: string[],
): Promise<CollectedCase[]> {
  const cases: CollectedCase[] = [];
  for (const rel of saved.files.filter((f) => /(^|\/)TEST-[^/]*\.xml$/.test(f))) {
    const text = await readBounded(path.join(saved.dir, rel), MAX_REPORT_BYTES, warnings);
    if (text === undefined) continue;
    const parsed = parseSurefireReport(text, rel);
    warnings.push(...parsed.warnings);
    const folder = moduleOfSaved(rel, folders);
    // Named as the build wrote it (module/target/surefire-reports/...), wherever it was saved.
    const underModule = folder?.dir && rel.startsWith(`${folder.dir}/`) ? rel.slice(folder.dir.length + 1) : rel;
    const reportFile = underModule.split('/').includes('target')
      ? rel
      : joinRelative(folder?.dir ?? '', 'target', underModule);
    for (const c of parsed.cases)
      cases.push({
        ...c,
        moduleDir: folder?.dir ?? '',
        reportFile,
        ...(folder?.artifactId ? { module: folder.artifactId } : {}),
      });
  }
  return cases;
}

async function readBounded(file: string, max: number, warnings: string[]): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (info.size > max) {
      warnings.push(`${file} is larger than ${max} bytes; skipped`);
      return undefined;
    }
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function freshFile(file: string, since: number): Promise<boolean> {
  try {
    return (await stat(file)).mtimeMs >= since;
  } catch {
    return false;
  }
}

interface ReportSearch {
  input: DiagnoseBuildInput;
  log: LogParseResult;
  folders: ModuleFolder[];
  saved: { dir: string; files: string[] } | undefined;
  since: number;
  warnings?: string[];
}

function moduleFolderDir(module: string | undefined, log: LogParseResult, folders: ModuleFolder[]): string {
  const known = folders.find((f) => f.artifactId === module)?.dir;
  if (known !== undefined) return known;
  const shown = module !== undefined ? log.moduleBasedirs[module] : undefined;
  if (shown && log.logRoot) {
    const rel = relativeToRoot(shown, log.logRoot);
    if (!rel.startsWith('/')) return rel;
  }
  return '';
}

/** The report of every quality gate that failed, where the build wrote it (or in the saved folder). */
async function qualityReportFindings(search: ReportSearch): Promise<QualityFinding[]> {
  const { input, log, folders, saved, since } = search;
  const warnings = search.warnings ?? [];
  const findings: QualityFinding[] = [];
  for (const failure of log.qualityFailures) {
    const spec = QUALITY_TOOLS.find((s) => s.tool === failure.tool && s.report);
    if (!spec?.report) continue;
    const candidates: string[] = [];
    if (saved) {
      const moduleDir = moduleFolderDir(failure.module, log, folders);
      const named = saved.files.filter((f) => f.split('/').pop() === spec.report);
      const inModule = named.filter((f) => moduleOfSaved(f, folders)?.dir === moduleDir);
      candidates.push(
        ...(inModule.length > 0 ? inModule : named.length === 1 ? named : []).map((f) => path.join(saved.dir, f)),
      );
    } else {
      candidates.push(
        path.join(input.projectRoot, moduleFolderDir(failure.module, log, folders), 'target', spec.report),
      );
      if (failure.reportPath && log.logRoot) {
        const rel = relativeToRoot(failure.reportPath, log.logRoot);
        if (!rel.startsWith('/') && !rel.split('/').includes('..')) candidates.push(path.join(input.projectRoot, rel));
      }
    }
    for (const file of [...new Set(candidates)]) {
      if (!saved && !(await freshFile(file, since))) continue;
      const text = await readBounded(file, MAX_REPORT_BYTES, warnings);
      if (text === undefined) continue;
      const read = REPORT_READERS[spec.report]!(text, toForwardSlashes(path.relative(input.projectRoot, file)));
      warnings.push(...read.warnings);
      // Paths in a saved report are the CI machine's, like the log's: they resolve against the log's root.
      findings.push(...read.findings.map((f) => ({ ...f, ...(failure.module ? { module: failure.module } : {}) })));
      break;
    }
  }
  return findings;
}

/** For a test JVM that died without naming its test: the test class a dump file names. */
async function dumpFileClasses(search: ReportSearch): Promise<Record<string, string>> {
  const { input, log, folders, saved, since } = search;
  const out: Record<string, string> = {};
  for (const failure of log.forkFailures) {
    if (failure.classes.length > 0 || failure.lastRunning) continue;
    const files: string[] = [];
    if (saved)
      files.push(...saved.files.filter((f) => /\.dump(?:stream)?$/.test(f)).map((f) => path.join(saved.dir, f)));
    else {
      const dir = path.join(
        input.projectRoot,
        moduleFolderDir(failure.module, log, folders),
        'target',
        'surefire-reports',
      );
      try {
        for (const name of (await readdir(dir)).filter((n) => /\.dump(?:stream)?$/.test(n)).sort()) {
          if (await freshFile(path.join(dir, name), since)) files.push(path.join(dir, name));
        }
      } catch {
        // No reports folder: nothing to read.
      }
    }
    for (const file of files) {
      const text = await readBounded(file, MAX_DUMP_BYTES, []);
      const className = text ? classFromDump(text) : undefined;
      if (className) {
        out[failure.module ?? ''] = className;
        break;
      }
    }
  }
  return out;
}

async function pluginReports(
  names: string[],
  projectRoot: string,
  folders: ModuleFolder[],
  saved: { dir: string; files: string[] } | undefined,
  since: number,
): Promise<{ path: string; module?: string; text: string }[]> {
  if (names.length === 0) return [];
  const out: { path: string; module?: string; text: string }[] = [];
  const push = async (abs: string, rel: string, module: string | undefined) => {
    const text = await readBounded(abs, MAX_REPORT_BYTES, []);
    if (text !== undefined) out.push({ path: rel, ...(module ? { module } : {}), text });
  };
  if (saved) {
    for (const rel of saved.files.filter((f) => names.includes(f.split('/').pop() ?? '')))
      await push(path.join(saved.dir, rel), rel, moduleOfSaved(rel, folders)?.artifactId);
    return out;
  }
  for (const folder of folders.length > 0 ? folders : [{ dir: '' }]) {
    for (const name of names) {
      const rel = joinRelative(folder.dir, 'target', name);
      const abs = path.join(projectRoot, rel);
      if (await freshFile(abs, since)) await push(abs, rel, folder.artifactId);
    }
  }
  return out;
}
