/**
 * Pure assembly of a Diagnosis from what the log and the reports said: module
 * attribution, fallbacks, and the fixable verdict with its reason.
 */
import { CATEGORY_REASONS, type NonCodeCategory } from './categories.js';
import { diagnosisFingerprint, diagnosticFingerprint } from './fingerprint.js';
import { forkDiagnostics } from './fork-diagnostics.js';
import { attachModuleFolders, type ModuleFolder } from './modules.js';
import { owningModuleDir, relativeToRoot } from './log-paths.js';
import { classSourceCandidates, qualityDiagnostics } from './quality/diagnostics.js';
import type {
  ConsoleTestFailure,
  Diagnosis,
  Diagnostic,
  LogParseResult,
  QualityFinding,
  ReactorModule,
} from './types.js';

export interface AssembleInput {
  log: LogParseResult;
  /** Diagnostics from the Surefire/Failsafe reports of this run. */
  testDiagnostics: Diagnostic[];
  moduleFolders: ModuleFolder[];
  /** Maven's exit code; negative when unknown (a saved log). */
  exitCode: number;
  interrupted?: boolean;
  timedOut?: boolean;
  logTruncated?: boolean;
  warnings?: string[];
  /** Findings read from quality reports (checkstyle-result.xml, pmd.xml, spotbugsXml.xml) of gates that failed. */
  reportFindings?: QualityFinding[];
  /** Test classes named by Surefire dump files, per module artifactId ('' when unknown). */
  dumpClasses?: Record<string, string>;
  /** Root-relative file of a class when it exists (the file side); default: Maven's layout, main sources first. */
  classFile?: (moduleDir: string, className: string, sourceFile?: string) => string | undefined;
  /** Diagnostics from plugin parsers, already classified. */
  parserDiagnostics?: Diagnostic[];
}

function withFingerprint(d: Omit<Diagnostic, 'fingerprint'> & { fingerprint?: string }): Diagnostic {
  return { ...d, fingerprint: diagnosticFingerprint(d) };
}

function otherDiagnostic(category: NonCodeCategory, message: string): Diagnostic {
  return withFingerprint({ kind: 'other', category, fixable: false, message, reason: CATEGORY_REASONS[category] });
}

/** A non-code failure (dependency, plugin, JVM, ...): while one stands, no code patch can make the build pass. */
export function isBlocking(d: Diagnostic): boolean {
  return !d.fixable && d.category !== 'compile' && d.category !== 'test' && d.category !== 'quality';
}

/** Compile errors belong to the module whose folder holds the file. */
function attributeModule(d: Diagnostic, folders: ModuleFolder[]): Diagnostic {
  if (d.file === undefined) return d;
  const dir = owningModuleDir(
    d.file,
    folders.map((f) => f.dir),
  );
  const artifactId = folders.find((f) => f.dir === dir)?.artifactId;
  if (!artifactId || artifactId === d.module) return d;
  return withFingerprint({ ...d, module: artifactId });
}

function consoleTestDiagnostic(t: ConsoleTestFailure): Diagnostic {
  return withFingerprint({
    kind: 'test',
    category: 'test',
    fixable: true,
    message: t.message,
    ...(t.module ? { module: t.module } : {}),
    test: `${t.className}#${t.method}`,
  });
}

function reactorModules(log: LogParseResult, folders: ModuleFolder[]): ReactorModule[] {
  if (log.modules.length > 0) return attachModuleFolders(log.modules, folders);
  // Quiet logs name no modules; the poms still say which exist.
  return folders.map((f) => ({
    name: f.name ?? f.artifactId ?? (f.dir || '.'),
    ...(f.artifactId ? { artifactId: f.artifactId } : {}),
    dir: f.dir,
  }));
}

/** Root-relative folder of a module: from the poms, else from the folders the log showed. */
function moduleDirResolver(
  log: LogParseResult,
  folders: ModuleFolder[],
): (module: string | undefined) => string | undefined {
  return (module) => {
    if (module !== undefined) {
      const known = folders.find((f) => f.artifactId === module)?.dir;
      if (known !== undefined) return known;
      const shown = log.moduleBasedirs[module];
      if (shown !== undefined && log.logRoot !== '') {
        const rel = relativeToRoot(shown, log.logRoot);
        if (!rel.startsWith('/') && !/^[A-Za-z]:/.test(rel)) return rel;
      }
    }
    return folders.length <= 1 ? (folders[0]?.dir ?? '') : undefined;
  };
}

export function assembleDiagnosis(input: AssembleInput): Diagnosis {
  const { log } = input;
  const warnings = [...log.warnings, ...(input.warnings ?? [])];
  if (input.logTruncated) warnings.push('the log was truncated (its head was dropped); the diagnosis may be partial');
  const moduleDir = moduleDirResolver(log, input.moduleFolders);
  const classFile = (dir: string, className: string, sourceFile?: string) =>
    input.classFile?.(dir, className, sourceFile) ?? classSourceCandidates(dir, className, sourceFile)[0];

  const compile = log.compileErrors.map((d) => attributeModule(d, input.moduleFolders));
  const forks = forkDiagnostics({
    failures: log.forkFailures,
    ...(input.dumpClasses ? { dumpClasses: input.dumpClasses } : {}),
    testFile: (module, className) => {
      const dir = moduleDir(module) ?? '';
      return input.classFile?.(dir, className) ?? classSourceCandidates(dir, className)[1];
    },
  });
  let tests = input.testDiagnostics;
  if (tests.length === 0 && log.consoleTestFailures.length > 0) {
    warnings.push('no test report written by this run was found; test failures come from the console summary');
    tests = log.consoleTestFailures.map(consoleTestDiagnostic);
  } else if (tests.length === 0 && log.testFailuresReported) {
    warnings.push('the log reports test failures but no report written by this run names them');
  }
  tests = [...tests, ...forks.filter((d) => d.kind === 'test')];
  const quality = qualityDiagnostics({
    findings: [...log.qualityFindings, ...(input.reportFindings ?? [])],
    failures: log.qualityFailures,
    logRoot: log.logRoot,
    moduleDir,
    classFile,
  }).map((d) => attributeModule(d, input.moduleFolders));
  const fromParsers = (input.parserDiagnostics ?? []).map((d) => attributeModule(d, input.moduleFolders));
  // "Not recognised" is the built-in parser's fallback: a plugin parser that explained the failure replaces it.
  const explainedByPlugin = fromParsers.some((d) => d.kind !== 'other');
  const other = [
    ...log.otherFailures.filter((d) => !(explainedByPlugin && d.category === 'unknown')),
    ...forks.filter((d) => d.kind !== 'test'),
  ];
  if (input.timedOut) other.push(otherDiagnostic('timeout', 'the build exceeded its time limit and was stopped'));
  if (input.interrupted) other.push(otherDiagnostic('interrupted', 'the build was interrupted'));

  const diagnostics = [
    ...compile,
    ...tests,
    ...quality,
    ...fromParsers.filter((d) => d.kind !== 'other'),
    ...fromParsers.filter((d) => d.kind === 'other'),
    ...other,
  ];
  if (diagnostics.length === 0 && input.exitCode > 0) {
    diagnostics.push(
      otherDiagnostic('unknown', `Maven exited with code ${input.exitCode} and the log names no failure`),
    );
  } else if (diagnostics.length === 0 && input.exitCode < 0 && log.buildFailed) {
    // A saved log: its exit code is unknown, but it shows a failed build.
    diagnostics.push(otherDiagnostic('unknown', 'the log shows a failed build but names no failure mvnx recognises'));
  }

  const blocking = diagnostics.find(isBlocking);
  const fixable = blocking === undefined && diagnostics.some((d) => d.fixable);
  let reason: string | undefined;
  if (!fixable) {
    if (blocking) reason = blocking.reason ?? CATEGORY_REASONS.unknown;
    else if (diagnostics.length === 0)
      reason = input.exitCode < 0 ? 'the log shows no failed build' : 'the build did not fail';
    else reason = diagnostics.find((d) => d.reason)?.reason ?? 'no diagnostic can be fixed by a code patch';
  }

  return {
    diagnostics,
    fingerprint: diagnosisFingerprint(diagnostics),
    fixable,
    ...(reason ? { reason } : {}),
    modules: reactorModules(log, input.moduleFolders),
    warnings,
  };
}
