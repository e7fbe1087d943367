/**
 * write_fix with several candidate fixes: each is checked like any model patch, the
 * ones that apply are built, up to `parallel` at a time (each in its own workspace),
 * and the first to pass wins: builds still running are stopped and the rest are not
 * started. Every build counts against the repair's attempt budget. What became of each
 * candidate goes back to the model in one line.
 */
import { renderDiagnostic } from '../../model/prompts/index.js';
import { isPlacementProblem } from '../../patch/problems.js';
import type { ChangeSet, PatchProblem } from '../../patch/types.js';
import type { CheckedChange } from '../loop/change-check.js';
import { describeProblems } from '../loop/attempt-record.js';
import type { Verification } from '../loop/ports.js';
import type { FixOutcome, FixTrial } from './agent-session.js';

export interface CandidatePorts {
  /** Extraction, placement and validation against the attempt's base. */
  check(text: string): Promise<CheckedChange>;
  fingerprint(changeSet: ChangeSet): string;
  /**
   * Test integrity read from the patch (the loop's check): why the change weakens tests, or undefined. A refused
   * candidate is not built.
   */
  integrity?(changeSet: ChangeSet): Promise<string | undefined>;
  /** Fingerprints already built in this repair, with where (`attempt 2`, `fix 1 at step 5`). */
  tried: Map<string, string>;
  /** Builds `changeSet` (relative to the attempt's base) in a free workspace. */
  verify(changeSet: ChangeSet, signal: AbortSignal): Promise<Verification>;
  /** Builds at the same time (1 builds one after another). */
  parallel: number;
  /** Builds the budget still allows; each build started takes one. */
  budget: { left: number };
  /** Labels this write_fix's candidates in `tried`. */
  label(index: number): string;
}

export interface CandidateResult {
  index: number;
  text: string;
  changeSet?: ChangeSet;
  fingerprint?: string;
  /** Of what was proposed, applied or not (the loop's repeat check). */
  proposalFingerprint: string;
  problems: PatchProblem[];
  summary?: string;
  verification?: Verification;
  outcome:
    | 'verified'
    | 'rejected'
    | 'not-applicable'
    | 'duplicate'
    | 'build-failed'
    | 'regressed'
    | 'timeout'
    | 'not-built'
    | 'stopped';
  detail: string;
}

export interface CandidateTrial {
  results: CandidateResult[];
  verified?: CandidateResult;
}

export async function tryCandidates(texts: string[], ports: CandidatePorts): Promise<CandidateTrial> {
  const results: CandidateResult[] = [];
  for (const [index, text] of texts.entries()) {
    const checked = await ports.check(text);
    const result: CandidateResult = {
      index,
      text,
      proposalFingerprint: checked.proposalFingerprint,
      problems: checked.problems,
      outcome: 'not-built',
      detail: '',
      ...(checked.summary ? { summary: checked.summary } : {}),
    };
    if (!checked.changeSet) {
      const placement = checked.problems.length > 0 && checked.problems.every(isPlacementProblem);
      result.outcome = placement ? 'not-applicable' : 'rejected';
      result.detail = `${placement ? 'does not fit the code' : 'refused'}: ${describeProblems(checked.problems)}`;
    } else {
      result.changeSet = checked.changeSet;
      result.fingerprint = ports.fingerprint(checked.changeSet);
      const where =
        ports.tried.get(result.fingerprint) ??
        results.find((other) => other.fingerprint === result.fingerprint && other !== result)?.index;
      if (where !== undefined) {
        result.outcome = 'duplicate';
        result.detail =
          typeof where === 'number'
            ? `the same change as fix ${where + 1}`
            : `the same change as ${where}, which did not pass`;
      } else {
        // Weakening, skipping or deleting a test is refused from the patch alone: no build is spent on it.
        const weakens = await ports.integrity?.(checked.changeSet);
        if (weakens) {
          result.outcome = 'rejected';
          result.problems = [{ code: 'test-weakening', message: weakens.replace(/^test-weakening:\s*/, '') }];
          result.detail = `refused: ${weakens}`;
        }
      }
    }
    results.push(result);
  }

  const queue = results.filter((result) => result.changeSet && result.outcome === 'not-built');
  const running = new Map<CandidateResult, AbortController>();
  let winner: CandidateResult | undefined;
  const build = async (result: CandidateResult): Promise<void> => {
    const controller = new AbortController();
    running.set(result, controller);
    ports.budget.left--;
    ports.tried.set(result.fingerprint!, ports.label(result.index));
    const verification = await ports.verify(result.changeSet!, controller.signal);
    running.delete(result);
    result.verification = verification;
    if (winner && verification.outcome === 'interrupted') {
      result.outcome = 'stopped';
      result.detail = `stopped: fix ${winner.index + 1} passed first`;
      return;
    }
    describeBuild(result, verification);
    if (verification.outcome === 'verified' && !winner) {
      winner = result;
      for (const controller of running.values()) controller.abort();
    }
  };
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (winner) {
        next.detail = `not built: fix ${winner.index + 1} passed`;
        continue;
      }
      if (ports.budget.left <= 0) {
        next.detail = 'not built: the budget allows no more builds';
        continue;
      }
      await build(next);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(ports.parallel, queue.length)) }, worker));
  return { results, ...(winner ? { verified: winner } : {}) };
}

const MAX_FAILURES_SHOWN = 3;

function describeBuild(result: CandidateResult, verification: Verification): void {
  switch (verification.outcome) {
    case 'verified':
      result.outcome = 'verified';
      result.detail = 'passed: the build and the tests pass with it';
      return;
    case 'regressed':
      result.outcome = 'regressed';
      result.detail = verification.testProblems?.length
        ? `built, but the tests do not show a fix: ${verification.testProblems.join('; ')}`
        : `built, but breaks tests that passed before: ${verification.regressions.join(', ')}`;
      return;
    case 'timeout':
      result.outcome = 'timeout';
      result.detail = 'the build timed out';
      return;
    case 'interrupted':
      result.outcome = 'stopped';
      result.detail = 'the build was interrupted';
      return;
    case 'refused':
      result.outcome = 'rejected';
      result.detail = `built and passed, but refused: ${verification.refused ?? 'test-special-casing'}`;
      return;
    case 'not-applied':
      result.outcome = 'not-applicable';
      result.detail = `could not be written in the workspace: ${verification.message ?? 'unknown reason'}`;
      return;
    default: {
      result.outcome = 'build-failed';
      const failures = verification.diagnosis?.diagnostics ?? [];
      const shown = failures
        .slice(0, MAX_FAILURES_SHOWN)
        .map((diagnostic, index) =>
          renderDiagnostic(diagnostic, index).split('\n').slice(0, 4).join(' ').replace(/\s+/g, ' '),
        );
      result.detail = `built, still fails: ${shown.join(' | ') || 'no diagnostics were read from the log'}`;
    }
  }
}

/** What the session is told, one entry per candidate in the order given. */
export function toFixTrial(trial: CandidateTrial, budgetLeft: number): FixTrial {
  const outcomes: FixOutcome[] = trial.results.map((result) => ({
    outcome: result.outcome,
    detail: result.detail,
    files: result.changeSet ? result.changeSet.files.map((file) => file.path) : [],
  }));
  return { outcomes, ...(trial.verified ? { verified: trial.verified.index } : {}), buildsLeft: budgetLeft };
}
