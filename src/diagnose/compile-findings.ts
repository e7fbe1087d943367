/**
 * javac's findings as the log parser collects them: one entry at a time (its
 * continuation lines follow), de-duplicated (Maven prints each error twice), and the
 * warnings of each compiler execution kept aside, because `-Werror` may turn them into
 * the errors of the build.
 */
import { diagnosticFingerprint } from './fingerprint.js';
import { splitLint, WERROR_MESSAGE } from './javac-lines.js';
import { truncate } from './text.js';
import type { Diagnostic } from './types.js';

const MAX_MESSAGE = 500;
const MAX_DETAILS = 20;
const MAX_FINDINGS = 5_000;

/** A warning waits for -Werror to decide; javadoc keeps no source/caret lines. */
export type EntryRole = 'error' | 'warning' | 'javadoc';

export interface CompileEntry {
  file: string;
  line: number;
  column?: number;
  message: string;
  lint?: string;
}

/** Where an entry was printed: the module and the compiler goal running, when the log says. */
export interface CompileContext {
  module?: string;
  /** `compile` or `testCompile` while maven-compiler-plugin runs. */
  compilerGoal?: string;
}

interface Pending {
  diagnostic: Diagnostic;
  details: string[];
  /** True when the entry came from an `[ERROR]` block, whose continuations keep the prefix. */
  prefixed: boolean;
  role: EntryRole;
  execution: string;
}

const executionOf = (context: CompileContext) => `${context.module ?? ''}\u0000${context.compilerGoal ?? ''}`;

export class CompileFindings {
  private readonly errors = new Map<string, Diagnostic>();
  /** javac warnings per compiler execution (module + goal). */
  private readonly warnings = new Map<string, Diagnostic[]>();
  private readonly seenWarnings = new Set<string>();
  private readonly werrorExecutions = new Set<string>();
  private pending: Pending | undefined;
  capped = false;

  /** `file` as the log names it -> the diagnostic's file. */
  constructor(private readonly relativeFile: (file: string) => string) {}

  get size(): number {
    return this.errors.size;
  }

  values(): Diagnostic[] {
    return [...this.errors.values()];
  }

  /** The entry whose continuation lines may follow, if any. */
  get open(): { role: EntryRole; prefixed: boolean } | undefined {
    return this.pending ? { role: this.pending.role, prefixed: this.pending.prefixed } : undefined;
  }

  start(entry: CompileEntry, prefixed: boolean, role: EntryRole, context: CompileContext): void {
    this.flush();
    const file = this.relativeFile(entry.file);
    const scope =
      context.compilerGoal === 'testCompile' || (context.compilerGoal === undefined && /(^|\/)src\/test\//.test(file))
        ? 'test'
        : 'main';
    // Only a warning has a lint category that matters: -Werror may turn it into an error.
    const split =
      role !== 'warning'
        ? { message: entry.message.trim() }
        : entry.lint === undefined
          ? splitLint(entry.message.trim())
          : { message: entry.message.trim(), lint: entry.lint };
    const diagnostic = compileDiagnostic({
      message: truncate(split.message, MAX_MESSAGE),
      file,
      line: entry.line,
      ...(entry.column !== undefined ? { column: entry.column } : {}),
      ...(context.module ? { module: context.module } : {}),
      scope,
      ...(role === 'javadoc' ? { tool: 'javadoc' } : {}),
      ...(split.lint ? { lint: split.lint } : {}),
      fixable: true,
    });
    this.pending = { diagnostic, details: [], prefixed, role, execution: executionOf(context) };
  }

  addDetail(text: string): void {
    if (this.pending && this.pending.role !== 'javadoc' && this.pending.details.length < MAX_DETAILS)
      this.pending.details.push(truncate(text.trim(), MAX_MESSAGE));
  }

  flush(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    const d = pending.diagnostic;
    if (pending.details.length > 0) d.details = pending.details;
    if (pending.role !== 'warning') {
      this.add(d);
      return;
    }
    const list = this.warnings.get(pending.execution) ?? [];
    // A warning printed again (a module built twice, a log that repeats) is kept once.
    const identity = `${pending.execution}\u0000${d.file ?? ''}\u0000${d.line ?? ''}\u0000${d.column ?? ''}\u0000${d.message}`;
    if (list.length < MAX_FINDINGS && !this.seenWarnings.has(identity)) {
      this.seenWarnings.add(identity);
      list.push(d);
    }
    this.warnings.set(pending.execution, list);
    // Plain javac prints -Werror's verdict after the warnings; the compiler plugin too.
    if (this.werrorExecutions.has(pending.execution)) this.add(d);
  }

  /** `-Werror`: the warnings of this compiler execution are the errors. */
  failOnWarnings(markerFile: string, context: CompileContext): void {
    this.flush();
    const execution = executionOf(context);
    this.werrorExecutions.add(execution);
    const warnings = this.warnings.get(execution) ?? [];
    if (warnings.length > 0) {
      for (const warning of warnings) this.add(warning);
      return;
    }
    // -q hid the [WARNING] lines: keep the failure, without a line; the repair recovers them.
    const file = markerFile === '' ? undefined : this.relativeFile(markerFile);
    this.add(
      compileDiagnostic({
        message: WERROR_MESSAGE,
        ...(file ? { file } : {}),
        ...(context.module ? { module: context.module } : {}),
        fixable: true,
      }),
    );
  }

  /** "Failure executing javac, but could not parse the error". */
  addUnparseable(module: string | undefined): void {
    this.flush();
    this.add(
      compileDiagnostic({
        message: 'javac failed and Maven could not parse its error',
        ...(module ? { module } : {}),
        fixable: false,
      }),
    );
  }

  private add(d: Diagnostic): void {
    // Maven prints each javac error twice; the position and message identify it.
    const key = `${d.file ?? ''}\u0000${d.line ?? ''}\u0000${d.column ?? ''}\u0000${d.message}`;
    const seen = this.errors.get(key);
    if (seen) {
      // The second copy (the "Failed to execute goal ... on project X" block) may know more.
      if ((d.details?.length ?? 0) > (seen.details?.length ?? 0)) seen.details = d.details;
      if (seen.module === undefined && d.module !== undefined) seen.module = d.module;
      seen.fingerprint = diagnosticFingerprint(seen);
      return;
    }
    if (this.errors.size >= MAX_FINDINGS) {
      this.capped = true;
      return;
    }
    // A -Werror failure named without lines is replaced by the lines once they are known.
    if (d.line !== undefined && d.lint !== undefined) {
      for (const [k, other] of this.errors)
        if (other.message === WERROR_MESSAGE && other.line === undefined && other.module === d.module)
          this.errors.delete(k);
    }
    d.fingerprint = diagnosticFingerprint(d);
    this.errors.set(key, d);
  }
}

function compileDiagnostic(fields: Partial<Diagnostic> & { message: string; fixable: boolean }): Diagnostic {
  const d: Diagnostic = { kind: 'compile', category: 'compile', fingerprint: '', ...fields };
  if (!d.fixable) d.reason = 'javac failed without a position mvnx can act on';
  return d;
}
