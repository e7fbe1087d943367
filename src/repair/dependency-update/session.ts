/**
 * The dependency-update side of one repair, as the engine wires it: the analysis of the
 * first diagnosis (detect.ts + analyse.ts), its two quick-fixes, the prompt's section,
 * and the record of which sites each pattern fixed once the loop verified or kept it.
 */
import type { Diagnosis } from '../../diagnose/types.js';
import type { ContextPiece } from '../../model/prompts/index.js';
import type { Fixer } from '../../plugins/contracts.js';
import type { DependencyUpdateRecord } from '../../report/run-record.js';
import type { AttemptRecord } from '../../shared/run-vocabulary.js';
import { createDependencyPatternFixer } from '../fixers/dependency-pattern.js';
import { createDependencyUpdateFixer, type PatternLog } from '../fixers/dependency-update.js';
import { analyseDependencyUpdate, type DependencyUpdateAnalysis } from './analyse.js';
import { detectVersionChanges, updateBranchHint } from './detect.js';
import { dependencyUpdatePiece, dependencyUpdateRecord } from './record.js';

export interface DependencyUpdateSession {
  /** Reads the POMs and jars once; the record, or undefined when the failure is not a dependency update's. */
  analyse(diagnosis: Diagnosis): Promise<DependencyUpdateRecord | undefined>;
  fixers: Fixer[];
  promptPieces(): ContextPiece[];
  onAttempt(attempt: AttemptRecord): void;
  record(): DependencyUpdateRecord | undefined;
}

export function createDependencyUpdateSession(options: { projectRoot: string; localRepository: string; env?: NodeJS.ProcessEnv; readOriginal: (file: string) => Promise<string | undefined> }): DependencyUpdateSession {
  let analysis: DependencyUpdateAnalysis | undefined;
  let record: DependencyUpdateRecord | undefined;
  const log: PatternLog = new Map();
  const current = () => analysis;
  return {
    async analyse(diagnosis) {
      const changes = await detectVersionChanges({ projectRoot: options.projectRoot, localRepository: options.localRepository }).catch(() => []);
      if (changes.length === 0) return undefined;
      const branchHint = await updateBranchHint(options.projectRoot, options.env);
      analysis = await analyseDependencyUpdate({ diagnosis, changes, localRepository: options.localRepository, read: options.readOriginal, ...(branchHint ? { branchHint } : {}) });
      record = analysis ? dependencyUpdateRecord(analysis) : undefined;
      return record;
    },
    fixers: [createDependencyUpdateFixer(current, log), createDependencyPatternFixer(current, log, options.readOriginal)],
    promptPieces: () => (record ? [dependencyUpdatePiece(record)] : []),
    onAttempt(attempt) {
      const applied = log.get(attempt.fingerprint);
      if (!record || !applied) return;
      // Kept: verified, or a build that still fails but was adopted as progress (the loop says "not kept" otherwise).
      const kept = attempt.outcome === 'verified' || (attempt.outcome === 'build-failed' && !(attempt.reason ?? '').includes('(not kept:'));
      if (!kept) return;
      (record.patterns ??= []).push({ ...applied, attempt: attempt.n, outcome: attempt.outcome });
    },
    record: () => record,
  };
}
