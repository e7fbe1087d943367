/**
 * Incremental parser for Maven's console output. Feed it one line at a time (the reader
 * streams the log, so memory stays bounded by the number of findings, not the log
 * size); `result()` returns what was seen so far, which is also what a truncated log
 * yields.
 *
 * It routes each line: javac's entries to compile-findings.ts (with -Werror's warnings),
 * quality-gate lines to quality/ (findings count once their gate fails), Surefire's fork
 * failures to surefire-fork.ts, the reactor's own lines to reactor.ts, the console test
 * summary to console-tests.ts, and non-code failures to categories.ts; mojo-lines.ts reads
 * the goal headers and `Failed to execute goal` lines, log-root.ts the root of a foreign
 * log. Lines come through `normaliseLogLine`, so CI prefixes, ANSI codes and CRs are gone
 * before any pattern sees them.
 *
 * Linear: every pattern is anchored or guarded by a literal check, and none has nested
 * quantifiers over the same characters; a 5 MB line costs one pass.
 */
import { matchNonCode } from './categories.js';
import { CompileFindings, type CompileContext } from './compile-findings.js';
import { ConsoleTestCollector, isTestMarker } from './console-tests.js';
import { compilerEntry, isJavacDetail, javacEntry, werrorMarker } from './javac-lines.js';
import { normaliseLogLine } from './log-line.js';
import { NonCodeFailures } from './non-code-failures.js';
import { inferLogRoot, moduleDirOfSource, rebaseDiagnostic, rootedLike } from './log-root.js';
import { relativeToRoot, toForwardSlashes } from './log-paths.js';
import { QualityCollector } from './quality/collector.js';
import { MultiLineQuality, qualityLine, type QualityFinding } from './quality/console.js';
import { qualityToolOf } from './quality/tools.js';
import { ReactorTracker } from './reactor.js';
import { ForkTracker } from './surefire-fork.js';
import { failedGoalLine, mojoHeader, type FailedGoal, type MojoContext } from './mojo-lines.js';
import { looksBinary, splitLevel, truncate, type LogLevel } from './text.js';
import type { Diagnostic, LogParseResult } from './types.js';

const MAX_MESSAGE = 500;
const MAX_MAVEN_WARNINGS = 200;
const MAX_FINDINGS = 5_000;

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
  private readonly compile: CompileFindings;
  private readonly quality = new QualityCollector();
  private readonly multiLine = new MultiLineQuality();
  private readonly forks = new ForkTracker();
  private readonly reactor = new ReactorTracker();
  private readonly other: NonCodeFailures;
  private readonly consoleTests = new ConsoleTestCollector(MAX_FINDINGS, MAX_MESSAGE);
  private readonly mavenWarnings: string[] = [];
  private mojo: MojoContext | undefined;
  private lastLevel: LogLevel | undefined;
  private sawLevel = false;
  private firstUnexplainedFailure: { text: string; module?: string } | undefined;
  private testFailureModules = new Set<string>();
  private testFailuresReported = false;
  private sawBuildFailure = false;
  private sawAnyError = false;
  private binaryLines = 0;
  private lineCount = 0;

  constructor(options: LogParserOptions = {}) {
    this.projectRoot = options.projectRoot;
    this.onLine = options.onLine;
    this.other = new NonCodeFailures(this.projectRoot);
    const root = this.projectRoot;
    this.compile = new CompileFindings((file) =>
      root === undefined ? toForwardSlashes(file) : relativeToRoot(rootedLike(file, root), root),
    );
  }

  feed(rawLine: string): void {
    this.lineCount++;
    const line = normaliseLogLine(rawLine);
    if (looksBinary(line)) {
      this.binaryLines++;
      this.compile.flush();
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
    this.consoleTests.endSection();
    if (level === 'WARNING') this.feedWarning(text);
    else if (level === 'INFO') this.feedInfo(text);
  }

  result(): LogParseResult {
    this.endErrorBlock();
    const warnings: string[] = [];
    if (this.binaryLines > 0)
      warnings.push(`log contains ${this.binaryLines} line(s) of binary data; they were skipped`);
    if (this.compile.capped || this.quality.capped || this.consoleTests.capped)
      warnings.push(`more than ${MAX_FINDINGS} findings; the rest were dropped`);
    const forkFailures = this.forks.result();
    const qualityFailures = this.quality.failures();
    const explained =
      this.compile.size > 0 || this.testFailuresReported || forkFailures.length > 0 || qualityFailures.length > 0;
    let otherFailures = this.other.values();
    // A test JVM that ran out of memory is one failure, however many lines said so.
    if (forkFailures.some((f) => f.kind === 'out-of-memory'))
      otherFailures = otherFailures.filter((d) => d.category !== 'jvm-crash');
    if (otherFailures.length === 0 && !explained && this.firstUnexplainedFailure) {
      otherFailures.push(
        this.other.diagnostic('unknown', this.firstUnexplainedFailure.text, this.firstUnexplainedFailure.module),
      );
    }
    const qualityFindings = this.quality.promoted();
    const compileErrors = this.compile.values();
    const logRoot =
      this.projectRoot ??
      inferLogRoot([
        ...this.reactor.hints,
        ...compileErrors.flatMap((d) => (d.file ? [moduleDirOfSource(d.file)] : [])),
        ...qualityFindings.flatMap((f) => (f.file && f.fileBase === 'absolute' ? [moduleDirOfSource(f.file)] : [])),
        ...qualityFailures.flatMap((f) => (f.reportPath ? [f.reportPath.replace(/\/target\/[^/]+$/, '')] : [])),
      ]);
    const rebase = (d: Diagnostic): Diagnostic =>
      this.projectRoot === undefined ? rebaseDiagnostic(d, logRoot) : { ...d };
    return {
      compileErrors: compileErrors.map(rebase),
      otherFailures: otherFailures.map(rebase),
      consoleTestFailures: this.consoleTests.values(),
      testFailuresReported: this.testFailuresReported,
      testFailureModules: [...this.testFailureModules],
      qualityFindings,
      qualityFailures,
      forkFailures,
      modules: this.reactor.modules(),
      moduleBasedirs: this.reactor.moduleBasedirs(),
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

  private compileContext(): CompileContext {
    return {
      ...(this.mojo?.artifactId ? { module: this.mojo.artifactId } : {}),
      ...(this.mojo?.plugin.includes('compiler') ? { compilerGoal: this.mojo.goal } : {}),
    };
  }

  private feedUnprefixed(line: string): void {
    const open = this.compile.open;
    // javac's continuation lines (`  symbol: ...`) come without a prefix, even in an [ERROR] or [WARNING] block.
    if (open && (/^\s+\S/.test(line) || (open.role === 'error' && isJavacDetail(line)))) {
      this.compile.addDetail(line);
      return;
    }
    this.compile.flush();
    // Inside an error block (or in a log with no Maven levels at all: plain javac), an
    // unprefixed entry is the continuation of Maven's message; elsewhere it is test output.
    const inError = this.lastLevel === 'ERROR' || this.lastLevel === 'FATAL' || !this.sawLevel;
    if (inError) {
      if (this.feedFinding(line, false)) return;
      if (this.forks.error(line, this.mojo?.artifactId)) return;
    }
    const rule = matchNonCode(line);
    if (rule?.rule.category === 'jvm-crash')
      this.other.add(rule.rule.category, line.trim(), this.mojo?.artifactId, rule.reason);
  }

  private feedError(text: string): void {
    this.reactor.noteBasedir(text, this.mojo?.artifactId);
    const open = this.compile.open;
    if (open?.prefixed && (/^\s{2,}\S/.test(text) || (open.role !== 'javadoc' && isJavacDetail(text)))) {
      this.compile.addDetail(text);
      return;
    }
    this.compile.flush();

    const failedGoal = failedGoalLine(text);
    if (!failedGoal && this.feedFinding(text, true)) return;

    if (this.consoleTests.error(text, this.mojo?.artifactId)) return;
    const header = text.trim();

    let quality = false;
    if (failedGoal) {
      quality = this.noteFailedGoal(failedGoal);
      // The message after the colon may itself be a finding header or a fork failure.
      const { message, artifactId } = failedGoal;
      if (message !== '') {
        this.collect(this.multiLine.feed(message).findings);
        if (this.forks.error(message, artifactId, this.inTests())) return;
      }
    }
    const module = failedGoal?.artifactId ?? this.mojo?.artifactId;
    if (!failedGoal) {
      if (this.forks.error(text, module, this.inTests())) return;
      this.forks.endBlock();
    }

    if (isTestMarker(text)) {
      this.testFailuresReported = true;
      if (module) this.testFailureModules.add(module);
    }
    if (/Failure executing javac, but could not parse the error/.test(text)) {
      this.compile.addUnparseable(module);
      return;
    }
    if (/^\[Help \d+\]/.test(header)) return;
    const rule = matchNonCode(text);
    if (rule) {
      this.other.add(rule.rule.category, failedGoal?.message || text, module, rule.reason);
      return;
    }
    this.other.next(header);
    const explained =
      quality ||
      /Compilation failure/.test(text) ||
      (failedGoal?.plugin === 'maven-javadoc-plugin' && this.compile.size > 0);
    if (failedGoal && !this.firstUnexplainedFailure && !explained) {
      this.firstUnexplainedFailure = { text: failedGoal.message || text, module };
    }
  }

  /** The failed goal becomes the running one, its module failed; true when it is a quality gate's. */
  private noteFailedGoal({ groupId, plugin, version, goal, artifactId, message }: FailedGoal): boolean {
    if (plugin && goal) this.mojo = { ...(groupId ? { groupId } : {}), plugin, goal, artifactId };
    this.reactor.markFailed(artifactId);
    const spec = plugin && goal ? qualityToolOf(plugin, goal) : undefined;
    if (!spec || !groupId || !version) return false;
    this.quality.fail({
      tool: spec.tool,
      module: artifactId,
      goal: `${groupId}:${plugin}:${version}:${goal}`,
      message,
      ...(this.projectRoot !== undefined ? { projectRoot: this.projectRoot } : {}),
    });
    return true;
  }

  /**
   * Findings shared by prefixed and unprefixed lines: javac and javadoc entries, -Werror,
   * quality-gate lines. True when the line was one.
   */
  private feedFinding(text: string, prefixed: boolean): boolean {
    const multi = this.multiLine.feed(text);
    this.collect(multi.findings);
    if (multi.consumed) return true;
    const tool = this.runningQualityTool();
    const quality = qualityLine(text, { ...(tool ? { tool } : {}) });
    if (quality) {
      this.collect([quality]);
      return true;
    }
    const entry = compilerEntry(text);
    if (entry) {
      this.compile.start(entry, prefixed, 'error', this.compileContext());
      return true;
    }
    const marker = werrorMarker(text);
    if (marker !== undefined) {
      this.compile.failOnWarnings(marker, this.compileContext());
      return true;
    }
    const javac = javacEntry(text);
    if (javac) {
      const javadoc = this.mojo?.plugin === 'maven-javadoc-plugin' || text.startsWith('Exit code:');
      if (javac.severity === 'error')
        this.compile.start(javac, prefixed, javadoc ? 'javadoc' : 'error', this.compileContext());
      else if (!javadoc) this.compile.start(javac, prefixed, 'warning', this.compileContext());
      return true;
    }
    return false;
  }

  private feedWarning(text: string): void {
    const open = this.compile.open;
    if (open?.prefixed && open.role === 'warning' && isJavacDetail(text)) {
      this.compile.addDetail(text);
      return;
    }
    this.compile.flush();
    const entry = compilerEntry(text);
    if (entry && (this.mojo === undefined || this.mojo.plugin.includes('compiler'))) {
      this.noteMavenWarning(text);
      this.compile.start(entry, true, 'warning', this.compileContext());
      return;
    }
    const tool = this.runningQualityTool();
    const quality = qualityLine(text, { ...(tool ? { tool } : {}) });
    if (quality) {
      this.collect([quality]);
      return;
    }
    this.noteMavenWarning(text);
  }

  private feedInfo(text: string): void {
    const reactorLine = this.reactor.info(text);
    if (reactorLine === 'module-start') this.mojo = undefined;
    if (reactorLine === 'build-failure') this.sawBuildFailure = true;
    if (reactorLine) return;
    const mojo = mojoHeader(text);
    if (mojo) {
      this.mojo = mojo;
      return;
    }
    this.reactor.noteBasedir(text, this.mojo?.artifactId);
    if (this.inTests()) this.forks.info(text, this.mojo?.artifactId);
    if (text.startsWith('PMD Failure: ')) {
      const quality = qualityLine(text, {});
      if (quality) this.collect([quality]);
    }
  }

  private inTests(): boolean {
    return this.mojo !== undefined && /surefire|failsafe/.test(this.mojo.plugin);
  }

  private runningQualityTool(): string | undefined {
    return this.mojo ? qualityToolOf(this.mojo.plugin, this.mojo.goal)?.tool : undefined;
  }

  private collect(findings: QualityFinding[]): void {
    this.quality.collect(findings, (tool) =>
      this.mojo && this.runningQualityTool() === tool ? this.mojo.artifactId : undefined,
    );
  }

  private endErrorBlock(): void {
    this.compile.flush();
    this.collect(this.multiLine.flush());
    this.forks.endBlock();
  }

  private noteMavenWarning(text: string): void {
    if (this.mavenWarnings.length < MAX_MAVEN_WARNINGS && text.trim() !== '' && !this.mavenWarnings.includes(text)) {
      this.mavenWarnings.push(truncate(text, MAX_MESSAGE));
    }
  }
}

/** Parses a whole log held in memory (tests, small logs). `diagnoseBuild` streams instead. */
export function parseMavenLog(lines: Iterable<string>, options: LogParserOptions = {}): LogParseResult {
  const parser = new MavenLogParser(options);
  for (const line of lines) parser.feed(line);
  return parser.result();
}
