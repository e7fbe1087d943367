/**
 * How much work one repair may do. The configured values are the budget for the simplest
 * failure; a dynamic budget scales them with the failure's complexity and grows by one
 * attempt per failed attempt that made progress, never beyond the hard cap.
 *
 * Inputs:
 *   diagnostics  fixable diagnostics being repaired (>= 1 counts as 1)
 *   files        distinct files they point at
 *   modules      distinct Maven modules they come from
 *   kinds        their kinds; test failures cost more (a test run per attempt, and the
 *                cause can be in main or test code)
 *   failedAttemptsWithProgress  attempts so far that did not fix the build but reduced
 *                the set of failures (the repair loop judges progress)
 *
 * complexity = 1 + 0.15 (diagnostics - 1) + 0.25 (files - 1) + 0.5 (modules - 1) + 0.5 [test],
 * capped at 3. Attempts, model calls and wall time scale by it (rounded up); the
 * per-attempt timeout scales with modules and test kind only, since those lengthen one
 * verification build. Each progressing attempt adds one attempt, the model calls of one
 * attempt and the wall time of one attempt.
 */
import type { DiagnosticKind } from '../diagnose/types.js';
import type { BudgetConfig } from './schema.js';

export interface BudgetInput {
  diagnostics: number;
  files: number;
  modules: number;
  kinds: readonly DiagnosticKind[];
  failedAttemptsWithProgress: number;
}

export interface Budget {
  maxAttempts: number;
  maxModelCalls: number;
  maxWallSeconds: number;
  perAttemptTimeoutSeconds: number;
  /** The factor applied to the base budget (1 when static). */
  complexity: number;
  reasons: string[];
}

const MAX_COMPLEXITY = 3;

export function failureComplexity(input: Omit<BudgetInput, 'failedAttemptsWithProgress'>): number {
  const extra = (count: number): number => Math.max(0, count - 1);
  const score =
    1 +
    0.15 * extra(input.diagnostics) +
    0.25 * extra(input.files) +
    0.5 * extra(input.modules) +
    (input.kinds.includes('test') ? 0.5 : 0);
  return Math.min(MAX_COMPLEXITY, Math.round(score * 100) / 100);
}

export function computeBudget(input: BudgetInput, budget: BudgetConfig): Budget {
  if (!budget.dynamic) {
    return {
      maxAttempts: budget.maxAttempts,
      maxModelCalls: budget.maxModelCalls,
      maxWallSeconds: budget.maxWallSeconds,
      perAttemptTimeoutSeconds: budget.perAttemptTimeoutSeconds,
      complexity: 1,
      reasons: ['static budget (budget.dynamic is false)'],
    };
  }
  const complexity = failureComplexity(input);
  const progress = Math.max(0, input.failedAttemptsWithProgress);
  const callsPerAttempt = Math.ceil(budget.maxModelCalls / budget.maxAttempts);
  const timeoutFactor = Math.min(
    MAX_COMPLEXITY,
    1 + 0.25 * Math.max(0, input.modules - 1) + (input.kinds.includes('test') ? 0.25 : 0),
  );
  const perAttemptTimeoutSeconds = Math.ceil(budget.perAttemptTimeoutSeconds * timeoutFactor);

  const wanted = {
    maxAttempts: Math.ceil(budget.maxAttempts * complexity) + progress,
    maxModelCalls: Math.ceil(budget.maxModelCalls * complexity) + progress * callsPerAttempt,
    maxWallSeconds: Math.ceil(budget.maxWallSeconds * complexity) + progress * perAttemptTimeoutSeconds,
    perAttemptTimeoutSeconds,
  };
  const reasons = [
    `complexity ${complexity} from ${input.diagnostics} diagnostic(s), ${input.files} file(s), ${input.modules} module(s), kinds ${input.kinds.join('/') || 'none'}`,
  ];
  if (progress > 0) reasons.push(`+${progress} attempt(s) for failed attempts that made progress`);
  const capped = Object.fromEntries(
    (Object.keys(wanted) as (keyof typeof wanted)[]).map((key) => {
      if (wanted[key] > budget.hardCap[key])
        reasons.push(`${key} ${wanted[key]} capped at budget.hardCap.${key} (${budget.hardCap[key]})`);
      return [key, Math.min(wanted[key], budget.hardCap[key])];
    }),
  ) as typeof wanted;
  return { ...capped, complexity, reasons };
}
