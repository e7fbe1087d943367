/**
 * The run's budget for a diagnosis: how complex the failure is (diagnostics, files,
 * modules, kinds, attempts that made progress) folded with the team's `budget` settings.
 */
import type { Diagnosis } from '../diagnose/types.js';
import { computeBudget, type EffectiveConfig } from '../policy/index.js';

export function runBudget(config: EffectiveConfig) {
  return (diagnosis: Diagnosis, progressCount: number) =>
    computeBudget(
      {
        diagnostics: diagnosis.diagnostics.length,
        files: new Set(diagnosis.diagnostics.map((d) => d.file).filter(Boolean)).size,
        modules: new Set(diagnosis.diagnostics.map((d) => d.module).filter(Boolean)).size,
        kinds: [...new Set(diagnosis.diagnostics.map((d) => d.kind))],
        failedAttemptsWithProgress: progressCount,
      },
      config.budget,
    );
}
