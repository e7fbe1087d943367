import type { Diagnosis } from '../../diagnose/types.js';
import type { ChangeSet } from '../../patch/types.js';
import { fingerprintChangeSet } from '../../patch/index.js';
import { checkChangeSet, type ChangeChecker } from '../loop/change-check.js';
import { overlayReaders } from '../loop/compose.js';
import { createSourceView } from '../../codebase/index.js';
import type { FixerContext, SourceView } from '../../plugins/contracts.js';
import type { BuiltInFixerContext, FixerRegistry } from '../fixers/index.js';
import type { Proposal } from '../loop/ports.js';

export interface FixerProposerOptions {
  root: string;
  registry: FixerRegistry;
  context: BuiltInFixerContext;
  checker: ChangeChecker;
  /** The tree as an attempt sees it; the session passes the reader the prompt context and the agent share. */
  read?: (base: ChangeSet) => (file: string) => Promise<string | undefined>;
  /** Runs a plugin goal in a scratch copy holding `base` (the attempt's tree); see FixerContext.runGoal. */
  runGoal?: (goal: string, moduleDirs: string[], base: ChangeSet) => ReturnType<NonNullable<FixerContext['runGoal']>>;
}

/**
 * Deterministic candidates for the current diagnosis, read against the tree as the
 * current attempt sees it. They pass the same validation as a model's patch.
 */
export function createFixerProposer(options: FixerProposerOptions) {
  const original = createSourceView(options.root);
  const readAt = options.read ?? overlayReaders((file) => original.read(file));

  return async function fixerProposals(diagnosis: Diagnosis, base: ChangeSet): Promise<Proposal[]> {
    const fixable = diagnosis.diagnostics.filter((d) => d.fixable);
    if (fixable.length === 0) return [];
    const view: SourceView = { root: original.root, read: readAt(base), list: (glob) => original.list(glob) };
    const runGoal = options.runGoal;
    const context: FixerContext = runGoal
      ? { ...options.context, runGoal: (goal, moduleDirs) => runGoal(goal, moduleDirs, base) }
      : options.context;
    const candidates = await options.registry.propose(fixable, view, context);
    const proposals: Proposal[] = [];
    for (const candidate of candidates) {
      const problems = await checkChangeSet(candidate.changeSet, options.checker);
      proposals.push({
        source: 'fixer',
        fixer: candidate.fixer,
        summary: candidate.reason,
        problems,
        // Fingerprinted even when refused: every attempt has one.
        fingerprint: fingerprintChangeSet(candidate.changeSet),
        ...(problems.length === 0 ? { changeSet: candidate.changeSet } : {}),
      });
    }
    return proposals;
  };
}
