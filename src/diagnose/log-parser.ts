/**
 * Incremental parser for Maven's console output. Feed it one line at a time (the reader
 * streams the log, so memory stays bounded by the number of findings, not the log
 * size); `result()` returns what was seen so far, which is also what a truncated log
 * yields.
 */
import { matchNonCode, CATEGORY_REASONS, type NonCodeCategory } from './categories.js';
import { diagnosticFingerprint } from './fingerprint.js';
import { relativeToRoot, relativisePathsIn } from './paths.js';
import { looksBinary, splitLevel, stripAnsi, truncate } from './text.js';
import type { ConsoleTestFailure, Diagnostic, LogParseResult, ReactorModule } from './types.js';

const MAX_MESSAGE = 500;
const MAX_DETAILS = 20;
const MAX_MAVEN_WARNINGS = 200;
const MAX_FINDINGS = 5_000;

const JAVAC_ENTRY = /^((?:[A-Za-z]:[\\/]|\\\\|\/)[^[\]]*?\.java):\[(\d+)(?:,(\d+))?\] ?(.*)$/;
const JAVAC_UNPARSEABLE = /Failure executing javac, but could not parse the error/;
const MOJO_HEADER = /^--- ([\w.-]+):([^:\s]+):([\w-]+) \(([^)]*)\) @ (\S+) ---/;
const PROJECT_SEPARATOR = /^-+< ([^:\s]+):([^:\s]+) >-+$/;
const BUILDING = /^Building (.+?) (\S+?)(?:\s+\[(\d+)\/(\d+)\])?\s*$/;
const SUMMARY_ROW = /^(.+?) (?:\.+ |\.* ?)(SUCCESS|FAILURE|SKIPPED)\b/;
// groupId:artifactId:version:goal (execution) on project artifactId: message
const FAILED_GOAL = /^Failed to execute goal (?:[\w.-]+:([\w.-]+):([^:\s]+):([\w-]+) \([^)]*\) )?on project ([^\s:]+): ?(.*)$/;
const TEST_MARKER = /There are test failures|There are test errors|Tests run: \d+, Failures: \d+, Errors: \d+.*<<< (?:FAILURE|ERROR)!|^Tests run: \d+, Failures: (?:[1-9]\d*, Errors: \d+|\d+, Errors: [1-9])/;
const CONSOLE_TEST_ROW = /^ {2}([\w$.]+)\.([\w$]+)(?:\([^)]*\))?(?:\[\d+\])?(?::(\d+))? (?:» )?(.*)$/;

interface MojoContext {
  plugin: string;
  goal: string;
  artifactId: string;
}

interface PendingCompile {
  diagnostic: Diagnostic;
  details: string[];
  /** True when the entry came from an `[ERROR]` block, whose continuations keep the prefix. */
  prefixed: boolean;
}

export class MavenLogParser {
  private readonly projectRoot: string;
  private readonly compile = new Map<string, Diagnostic>();
  private readonly other = new Map<string, Diagnostic>();
  private readonly consoleTests = new Map<string, ConsoleTestFailure>();
  private readonly modules: ReactorModule[] = [];
  private readonly mavenWarnings: string[] = [];
  private readonly warnings: string[] = [];
  private pending: PendingCompile | undefined;
  private pendingArtifactId: string | undefined;
  private mojo: MojoContext | undefined;
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

  constructor(options: { projectRoot: string }) {
    this.projectRoot = options.projectRoot;
  }

  feed(rawLine: string): void {
    this.lineCount++;
    const line = stripAnsi(rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine);
    if (looksBinary(line)) {
      this.binaryLines++;
      this.flushPending();
      return;
    }
    const { level, text } = splitLevel(line);
    if (level === undefined) {
      this.feedUnprefixed(line);
      return;
    }
    if (level === 'ERROR' || level === 'FATAL') {
      this.sawAnyError = true;
      this.feedError(text);
      return;
    }
    this.flushPending();
    this.consoleSection = undefined;
    if (level === 'WARNING') {
      this.noteMavenWarning(text);
      return;
    }
    if (level === 'INFO') this.feedInfo(text);
  }

  result(): LogParseResult {
    this.flushPending();
    const warnings = [...this.warnings];
    if (this.binaryLines > 0) {
      warnings.push(`log contains ${this.binaryLines} line(s) of binary or non-UTF-8 data; they were skipped`);
    }
    if (this.findingsCapped) warnings.push(`more than ${MAX_FINDINGS} findings; the rest were dropped`);
    const otherFailures = [...this.other.values()];
    if (otherFailures.length === 0 && this.compile.size === 0 && !this.testFailuresReported && this.firstUnexplainedFailure) {
      otherFailures.push(this.otherDiagnostic('unknown', this.firstUnexplainedFailure.text, this.firstUnexplainedFailure.module));
    }
    return {
      compileErrors: [...this.compile.values()],
      otherFailures,
      consoleTestFailures: [...this.consoleTests.values()],
      testFailuresReported: this.testFailuresReported,
      testFailureModules: [...this.testFailureModules],
      modules: this.modules.map((m) => ({ ...m })),
      buildFailed: this.sawBuildFailure || this.sawAnyError,
      mavenWarnings: [...this.mavenWarnings],
      warnings,
      lineCount: this.lineCount,
    };
  }

  private feedUnprefixed(line: string): void {
    if (this.pending && !this.pending.prefixed && /^\s+\S/.test(line)) {
      this.addDetail(line);
      return;
    }
    this.flushPending();
    const rule = matchNonCode(line);
    if (rule?.category === 'jvm-crash') this.addOther(rule.category, line.trim(), this.mojo?.artifactId);
  }

  private feedError(text: string): void {
    if (this.pending?.prefixed && /^\s{2,}\S/.test(text)) {
      this.addDetail(text);
      return;
    }
    this.flushPending();

    const entry = JAVAC_ENTRY.exec(text);
    if (entry) {
      this.startCompile(entry, true);
      return;
    }
    if (this.consoleSection) {
      const row = CONSOLE_TEST_ROW.exec(text);
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

    const failedGoal = FAILED_GOAL.exec(text);
    if (failedGoal) {
      const [, plugin, , goal, artifactId] = failedGoal;
      if (plugin && goal && artifactId) this.mojo = { plugin, goal, artifactId };
      this.markModule(artifactId, 'FAILURE');
    }
    const module = failedGoal?.[4] ?? this.mojo?.artifactId;

    if (TEST_MARKER.test(text)) {
      this.testFailuresReported = true;
      if (module) this.testFailureModules.add(module);
    }
    if (JAVAC_UNPARSEABLE.test(text)) {
      this.addCompile(this.compileDiagnostic({ message: 'javac failed and Maven could not parse its error', module, fixable: false }));
      return;
    }
    if (/^\[Help \d+\]/.test(text.trim())) return;
    const rule = matchNonCode(text);
    if (rule) {
      this.addOther(rule.category, failedGoal?.[5] || text, module);
      return;
    }
    if (this.awaitingExplanation && text.trim() !== '' && !/^-> \[Help/.test(text.trim())) {
      this.explain(this.awaitingExplanation, text.trim());
    }
    this.awaitingExplanation = undefined;
    if (failedGoal && !this.firstUnexplainedFailure && !/Compilation failure/.test(text)) {
      this.firstUnexplainedFailure = { text: failedGoal[5] || text, module };
    }
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

  private startCompile(entry: RegExpExecArray, prefixed: boolean): void {
    const [, absFile = '', line, column, message = ''] = entry;
    const file = relativeToRoot(absFile, this.projectRoot);
    const goal = this.mojo?.plugin.includes('compiler') ? this.mojo.goal : undefined;
    const scope = goal === 'testCompile' || (goal === undefined && /(^|\/)src\/test\//.test(file)) ? 'test' : 'main';
    const diagnostic = this.compileDiagnostic({
      message: truncate(message.trim(), MAX_MESSAGE),
      file,
      line: Number(line),
      ...(column !== undefined ? { column: Number(column) } : {}),
      module: this.mojo?.artifactId,
      scope,
      fixable: true,
    });
    this.pending = { diagnostic, details: [], prefixed };
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
    this.addCompile(d);
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
    d.fingerprint = diagnosticFingerprint(d);
    this.compile.set(key, d);
  }

  private otherDiagnostic(category: NonCodeCategory, text: string, module: string | undefined): Diagnostic {
    const d: Diagnostic = {
      kind: 'other',
      category,
      fixable: false,
      message: truncate(relativisePathsIn(text.trim(), this.projectRoot), MAX_MESSAGE),
      reason: CATEGORY_REASONS[category],
      fingerprint: '',
      ...(module ? { module } : {}),
    };
    d.fingerprint = diagnosticFingerprint(d);
    return d;
  }

  private explain(key: string, text: string): void {
    const seen = this.other.get(key);
    if (!seen) return;
    const merged = this.otherDiagnostic(seen.category as NonCodeCategory, `${seen.message} ${text}`, seen.module);
    this.other.set(key, merged);
  }

  private addOther(category: NonCodeCategory, rawText: string, module: string | undefined): void {
    const text = rawText.replace(/\s*-> \[Help \d+\]\s*$/, '');
    const key = `${category}\u0000${module ?? ''}`;
    this.awaitingExplanation = text.trimEnd().endsWith(':') ? key : undefined;
    const seen = this.other.get(key);
    const informative = text.trim() !== '' && !/^Failed to execute goal/.test(text);
    if (seen) {
      // A later line often says more than the "Failed to execute goal" header did.
      if (informative && (seen.message === '' || /^Failed to execute goal/.test(seen.message))) {
        this.other.set(key, this.otherDiagnostic(category, text, module));
      }
      return;
    }
    this.other.set(key, this.otherDiagnostic(category, text, module));
  }

  private addConsoleTest(row: RegExpExecArray, outcome: 'failure' | 'error'): void {
    const [, className = '', method = '', line, message = ''] = row;
    const key = `${className}#${method}`;
    if (this.consoleTests.has(key) || this.consoleTests.size >= MAX_FINDINGS) return;
    this.consoleTests.set(key, {
      className,
      method,
      ...(line ? { line: Number(line) } : {}),
      message: truncate(message.trim(), MAX_MESSAGE),
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

/** Parses a whole log held in memory (tests, small logs). `diagnoseBuild` streams instead. */
export function parseMavenLog(lines: Iterable<string>, options: { projectRoot: string }): LogParseResult {
  const parser = new MavenLogParser(options);
  for (const line of lines) parser.feed(line);
  return parser.result();
}
