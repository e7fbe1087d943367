/**
 * Whether a patch that did not fix the build still made it better, so that the next
 * attempt may start from it. Pure.
 *
 * Adopted only when failures strictly went away: at least one failure of the build before
 * is gone and none is new. A failure "is still there" when the same error is reported
 * again, even on another line (an edit above it moves it), or when another error is
 * reported at the same place (`cannot find symbol: variable length` becoming `cannot
 * find symbol: method length()` is the same unsolved problem), unless a syntax error
 * there gave way to an error of javac's next phase. The same test failing with another
 * value is still that test failing.
 *
 * New failures that could not have been seen before are not held against a patch:
 * javac reports attribution errors only once a module parses, test sources only once
 * main sources compile, and tests run only once everything compiles.
 */
import type { Diagnosis, Diagnostic } from '../../diagnose/types.js';

export interface ProgressJudgement {
  adopted: boolean;
  /** For the run record: what went away, or why nothing counts. */
  why: string;
}

export function judgeProgress(before: Diagnosis, after: Diagnosis): ProgressJudgement {
  if (!after.fixable)
    return {
      adopted: false,
      why: `the build now fails in a way a code patch cannot fix${after.reason ? ` (${after.reason})` : ''}`,
    };
  const stillThere = (old: Diagnostic) => after.diagnostics.some((now) => sameFailure(old, now));
  const gone = before.diagnostics.filter((old) => !stillThere(old));
  const added = after.diagnostics.filter(
    (now) => !before.diagnostics.some((old) => sameFailure(old, now)) && !revealed(now, before, gone),
  );
  if (added.length > 0)
    return {
      adopted: false,
      why: `it caused ${describe(added[0]!)}${added.length > 1 ? ` and ${added.length - 1} more` : ''}`,
    };
  if (gone.length === 0) {
    const moved = before.diagnostics.find((old) =>
      after.diagnostics.some((now) => samePlace(old, now) && now.fingerprint !== old.fingerprint),
    );
    return {
      adopted: false,
      why: moved ? `the failure at ${where(moved)} only changed its message` : 'the same failures remain',
    };
  }
  return {
    adopted: true,
    why: `${gone.length} of ${before.diagnostics.length} failure${before.diagnostics.length === 1 ? '' : 's'} went away`,
  };
}

function sameFailure(old: Diagnostic, now: Diagnostic): boolean {
  if (old.kind === 'test' || now.kind === 'test')
    return old.kind === now.kind && old.test !== undefined && old.test === now.test;
  if (old.fingerprint === now.fingerprint) return true;
  // A syntax error fixed, and javac now gets far enough to report something else there: that moved on.
  const nextPhase = PARSE_ERROR.test(old.message) && !PARSE_ERROR.test(now.message);
  return samePlace(old, now) && !nextPhase;
}

function samePlace(old: Diagnostic, now: Diagnostic): boolean {
  return (
    old.kind === now.kind &&
    old.file !== undefined &&
    old.file === now.file &&
    old.line !== undefined &&
    old.line === now.line
  );
}

/** javac's parse phase: while any of these stand, no attribution error is reported for the module. */
const PARSE_ERROR =
  /expected$|^illegal start of|^reached end of file while parsing|^unclosed |^not a statement|^illegal character|^'(else|catch|finally)' without|^orphaned|^malformed|^invalid method declaration|^illegal (escape|line end|text block)/;

/** A new failure the build before could not have shown, because what hid it is gone now. */
function revealed(now: Diagnostic, before: Diagnosis, gone: Diagnostic[]): boolean {
  // An unknown module (a single-module build) is every module.
  const inModule = (d: Diagnostic) => d.module === undefined || now.module === undefined || d.module === now.module;
  if (now.module !== undefined && !before.diagnostics.some((d) => d.module === now.module))
    return notBuiltBefore(now.module, before);
  const goneCompile = gone.filter((d) => d.kind === 'compile' && inModule(d));
  const remainingCompile = before.diagnostics.filter(
    (d) => d.kind === 'compile' && inModule(d) && !goneCompile.includes(d),
  );
  if (goneCompile.length === 0 || remainingCompile.length > 0) return false;
  if (now.kind === 'test') return true;
  if (now.kind !== 'compile') return false;
  if (goneCompile.every((d) => PARSE_ERROR.test(d.message))) return true;
  return now.scope === 'test' && goneCompile.every((d) => d.scope !== 'test');
}

/**
 * Skipped after an upstream failure. A quiet log (`-q`) prints no reactor summary; then
 * the modules listed after the first one that failed are taken as not built.
 */
function notBuiltBefore(module: string, before: Diagnosis): boolean {
  const order = before.modules.map((m) => m.artifactId ?? m.name);
  const at = order.indexOf(module);
  const status = at >= 0 ? before.modules[at]!.status : undefined;
  if (status !== undefined) return status === 'SKIPPED';
  const failing = before.diagnostics
    .map((d) => (d.module === undefined ? -1 : order.indexOf(d.module)))
    .filter((index) => index >= 0);
  return at >= 0 && failing.length > 0 && at > Math.min(...failing);
}

function where(d: Diagnostic): string {
  if (d.kind === 'test' && d.test) return d.test;
  return d.file ? `${d.file}${d.line ? `:${d.line}` : ''}` : d.message;
}

function describe(d: Diagnostic): string {
  return d.kind === 'test' ? `a new failing test ${d.test ?? ''}`.trim() : `a new error at ${where(d)}: ${d.message}`;
}
