/**
 * The dependency-update side of one repair, as the engine wires it: the analysis of the
 * first diagnosis (detect.ts + analyse.ts), what its two quick-fixes read (they are
 * ordinary fixers in ../fixers/, and get it through their FixerContext), the prompt's
 * section, and the record of which sites each pattern fixed once the loop verified or kept it.
 */
import type { Diagnosis, Diagnostic } from '../../diagnose/types.js';
import type { ContextPiece } from '../../model/prompts/index.js';
import type { DependencyUpdateRecord } from '../../report/run-record.js';
import type { AttemptRecord } from '../../shared/run-vocabulary.js';
import {
  analyseDependencyUpdate,
  brokenUpdates,
  compileErrorDifference,
  type DependencyUpdateAnalysis,
} from './analyse.js';
import { detectVersionChanges, updateBranchHint } from './detect.js';
import { dependencyUpdatePiece, dependencyUpdateRecord } from './record.js';

/**
 * What a pattern-writing fixer proposed, by the change set's fingerprint: the run record lists the sites once verified.
 */
export type PatternLog = Map<string, { from: string; to: string; sites: string[] }>;

/**
 * What the two dependency-update quick-fixes read of the run (../fixers/dependency-update.ts,
 * ../fixers/dependency-pattern.ts).
 */
export interface DependencyUpdateFixerData {
  /** Undefined until analyse() found an update, and when the failure is not one. */
  analysis(): DependencyUpdateAnalysis | undefined;
  /** The fixers write what they proposed here; onAttempt() reads it. */
  log: PatternLog;
  readOriginal(file: string): Promise<string | undefined>;
  /**
   * Reads compile errors the first analysis did not see (a module built only once an earlier one was fixed) against
   * the same updates and adds those that use one; resolves when done.
   */
  explain?(diagnostics: Diagnostic[]): Promise<void>;
}

export interface DependencyUpdateRepair {
  /** Reads the POMs and jars once; the record, or undefined when the failure is not a dependency update's. */
  analyse(diagnosis: Diagnosis): Promise<DependencyUpdateRecord | undefined>;
  fixerData: DependencyUpdateFixerData;
  promptPieces(): ContextPiece[];
  onAttempt(attempt: AttemptRecord): void;
  record(): DependencyUpdateRecord | undefined;
}

export function createDependencyUpdateRepair(options: {
  projectRoot: string;
  localRepository: string;
  env?: NodeJS.ProcessEnv;
  readOriginal: (file: string) => Promise<string | undefined>;
}): DependencyUpdateRepair {
  let analysis: DependencyUpdateAnalysis | undefined;
  let record: DependencyUpdateRecord | undefined;
  const log: PatternLog = new Map();
  /** Errors explain() already read, found or not: each is read once per run. */
  const read = new Set<string>();
  return {
    async analyse(diagnosis) {
      const changes = await detectVersionChanges({
        projectRoot: options.projectRoot,
        localRepository: options.localRepository,
      }).catch(() => []);
      if (changes.length === 0) return undefined;
      const branchHint = await updateBranchHint(options.projectRoot, options.env);
      analysis = await analyseDependencyUpdate({
        diagnosis,
        changes,
        localRepository: options.localRepository,
        read: options.readOriginal,
        ...(branchHint ? { branchHint } : {}),
      });
      record = analysis ? dependencyUpdateRecord(analysis) : undefined;
      return record;
    },
    fixerData: {
      analysis: () => analysis,
      log,
      readOriginal: options.readOriginal,
      async explain(diagnostics) {
        const every = analysis?.everyUpdate;
        if (!analysis || !every) return;
        const key = (site: string, message: string) => `${site}\u0000${message}`;
        const known = new Set(analysis.errors.map((error) => key(error.site, error.diagnostic.message)));
        let added = false;
        for (const diagnostic of diagnostics) {
          const at = key(`${diagnostic.file}:${diagnostic.line}`, diagnostic.message);
          if (known.has(at) || read.has(at)) continue;
          read.add(at);
          const found = await compileErrorDifference(
            diagnostic,
            every,
            options.readOriginal,
            options.localRepository,
          ).catch(() => undefined);
          if (!found) continue;
          analysis.errors.push(found);
          known.add(key(found.site, diagnostic.message));
          added = true;
        }
        if (!added || !record) return;
        analysis.updates = brokenUpdates(analysis, every, analysis.change);
        record = { ...dependencyUpdateRecord(analysis), ...(record.patterns ? { patterns: record.patterns } : {}) };
      },
    },
    promptPieces: () => (record ? [dependencyUpdatePiece(record)] : []),
    onAttempt(attempt) {
      const applied = log.get(attempt.fingerprint);
      if (!record || !applied) return;
      // Kept: verified, or a build that still fails but was adopted as progress (the loop says "not kept" otherwise).
      const kept =
        attempt.outcome === 'verified' ||
        (attempt.outcome === 'build-failed' && !(attempt.reason ?? '').includes('(not kept:'));
      if (!kept) return;
      (record.patterns ??= []).push({ ...applied, attempt: attempt.n, outcome: attempt.outcome });
    },
    record: () => record,
  };
}
