/**
 * The one place fixers are collected: the built-in ones and plugins' ones. It
 * asks every fixer that cares about some diagnostic, checks what comes back, and hands
 * the loop one list, most confident first, without two candidates that write the same files.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { checkFixer } from '../../plugins/check.js';
import { badImportFixer } from './bad-import.js';
import { dependencyPatternFixer } from './dependency-pattern.js';
import { dependencyUpdateFixer } from './dependency-update.js';
import { formatterGoalFixer } from './formatter-goal.js';
import { literalReturnFixer } from './literal-return.js';
import { missingImportFixer } from './missing-import.js';
import { missingSemicolonFixer } from './missing-semicolon.js';
import { missingThrowsFixer } from './missing-throws.js';
import { renamedMemberFixer } from './renamed-member.js';
import { staleOverrideFixer } from './stale-override.js';
import type { FixCandidate, Fixer, SourceView } from '../../plugins/contracts.js';
import type { BuiltInFixerContext } from './support/built-in-context.js';
import { wrongPackageFixer } from './wrong-package.js';

export class FixerError extends Error {
  constructor(
    readonly fixer: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`fixer ${fixer}: ${message}`, options);
    this.name = 'FixerError';
  }
}

/** Why a candidate cannot be used, or undefined when it is well formed. */
export function candidateProblem(candidate: FixCandidate): string | undefined {
  if (!candidate || typeof candidate !== 'object') return 'candidate is not an object';
  if (typeof candidate.confidence !== 'number' || !(candidate.confidence >= 0 && candidate.confidence <= 1))
    return `confidence must be a number from 0 to 1, got ${String(candidate.confidence)}`;
  if (typeof candidate.reason !== 'string' || candidate.reason.trim() === '')
    return 'reason must be a non-empty string';
  const files = candidate.changeSet?.files;
  if (!Array.isArray(files) || files.length === 0) return 'changeSet.files must list at least one file';
  for (const file of files) {
    if (
      typeof file?.path !== 'string' ||
      file.path === '' ||
      file.path.startsWith('/') ||
      file.path.split('/').includes('..')
    )
      return `file path must be project-relative, got ${JSON.stringify(file?.path)}`;
    if (file.before !== null && typeof file.before !== 'string') return `${file.path}: before must be a string or null`;
    if (file.after !== null && typeof file.after !== 'string') return `${file.path}: after must be a string or null`;
    if (file.before === file.after) return `${file.path}: after is the same as before`;
  }
  return undefined;
}

function contentKey(candidate: FixCandidate): string {
  return JSON.stringify(
    candidate.changeSet.files
      .map((file) => [file.path, file.after])
      .sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : 1)),
  );
}

export class FixerRegistry {
  private readonly fixers: Fixer[] = [];

  register(fixer: Fixer): void {
    checkFixer(fixer);
    if (this.fixers.some((known) => known.name === fixer.name))
      throw new Error(`a fixer named ${fixer.name} is already registered`);
    this.fixers.push(fixer);
  }

  list(): Fixer[] {
    return [...this.fixers];
  }

  /**
   * Every fixer's candidates, by confidence (highest first, registration order on ties), deduplicated by resulting
   * contents.
   */
  async propose(
    diagnostics: Diagnostic[],
    view: SourceView,
    context: BuiltInFixerContext = {},
  ): Promise<FixCandidate[]> {
    if (!Array.isArray(diagnostics)) throw new TypeError('propose() needs an array of diagnostics');
    const collected: FixCandidate[] = [];
    for (const fixer of this.fixers) {
      const relevant = diagnostics.filter((diagnostic) => fixer.handles(diagnostic));
      if (relevant.length === 0) continue;
      try {
        const candidates = await fixer.propose(relevant, view, { ...context, buildDiagnostics: diagnostics });
        if (!Array.isArray(candidates)) throw new FixerError(fixer.name, 'propose() did not return an array');
        for (const candidate of candidates) {
          const problem = candidateProblem(candidate);
          if (problem) throw new FixerError(fixer.name, `returned an invalid candidate: ${problem}`);
          collected.push({ ...candidate, fixer: fixer.name });
        }
      } catch (error) {
        const failure =
          error instanceof FixerError
            ? error
            : new FixerError(fixer.name, (error as Error)?.message ?? String(error), { cause: error });
        if (!context.onFixerError) throw failure;
        context.onFixerError(fixer.name, failure);
      }
    }
    const seen = new Set<string>();
    return collected
      .map((candidate, order) => ({ candidate, order }))
      .sort((a, b) => b.candidate.confidence - a.candidate.confidence || a.order - b.order)
      .map(({ candidate }) => candidate)
      .filter((candidate) => {
        const key = contentKey(candidate);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  }
}

export const BUILT_IN_FIXERS: readonly Fixer[] = [
  missingImportFixer,
  missingSemicolonFixer,
  badImportFixer,
  missingThrowsFixer,
  wrongPackageFixer,
  literalReturnFixer,
  renamedMemberFixer,
  staleOverrideFixer,
  formatterGoalFixer,
  dependencyUpdateFixer,
  dependencyPatternFixer,
];

export function createDefaultFixerRegistry(): FixerRegistry {
  const registry = new FixerRegistry();
  for (const fixer of BUILT_IN_FIXERS) registry.register(fixer);
  return registry;
}
