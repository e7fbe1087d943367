/**
 * Incremental parser for Maven's console output. Feed it one line at a time (the reader
 * streams the log, so memory stays bounded by the number of findings, not the log
 * size); `result()` returns what was seen so far, which is also what a truncated log
 * yields.
 *
 * What it reads: javac errors (and, under -Werror, the warnings that failed the build),
 * javadoc/doclint errors, quality-gate findings (quality/console.ts), Surefire's fork
 * failures (surefire-fork.ts), test failures from the console summary, non-code failures
 * (categories.ts), and the reactor's modules. Lines come through `normaliseLogLine`, so
 * CI prefixes, ANSI codes and CRs are gone before any pattern sees them.
 *
 * Linear: every pattern is anchored or guarded by a literal check, and none has nested
 * quantifiers over the same characters; a 5 MB line costs one pass.
 */
import { matchNonCode, CATEGORY_REASONS, type NonCodeCategory } from './categories.js';
import { diagnosticFingerprint } from './fingerprint.js';
import { compilerEntry, isJavacDetail, javacEntry, splitLint, werrorMarker, WERROR_MESSAGE } from './javac-lines.js';
import { normaliseLogLine } from './log-line.js';
import { inferLogRoot, moduleDirOfSource } from './log-root.js';
import { isWindowsPath, relativeToRoot, relativisePathsIn, toForwardSlashes } from './paths.js';
import { MultiLineQuality, qualityLine, type QualityFinding } from './quality/console.js';
import { qualityToolOf } from './quality/tools.js';
import { ForkTracker } from './surefire-fork.js';
import { looksBinary, splitLevel, truncate, type LogLevel } from './text.js';
import type { ConsoleTestFailure, Diagnostic, LogParseResult, QualityFailure, ReactorModule } from './types.js';

const MAX_MESSAGE = 500;
const MAX_DETAILS = 20;
const MAX_MAVEN_WARNINGS = 200;
const MAX_FINDINGS = 5_000;
const MAX_HINTS = 1_000;

const MOJO_HEADER = /^--- ([\w.-]+):([^:\s]+):([\w-]+) \(([^)]*)\) @ (\S+) ---/;
const PROJECT_SEPARATOR = /^-+< ([^:\s]+):([^:\s]+) >-+$/;
const BUILDING = /^Building (.+?) (\S+?)(?:\s+\[(\d+)\/(\d+)\])?\s*$/;
const SUMMARY_ROW = /^(.+?) (?:\.+ |\.* ?)(SUCCESS|FAILURE|SKIPPED)\b/;
// groupId:artifactId:version:goal (execution) on project artifactId: message
const FAILED_GOAL = /^Failed to execute goal (?:([\w.-]+):([\w.-]+):([^:\s]+):([\w-]+) \([^)]*\) )?on project ([^\s:]+): ?(.*)$/;
const BASEDIR_HINTS: readonly RegExp[] = [
  /^skip non existing resourceDirectory (.+)[\\/]src[\\/](?:main|test)[\\/]resources$/,
  /^Please refer to (.+)[\\/]target[\\/](?:surefire|failsafe)-reports for the individual test results/,
  /^Building jar: (.+)[\\/]target[\\/][^\\/]+\.jar$/,
  /^Deleting (.+)[\\/]target$/,
  /^Non-(?:parseable|readable) POM (.+)[\\/]pom\.xml/,
  /^The project \S+ \((.+)[\\/]pom\.xml\) has \d+ errors?/,
];

interface MojoContext {
  groupId?: string;
  plugin: string;
  goal: string;
  artifactId: string;
}

interface Pending {
  diagnostic: Diagnostic;
  details: string[];
  /** True when the entry came from an `[ERROR]` block, whose continuations keep the prefix. */
  prefixed: boolean;
  /** A warning waits for -Werror to decide; javadoc keeps no source/caret lines. */
  role: 'error' | 'warning' | 'javadoc';
}

export interface LogLine {
  /** 1-based line number in the log. */
  number: number;
  /** The line as Maven printed it: CI prefixes, ANSI codes and the `[LEVEL] ` prefix removed. */
  text: string;
  level?: LogLevel;
  /** artifactId of the module whose goal was running, when the log says. */
  module?: string;
  /** artifactId of the plugin whose goal was running. */
  plugin?: string;
  goal?: string;
}

export interface LogParserOptions {
  /**
   * The project root as the log names it (its absolute paths start with it). Undefined
   * for a log from elsewhere: the root is then inferred from the module folders the log
   * shows, and `result().logRoot` says which.
   */
  projectRoot?: string;
  /** Sees every line after normalisation (plugin parsers). */
  onLine?: (line: LogLine) => void;
}

export class MavenLogParser {
  private readonly projectRoot: string | undefined;
  private readonly onLine: ((line: LogLine) => void) | undefined;
  private readonly compile = new Map<string, Diagnostic>();
  private readonly other = new Map<string, Diagnostic>();
  private readonly consoleTests = new Map<string, ConsoleTestFailure>();
  private readonly modules: ReactorModule[] = [];
  private readonly mavenWarnings: string[] = [];
  private readonly warnings: string[] = [];
  /** javac warnings per compiler execution (module + goal): -Werror turns them into errors. */
  private readonly javacWarnings = new Map<string, Diagnostic[]>();
  private readonly werrorExecutions = new Set<string>();
  private readonly seenWarnings = new Set<string>();
  private readonly qualityCandidates: QualityFinding[] = [];
  private readonly qualityFailures = new Map<string, QualityFailure>();
  private readonly multiLine = new MultiLineQuality();
  private readonly forks = new ForkTracker();
  private readonly moduleBasedirs = new Map<string, string>();
  private readonly basedirHints = new Set<string>();
  private pending: Pending | undefined;
  private pendingArtifactId: string | undefined;
  private mojo: MojoContext | undefined;
  private lastLevel: LogLevel | undefined;
  private sawLevel = false;
  private inSummary = false;
  private consoleSection: 'failure' | 'error' | undefined;
  private firstUnexplainedFailure: { text: string; module?: string } | undefined;
  private testFailureModules = new Set<string>();
  private testFailuresReported = false;
  private sawBuildFailure = false;
  private sawAnyError = false;
  private binaryLines = 0;
  private lineCount = 0;
  private findingsCapped = false;
  /** Key of a non-code failure whose message ended in ':' (the next line explains it). */
  private awaitingExplanation: string | undefined;

  constructor(options: LogParserOptions = {}) {
    this.projectRoot = options.projectRoot;
    this.onLine = options.onLine;
  }

  feed(rawLine: string): void {
    this.lineCount++;
    const line = normaliseLogLine(rawLine);
    if (looksBinary(line)) {
      this.binaryLines++;
      this.flushPending();
      return;
    }
    const { level, text } = splitLevel(line);
    this.onLine?.({ number: this.lineCount, text, ...(level ? { level } : {}), ...this.lineContext() });
    if (level === undefined) {
      this.feedUnprefixed(line);
      return;
    }
    this.sawLevel = true;
    this.lastLevel = level;
    if (level === 'ERROR' || level === 'FATAL') {
      this.sawAnyError = true;
      this.feedError(text);
      return;
    }
    this.endErrorBlock();
    this.consoleSection = undefined;
    if (level === 'WARNING') this.feedWarning(text);
    else if (level === 'INFO') this.feedInfo(text);
  }

  result(): LogParseResult {
    this.endErrorBlock();
    const warnings = [...this.warnings];
    if (this.binaryLines > 0) warnings.push(`log contains ${this.binaryLines} line(s) of binary data; they were skipped`);
    if (this.findingsCapped) warnings.push(`more than ${MAX_FINDINGS} findings; the rest were dropped`);
    const forkFailures = this.forks.result();
    const qualityFailures = [...this.qualityFailures.values()];
    const explained = this.compile.size > 0 || this.testFailuresReported || forkFailures.length > 0 || qualityFailures.length > 0;
    let otherFailures = [...this.other.values()];
    // A test JVM that ran out of memory is one failure, however many lines said so.
    if (forkFailures.some((f) => f.kind === 'out-of-memory')) otherFailures = otherFailures.filter((d) => d.category !== 'jvm-crash');
    if (otherFailures.length === 0 && !explained && this.firstUnexplainedFailure) {
      otherFailures.push(this.otherDiagnostic('unknown', this.firstUnexplainedFailure.text, this.firstUnexplainedFailure.module));
    }
    const qualityFindings = this.promotedQualityFindings(qualityFailures);
    const logRoot = this.projectRoot ?? inferLogRoot([
      ...this.basedirHints,
      ...[...this.compile.values()].flatMap((d) => (d.file ? [moduleDirOfSource(d.file)] : [])),
      ...qualityFindings.flatMap((f) => (f.file && f.fileBase === 'absolute' ? [moduleDirOfSource(f.file)] : [])),
      ...qualityFailures.flatMap((f) => (f.reportPath ? [f.reportPath.replace(/\/target\/[^/]+$/, '')] : [])),
    ]);
    const rebase = (d: Diagnostic): Diagnostic => (this.projectRoot === undefined ? rebaseDiagnostic(d, logRoot) : { ...d });
    return {
      compileErrors: [...this.compile.values()].map(rebase),
      otherFailures: otherFailures.map(rebase),
      consoleTestFailures: [...this.consoleTests.values()],
      testFailuresReported: this.testFailuresReported,
      testFailureModules: [...this.testFailureModules],
      qualityFindings,
      qualityFailures,
      forkFailures,
      modules: this.modules.map((m) => ({ ...m })),
      moduleBasedirs: Object.fromEntries(this.moduleBasedirs),
      logRoot,
      buildFailed: this.sawBuildFailure || this.sawAnyError,
      mavenWarnings: [...this.mavenWarnings],
      warnings,
      lineCount: this.lineCount,
    };
  }

  private lineContext(): Pick<LogLine, 'module' | 'plugin' | 'goal'> {
    if (!this.mojo) return {};
    return { module: this.mojo.artifactId, plugin: this.mojo.plugin, goal: this.mojo.goal };
  }

  private feedUnprefixed(line: string): void {
    const pending = this.pending;
    // javac's continuation lines (`  symbol: ...`) come without a prefix, even in an [ERROR] or [WARNING] block.
    if (pending && /^\s+\S/.test(line)) {
      if (pending.role !== 'javadoc') this.addDetail(line);
      return;
    }
    if (pending && pending.role === 'error' && isJavacDetail(line)) {
      this.addDetail(line);
      return;
    }
    this.flushPending();
    // Inside an error block (or in a log with no Maven levels at all: plain javac), an
    // unprefixed entry is the continuation of Maven's message; elsewhere it is test output.
    const inError = this.lastLevel === 'ERROR' || this.lastLevel === 'FATAL' || !this.sawLevel;
    if (inError) {
      if (this.feedFinding(line, false)) return;
      if (this.forks.error(line, this.mojo?.artifactId)) return;
    }
    const rule = matchNonCode(line);
    if (rule?.rule.category === 'jvm-crash') this.addOther(rule.rule.category, line.trim(), this.mojo?.artifactId, rule.reason);
  }

  private feedError(text: string): void {
    this.noteBasedir(text);
    const pending = this.pending;
    if (pending?.prefixed && (/^\s{2,}\S/.test(text) || (pending.role !== 'javadoc' && isJavacDetail(text)))) {
      if (pending.role !== 'javadoc') this.addDetail(text);
      return;
    }
    this.flushPending();

    const failedGoal = FAILED_GOAL.exec(text);
    if (!failedGoal && this.feedFinding(text, true)) return;

    if (this.consoleSection) {
      const row = consoleTestRow(text);
      if (row) {
        this.addConsoleTest(row, this.consoleSection);
        return;
      }
    }
    const header = text.trim();
    if (header === 'Failures:' || header === 'Errors:') {
      this.consoleSection = header === 'Failures:' ? 'failure' : 'error';
      return;
    }
    this.consoleSection = undefined;

    let quality = false;
    if (failedGoal) {
      const [, groupId, plugin, version, goal, artifactId] = failedGoal;
      if (plugin && goal && artifactId) this.mojo = { ...(groupId ? { groupId } : {}), plugin, goal, artifactId };
      this.markModule(artifactId, 'FAILURE');
      const spec = plugin && goal ? qualityToolOf(plugin, goal) : undefined;
      if (spec && groupId && version && artifactId) {
        quality = true;
        this.noteQualityFailure(spec.tool, artifactId, `${groupId}:${plugin}:${version}:${goal}`, failedGoal[6] ?? '');
      }
      // The message after the colon may itself be a finding header or a fork failure.
      const message = failedGoal[6] ?? '';
      if (message !== '') {
        this.collectFindings(this.multiLine.feed(message).findings);
        if (this.forks.error(message, artifactId, this.inTests())) return;
      }
    }
    const module = failedGoal?.[5] ?? this.mojo?.artifactId;
    if (!failedGoal) {
      if (this.forks.error(text, module, this.inTests())) return;
      this.forks.endBlock();
    }

    if (isTestMarker(text)) {
      this.testFailuresReported = true;
      if (module) this.testFailureModules.add(module);
    }
    if (/Failure executing javac, but could not parse the error/.test(text)) {
      this.addCompile(this.compileDiagnostic({ message: 'javac failed and Maven could not parse its error', module, fixable: false }));
      return;
    }
    if (/^\[Help \d+\]/.test(header)) return;
    const rule = matchNonCode(text);
    if (rule) {
      this.addOther(rule.rule.category, failedGoal?.[6] || text, module, rule.reason);
      return;
    }
    if (this.awaitingExplanation && header !== '' && !/^-> \[Help/.test(header)) this.explain(this.awaitingExplanation, header);
    this.awaitingExplanation = undefined;
    const explained = quality || /Compilation failure/.test(text) || (failedGoal?.[2] === 'maven-javadoc-plugin' && this.compile.size > 0);
    if (failedGoal && !this.firstUnexplainedFailure && !explained) {
      this.firstUnexplainedFailure = { text: failedGoal[6] || text, module };
    }
  }

  /**
   * Findings shared by prefixed and unprefixed lines: javac and javadoc entries, -Werror,
   * quality-gate lines. True when the line was one.
   */
  private feedFinding(text: string, prefixed: boolean): boolean {
    const multi = this.multiLine.feed(text);
    this.collectFindings(multi.findings);
    if (multi.consumed) return true;
    const tool = this.runningQualityTool();
    const quality = qualityLine(text, { ...(tool ? { tool } : {}) });
    if (quality) {
      this.collectFindings([quality]);
      return true;
    }
    const entry = compilerEntry(text);
    if (entry) {
      this.startCompile(entry, prefixed, 'error');
      return true;
    }
    const marker = werrorMarker(text);
    if (marker !== undefined) {
      this.failOnWarnings(marker);
      return true;
    }
    const javac = javacEntry(text);
    if (javac) {
      const javadoc = this.mojo?.plugin === 'maven-javadoc-plugin' || text.startsWith('Exit code:');
      if (javac.severity === 'error') this.startCompile(javac, prefixed, javadoc ? 'javadoc' : 'error');
      else if (!javadoc) this.startCompile(javac, prefixed, 'warning');
      return true;
    }
    return false;
  }

  private feedWarning(text: string): void {
    if (this.pending?.prefixed && this.pending.role === 'warning' && isJavacDetail(text)) {
      this.addDetail(text);
      return;
    }
    this.flushPending();
    const entry = compilerEntry(text);
    if (entry && (this.mojo === undefined || this.mojo.plugin.includes('compiler'))) {
      this.noteMavenWarning(text);
      this.startCompile(entry, true, 'warning');
      return;
    }
    const tool = this.runningQualityTool();
    const quality = qualityLine(text, { ...(tool ? { tool } : {}) });
    if (quality) {
      this.collectFindings([quality]);
      return;
    }
    this.noteMavenWarning(text);
  }

  private feedInfo(text: string): void {
    const separator = PROJECT_SEPARATOR.exec(text);
    if (separator) {
      this.pendingArtifactId = separator[2];
      return;
    }
    const building = BUILDING.exec(text);
    if (building && (this.pendingArtifactId !== undefined || building[3] !== undefined)) {
      const name = building[1] ?? '';
      if (!this.modules.some((m) => m.name === name && m.artifactId === this.pendingArtifactId)) {
        this.modules.push({ name, ...(this.pendingArtifactId ? { artifactId: this.pendingArtifactId } : {}) });
      }
      this.pendingArtifactId = undefined;
      this.mojo = undefined;
      return;
    }
    const mojo = MOJO_HEADER.exec(text);
    if (mojo) {
      this.mojo = { plugin: mojo[1] ?? '', goal: mojo[3] ?? '', artifactId: mojo[5] ?? '' };
      return;
    }
    if (/^Reactor Summary/.test(text)) {
      this.inSummary = true;
      return;
    }
    if (/^BUILD (FAILURE|SUCCESS)/.test(text)) {
      this.inSummary = false;
      if (text.startsWith('BUILD FAILURE')) this.sawBuildFailure = true;
      return;
    }
    if (this.inSummary) {
      const row = SUMMARY_ROW.exec(text);
      if (row) this.markSummaryRow(row[1] ?? '', row[2] as 'SUCCESS' | 'FAILURE' | 'SKIPPED');
      return;
    }
    this.noteBasedir(text);
    if (this.inTests()) this.forks.info(text, this.mojo?.artifactId);
    if (text.startsWith('PMD Failure: ')) {
      const quality = qualityLine(text, {});
      if (quality) this.collectFindings([quality]);
    }
  }

  private inTests(): boolean {
    return this.mojo !== undefined && /surefire|failsafe/.test(this.mojo.plugin);
  }

  private runningQualityTool(): string | undefined {
    return this.mojo ? qualityToolOf(this.mojo.plugin, this.mojo.goal)?.tool : undefined;
  }

  private noteBasedir(text: string): void {
    if (this.basedirHints.size >= MAX_HINTS || !/^(?:skip non|Please refer|Building jar|Deleting|Non-|The project )/.test(text)) return;
    for (const pattern of BASEDIR_HINTS) {
      const m = pattern.exec(text);
      if (!m) continue;
      const dir = toForwardSlashes(m[1]!);
      this.basedirHints.add(dir);
      if (this.mojo?.artifactId && !this.moduleBasedirs.has(this.mojo.artifactId)) this.moduleBasedirs.set(this.mojo.artifactId, dir);
      return;
    }
  }

  private markSummaryRow(label: string, status: 'SUCCESS' | 'FAILURE' | 'SKIPPED'): void {
    // Maven 3.9 prints "Name Version ....": match the longest known name the label starts with.
    const known = this.modules
      .filter((m) => label === m.name || label.startsWith(m.name + ' '))
      .sort((a, b) => b.name.length - a.name.length)[0];
    if (known) known.status = status;
    else this.modules.push({ name: label, status });
  }

  private markModule(artifactId: string | undefined, status: 'FAILURE'): void {
    if (!artifactId) return;
    const known = this.modules.find((m) => m.artifactId === artifactId);
    if (known) known.status ??= status;
  }

  private relativeFile(absFile: string): string {
    if (this.projectRoot === undefined) return toForwardSlashes(absFile);
    return relativeToRoot(rootedLike(absFile, this.projectRoot), this.projectRoot);
  }

  private startCompile(entry: { file: string; line: number; column?: number; message: string; lint?: string }, prefixed: boolean, role: Pending['role']): void {
    const file = this.relativeFile(entry.file);
    const goal = this.mojo?.plugin.includes('compiler') ? this.mojo.goal : undefined;
    const scope = goal === 'testCompile' || (goal === undefined && /(^|\/)src\/test\//.test(file)) ? 'test' : 'main';
    // Only a warning has a lint category that matters: -Werror may turn it into an error.
    const split = role !== 'warning' ? { message: entry.message.trim() } : entry.lint === undefined ? splitLint(entry.message.trim()) : { message: entry.message.trim(), lint: entry.lint };
    const diagnostic = this.compileDiagnostic({
      message: truncate(split.message, MAX_MESSAGE),
      file,
      line: entry.line,
      ...(entry.column !== undefined ? { column: entry.column } : {}),
      module: this.mojo?.artifactId,
      scope,
      ...(role === 'javadoc' ? { tool: 'javadoc' } : {}),
      ...(split.lint ? { lint: split.lint } : {}),
      fixable: true,
    });
    this.pending = { diagnostic, details: [], prefixed, role };
  }

  private addDetail(text: string): void {
    if (this.pending && this.pending.details.length < MAX_DETAILS) this.pending.details.push(truncate(text.trim(), MAX_MESSAGE));
  }

  private flushPending(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    const d = pending.diagnostic;
    if (pending.details.length > 0) d.details = pending.details;
    if (pending.role !== 'warning') {
      this.addCompile(d);
      return;
    }
    const key = this.executionKey();
    const list = this.javacWarnings.get(key) ?? [];
    // A warning printed again (a module built twice, a log that repeats) is kept once.
    const identity = `${key}\u0000${d.file ?? ''}\u0000${d.line ?? ''}\u0000${d.column ?? ''}\u0000${d.message}`;
    if (list.length < MAX_FINDINGS && !this.seenWarnings.has(identity)) {
      this.seenWarnings.add(identity);
      list.push(d);
    }
    this.javacWarnings.set(key, list);
    // Plain javac prints -Werror's verdict after the warnings; the compiler plugin too.
    if (this.werrorExecutions.has(key)) this.addCompile(d);
  }

  private executionKey(): string {
    return `${this.mojo?.artifactId ?? ''}\u0000${this.mojo?.plugin.includes('compiler') ? this.mojo.goal : ''}`;
  }

  /** `-Werror`: the warnings of this compiler execution are the errors. */
  private failOnWarnings(markerFile: string): void {
    const key = this.executionKey();
    this.werrorExecutions.add(key);
    const warnings = this.javacWarnings.get(key) ?? [];
    if (warnings.length > 0) {
      for (const warning of warnings) this.addCompile(warning);
      return;
    }
    // -q hid the [WARNING] lines: keep the failure, without a line; the repair recovers them.
    const file = markerFile === '' ? undefined : this.relativeFile(markerFile);
    this.addCompile(this.compileDiagnostic({ message: WERROR_MESSAGE, ...(file ? { file } : {}), module: this.mojo?.artifactId, fixable: true }));
  }

  private compileDiagnostic(fields: Partial<Diagnostic> & { message: string; fixable: boolean }): Diagnostic {
    const d: Diagnostic = { kind: 'compile', category: 'compile', fingerprint: '', ...fields };
    if (d.module === undefined) delete d.module;
    if (!d.fixable) d.reason = 'javac failed without a position mvnx can act on';
    return d;
  }

  private addCompile(d: Diagnostic): void {
    // Maven prints each javac error twice; the position and message identify it.
    const key = `${d.file ?? ''}\u0000${d.line ?? ''}\u0000${d.column ?? ''}\u0000${d.message}`;
    const seen = this.compile.get(key);
    if (seen) {
      // The second copy (the "Failed to execute goal ... on project X" block) may know more.
      if ((d.details?.length ?? 0) > (seen.details?.length ?? 0)) seen.details = d.details;
      if (seen.module === undefined && d.module !== undefined) seen.module = d.module;
      seen.fingerprint = diagnosticFingerprint(seen);
      return;
    }
    if (this.compile.size >= MAX_FINDINGS) {
      this.findingsCapped = true;
      return;
    }
    // A -Werror failure named without lines is replaced by the lines once they are known.
    if (d.line !== undefined && d.lint !== undefined) {
      for (const [k, other] of this.compile) if (other.message === WERROR_MESSAGE && other.line === undefined && other.module === d.module) this.compile.delete(k);
    }
    d.fingerprint = diagnosticFingerprint(d);
    this.compile.set(key, d);
  }

  private collectFindings(findings: QualityFinding[]): void {
    for (const finding of findings) {
      if (this.qualityCandidates.length >= MAX_FINDINGS) {
        this.findingsCapped = true;
        return;
      }
      const running = this.mojo && qualityToolOf(this.mojo.plugin, this.mojo.goal)?.tool === finding.tool ? this.mojo.artifactId : undefined;
      this.qualityCandidates.push({ ...finding, ...(running && !finding.module ? { module: running } : {}) });
    }
  }

  private noteQualityFailure(tool: string, module: string, goal: string, message: string): void {
    const key = `${tool}\u0000${module}`;
    if (this.qualityFailures.has(key)) return;
    message = message.replace(/\s*-> \[Help \d+\]\s*$/, '');
    const report = /For more details see: (.+)$/.exec(message)?.[1]?.trim();
    this.qualityFailures.set(key, {
      tool,
      module,
      goal,
      message: truncate(this.projectRoot === undefined ? message.trim() : relativisePathsIn(message.trim(), this.projectRoot), MAX_MESSAGE),
      ...(report ? { reportPath: toForwardSlashes(report) } : {}),
    });
  }

  /** Findings count only for a gate that failed the build; a finding without a module joins its tool's only failure. */
  private promotedQualityFindings(failures: QualityFailure[]): QualityFinding[] {
    const out: QualityFinding[] = [];
    const seen = new Set<string>();
    for (const finding of this.qualityCandidates) {
      const failed = failures.filter((f) => f.tool === finding.tool);
      const owner = finding.module ? failed.find((f) => f.module === finding.module) : failed.length === 1 ? failed[0] : undefined;
      if (!owner && !(finding.module === undefined && failed.length > 1)) continue;
      const promoted = { ...finding, ...(owner?.module ? { module: owner.module } : {}) };
      const key = `${promoted.tool}\u0000${promoted.module ?? ''}\u0000${promoted.file ?? promoted.className ?? ''}\u0000${promoted.line ?? ''}\u0000${promoted.rule ?? ''}\u0000${promoted.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(promoted);
    }
    return out;
  }

  private endErrorBlock(): void {
    this.flushPending();
    this.collectFindings(this.multiLine.flush());
    this.forks.endBlock();
  }

  private otherDiagnostic(category: NonCodeCategory, text: string, module: string | undefined, reason?: string): Diagnostic {
    const root = this.projectRoot;
    const d: Diagnostic = {
      kind: 'other',
      category,
      fixable: false,
      message: truncate(root === undefined ? text.trim() : relativisePathsIn(text.trim(), root), MAX_MESSAGE),
      reason: root === undefined ? (reason ?? CATEGORY_REASONS[category]) : relativisePathsIn(reason ?? CATEGORY_REASONS[category], root),
      fingerprint: '',
      ...(module ? { module } : {}),
    };
    d.fingerprint = diagnosticFingerprint(d);
    return d;
  }

  private explain(key: string, text: string): void {
    const seen = this.other.get(key);
    if (!seen) return;
    const merged = this.otherDiagnostic(seen.category as NonCodeCategory, `${seen.message} ${text}`, seen.module, matchNonCode(`${seen.message} ${text}`)?.reason ?? seen.reason);
    this.other.set(key, merged);
  }

  private addOther(category: NonCodeCategory, rawText: string, module: string | undefined, reason?: string): void {
    const text = rawText.replace(/\s*-> \[Help \d+\]\s*$/, '');
    const key = `${category}\u0000${module ?? ''}`;
    this.awaitingExplanation = text.trimEnd().endsWith(':') ? key : undefined;
    const seen = this.other.get(key);
    const informative = text.trim() !== '' && !/^Failed to execute goal/.test(text);
    if (seen) {
      // A later line often says more than the "Failed to execute goal" header did.
      if (informative && (seen.message === '' || /^Failed to execute goal/.test(seen.message))) {
        this.other.set(key, this.otherDiagnostic(category, text, module, reason));
      }
      return;
    }
    this.other.set(key, this.otherDiagnostic(category, text, module, reason));
  }

  private addConsoleTest(row: ConsoleRow, outcome: 'failure' | 'error'): void {
    const key = `${row.className}#${row.method}`;
    if (this.consoleTests.has(key) || this.consoleTests.size >= MAX_FINDINGS) return;
    this.consoleTests.set(key, {
      className: row.className,
      method: row.method,
      ...(row.line !== undefined ? { line: row.line } : {}),
      message: truncate(row.message.trim(), MAX_MESSAGE),
      outcome,
      ...(this.mojo?.artifactId ? { module: this.mojo.artifactId } : {}),
    });
  }

  private noteMavenWarning(text: string): void {
    if (this.mavenWarnings.length < MAX_MAVEN_WARNINGS && text.trim() !== '' && !this.mavenWarnings.includes(text)) {
      this.mavenWarnings.push(truncate(text, MAX_MESSAGE));
    }
  }
}

/** A Windows log whose paths have no drive (`\work\app\...`) gets the root's drive, when the root has one. */
function rootedLike(file: string, root: string): string {
  if (/^\\(?!\\)/.test(file) && /^[A-Za-z]:/.test(root)) return `${root.slice(0, 2)}${file}`;
  return file;
}

/** A diagnostic read against no root, made relative to the root found later. */
export function rebaseDiagnostic(d: Diagnostic, root: string): Diagnostic {
  if (root === '') return { ...d };
  const out: Diagnostic = { ...d, message: relativisePathsIn(d.message, root) };
  if (d.reason !== undefined) out.reason = relativisePathsIn(d.reason, root);
  if (d.file !== undefined && (d.file.startsWith('/') || isWindowsPath(d.file))) out.file = relativeToRoot(rootedLike(d.file, root), root);
  out.fingerprint = diagnosticFingerprint(out);
  return out;
}

/** Surefire's "There are test failures", a failing "Tests run:" line, or a `<<< FAILURE!` marker. */
function isTestMarker(text: string): boolean {
  if (text.includes('There are test failures') || text.includes('There are test errors')) return true;
  if ((text.includes('<<< FAILURE!') || text.includes('<<< ERROR!')) && /Tests run: \d+, Failures: \d+, Errors: \d+/.test(text)) return true;
  return /^Tests run: \d+, Failures: (?:[1-9]\d*, Errors: \d+|\d+, Errors: [1-9])/.test(text);
}

interface ConsoleRow {
  className: string;
  method: string;
  line?: number;
  message: string;
}

/** `  AccountTest.withdraw:25 expected: <70> but was: <69>` (Surefire's summary), without backtracking regexes. */
function consoleTestRow(text: string): ConsoleRow | undefined {
  if (!text.startsWith('  ') || text[2] === ' ') return undefined;
  const space = text.indexOf(' ', 2);
  const head = space === -1 ? text.slice(2) : text.slice(2, space);
  const message = space === -1 ? '' : text.slice(space + 1).replace(/^» /, '');
  const m = /^([\w$.]+?)(?::(\d+))?$/.exec(head.replace(/\([^)]*\)|\[\d+\]/g, ''));
  if (!m) return undefined;
  const name = m[1]!;
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return { className: name.slice(0, dot), method: name.slice(dot + 1), ...(m[2] ? { line: Number(m[2]) } : {}), message };
}

/** Parses a whole log held in memory (tests, small logs). `diagnoseBuild` streams instead. */
export function parseMavenLog(lines: Iterable<string>, options: LogParserOptions = {}): LogParseResult {
  const parser = new MavenLogParser(options);
  for (const line of lines) parser.feed(line);
  return parser.result();
}
