/**
 * The repair loop: diagnose -> ask policy -> recheck a test failure (flaky?) -> propose
 * (fixers, then model) -> extract, validate, apply -> check test integrity -> verify ->
 * record -> decide the next step. Every step is a port so that this file reads top to
 * bottom; `src/app/repair-session.ts` wires the real implementations. The ports and the
 * data they exchange are in `ports.ts`, the attempt records' filling and wording in `attempt-record.ts`.
 */
import type { Diagnosis } from '../../diagnose/types.js';
import type { ChangeSet } from '../../patch/types.js';
import type { AttemptRecord, StopReason } from '../../shared/run-vocabulary.js';
import {
  describeProblems,
  fingerprintsOf,
  firstMessages,
  openAttemptRecord,
  recordVerification,
} from './attempt-record.js';
import { composeChangeSets } from './compose.js';
import { environmentFailure } from './environment-failure.js';
import { ProviderUnavailable, type LoopPorts, type LoopResult, type Proposal } from './ports.js';
import { judgeProgress } from './judge-progress.js';
import { startBesideRecheck } from './recheck-beside.js';
import { secondsLeft, untilAborted, wallEnded } from './wall-budget.js';

/** Two built attempts in a row that do not make the build better: stop. */
const NO_PROGRESS_STREAK = 2;
/** Two model calls in a row that the server failed (timeout, HTTP 5xx): the server's problem, stop. */
const SERVER_FAILURE_STREAK = 2;

export async function runRepairLoop(initial: Diagnosis, given: LoopPorts): Promise<LoopResult> {
  // The re-check's builds end at the wall-time budget too (it counts from the session's start).
  const recheckWall = given.recheckFailures && given.wallTimeLeft?.(secondsLeft(given, given.budget(initial, 0)));
  const ports: LoopPorts = recheckWall
    ? { ...given, recheckFailures: (d, events) => given.recheckFailures!(d, { ...events, signal: recheckWall }) }
    : given;
  // A test failure that goes away when the same code runs again is not the code's to fix (re-checked beside attempt 1's
  // model request, which is cancelled and counted when its reply goes unused).
  const beside = startBesideRecheck(initial, ports);
  let result: LoopResult;
  try {
    result = await loopFrom(initial, beside.ports);
  } catch (error) {
    await beside.settle();
    throw error;
  }
  const discarded = await beside.settle();
  return discarded > 0 ? { ...result, discardedModelCalls: discarded } : result;
}

async function loopFrom(initial: Diagnosis, ports: LoopPorts): Promise<LoopResult> {
  const attempts: AttemptRecord[] = [];
  const tried = new Set<string>();
  const timings = { modelMs: 0, promptMs: 0, applyMs: 0, verifyMs: 0 };
  let diagnosis = initial;
  let base: ChangeSet = { files: [] };
  let modelCalls = 0;
  /** Builds made inside agent attempts beyond one per attempt: they use up attempts too. */
  let extraBuilds = 0;
  let progress = 0;
  let unchangedStreak = 0;
  const serverFailures: string[] = [];
  const recheck = await ports.recheckFailures?.(initial);
  const end = (stopReason: StopReason, extra: Partial<LoopResult> = {}): LoopResult => ({
    stopReason,
    attempts,
    modelCalls,
    timings,
    ...(recheck ? { recheck } : {}),
    ...extra,
  });

  // A re-check the wall-time budget ended proves nothing, and no time is left for a repair.
  const { maxWallSeconds } = ports.budget(initial, 0);
  if (!recheck && ports.recheckFailures && !ports.interrupted() && ports.elapsedSeconds() >= maxWallSeconds) {
    return end('budget-exhausted', {
      message: `stopped at the ${maxWallSeconds}s wall-time budget during the re-check`,
    });
  }
  if (recheck && recheck.passed.length > 0 && recheck.failed.length === 0) {
    const tests = recheck.passed.join(', ');
    return end('flaky', {
      flakyTests: recheck.passed,
      message: `the failing test${recheck.passed.length === 1 ? '' : 's'} passed when re-run on the unchanged code: ${tests}`,
    });
  }
  if (ports.interrupted()) return end('interrupted');
  let queue = await ports.fixerProposals(diagnosis, base);

  for (let n = 1; ; n++) {
    if (ports.interrupted()) return end('interrupted');
    const budget = ports.budget(diagnosis, progress);
    if (n + extraBuilds > budget.maxAttempts)
      return end('budget-exhausted', { message: `used all ${budget.maxAttempts} attempts` });
    if (ports.elapsedSeconds() > budget.maxWallSeconds) {
      return end('budget-exhausted', { message: `ran past the ${budget.maxWallSeconds}s wall-time budget` });
    }

    // Propose: deterministic fixers first, then the model.
    let proposal: Proposal;
    const fromFixer = queue.shift();
    if (fromFixer) {
      proposal = fromFixer;
    } else {
      if (modelCalls >= budget.maxModelCalls) {
        // The last call the budget allowed was failed by the server: the server's problem, not the budget's.
        if (serverFailures.length > 0)
          return end('provider-unavailable', {
            message: `the model server failed the last model call the budget allowed (${serverFailures.at(-1)})`,
          });
        return end('budget-exhausted', { message: `used all ${budget.maxModelCalls} model calls` });
      }
      // The wall-time budget holds during the wait too: a model that holds its answer is left at the budget.
      const wall = ports.wallTimeLeft?.(secondsLeft(ports, budget));
      const wallPassed = () =>
        end('budget-exhausted', {
          message: `stopped at the ${budget.maxWallSeconds}s wall-time budget while waiting for the model`,
        });
      try {
        modelCalls++;
        proposal = await untilAborted(
          ports.modelProposal({
            diagnosis,
            base,
            history: attempts,
            n,
            modelCallsLeft: budget.maxModelCalls - modelCalls + 1,
            attemptsLeft: budget.maxAttempts - n - extraBuilds + 1,
            secondsLeft: secondsLeft(ports, budget),
            ...(wall ? { signal: wall } : {}),
          }),
          wall,
        );
        modelCalls += Math.max(1, proposal.modelCalls ?? 1) - 1;
        extraBuilds += proposal.extraBuilds ?? 0;
      } catch (error) {
        if (wallEnded(wall, ports)) return wallPassed();
        if (error instanceof ProviderUnavailable) {
          modelCalls--;
          return end('provider-unavailable', { message: error.message });
        }
        throw error;
      }
      // A proposer that turned the abort into a failed proposal: the budget ended it, not the model.
      if (wallEnded(wall, ports)) return wallPassed();
      timings.modelMs += proposal.modelMs ?? 0;
      timings.promptMs += proposal.promptMs ?? 0;
      // The server failed the call: counted as a server failure, not a rejected attempt (n is asked again).
      if (proposal.serverFailure) {
        serverFailures.push(proposal.serverFailure);
        ports.onServerFailure?.(n, proposal.serverFailure);
        if (serverFailures.length >= SERVER_FAILURE_STREAK) {
          return end('provider-unavailable', {
            message: `the model server failed ${serverFailures.length} calls in a row (last: ${proposal.serverFailure})`,
          });
        }
        n--;
        continue;
      }
      serverFailures.length = 0;
    }
    if (ports.interrupted()) return end('interrupted');

    const fingerprints = fingerprintsOf(proposal, (changeSet) => ports.fingerprint(changeSet));
    const record = openAttemptRecord(n, proposal, fingerprints);
    attempts.push(record);

    // The same proposal again, whatever became of it the first time: the next call would be wasted too.
    if (fingerprints.some((fingerprint) => tried.has(fingerprint))) {
      record.reason = 'the same change was already tried';
      ports.onAttempt?.(record);
      if (proposal.source === 'fixer') continue;
      return end('duplicate-patch', { message: `attempt ${n} repeated an earlier proposal` });
    }
    fingerprints.forEach((fingerprint) => tried.add(fingerprint));

    // Extracted, validated and placed by the proposer; refusals go back without a build.
    if (!proposal.changeSet) {
      record.reason = describeProblems(proposal.problems);
      ports.onAttempt?.(record);
      continue;
    }

    // Test integrity, read from the patch: weakening a test costs no build.
    const candidateFix = composeChangeSets(base, proposal.changeSet);
    record.filesChanged = candidateFix.files.map((file) => file.path);
    const integrity = await ports.checkIntegrity(candidateFix, diagnosis);
    if (integrity.refused) {
      record.reason = integrity.refused;
      ports.onAttempt?.(record);
      continue;
    }
    if (integrity.failingTestEdits.length > 0) record.failingTestEdits = integrity.failingTestEdits;

    // Verify the base plus this change in a clean workspace.
    // An agent attempt's fix was already built by its session (it passed the same integrity check above).
    // Otherwise the quick-fixes queued next go along, so that spare workspaces can start on them (verify.parallel).
    const upcoming = queue.flatMap((next) => (next.changeSet ? [composeChangeSets(base, next.changeSet)] : []));
    const buildWall = proposal.verification ? undefined : ports.wallTimeLeft?.(secondsLeft(ports, budget));
    const verification = proposal.verification ?? (await ports.verify(candidateFix, diagnosis, n, upcoming, buildWall));
    recordVerification(record, verification, timings);
    if (wallEnded(buildWall, ports) && verification.outcome !== 'verified') {
      record.outcome = 'interrupted';
      record.reason = `stopped at the ${budget.maxWallSeconds}s wall-time budget during verification`;
      ports.onAttempt?.(record);
      return end('budget-exhausted', {
        message: `stopped at the ${budget.maxWallSeconds}s wall-time budget while verifying attempt ${n}`,
      });
    }

    if (verification.outcome === 'not-applied') {
      // The workspace refused the write (a link, a FIFO, a file that is not there): back to the proposer.
      record.outcome = 'not-applicable';
      record.reason = `the fix could not be applied in the workspace: ${verification.message ?? 'unknown reason'}`;
      ports.onAttempt?.(record);
      continue;
    }
    if (verification.outcome === 'refused') {
      // Built and passed, but its behaviour moved only at the failing tests' own inputs (behaviour-check.ts).
      record.outcome = 'rejected';
      record.reason = verification.refused ?? 'test-special-casing';
      ports.onAttempt?.(record);
      continue;
    }
    if (verification.outcome === 'verified') {
      record.outcome = 'verified';
      ports.onAttempt?.(record);
      return end('fixed', { fix: candidateFix });
    }
    if (verification.outcome === 'interrupted') {
      record.outcome = 'interrupted';
      record.reason = 'interrupted during verification';
      ports.onAttempt?.(record);
      return end('interrupted');
    }
    if (verification.outcome === 'regressed') {
      record.outcome = 'regressed';
      record.reason = verification.testProblems?.length
        ? `test-weakening: ${verification.testProblems.join('; ')}`
        : `broke tests that passed before: ${verification.regressions.join(', ')}`;
      ports.onAttempt?.(record);
      continue;
    }

    record.outcome = 'build-failed';
    const after = verification.diagnosis;
    // The machine failed the build (no space, no memory, a killed fork): not the candidate's fault, and no other
    // candidate would fare better here.
    const environment = environmentFailure(after, verification.message);
    if (environment) {
      record.reason = `environment: the build could not run here: ${environment}; the fix itself was not judged`;
      ports.onAttempt?.(record);
      return end('error', {
        message: `a verification build failed for a reason of this machine, not of the fix: ${environment}`,
      });
    }
    const judged = after
      ? judgeProgress(diagnosis, after)
      : { adopted: false, why: 'nothing was read from the patched build' };
    record.reason =
      verification.outcome === 'timeout'
        ? 'verification timed out'
        : `the patched build still fails: ${firstMessages(after)}${judged.adopted ? '' : ` (not kept: ${judged.why})`}`;
    record.diagnosisFingerprint = after?.fingerprint;
    ports.onAttempt?.(record);

    if (!after || !judged.adopted) {
      unchangedStreak++;
      if (unchangedStreak >= NO_PROGRESS_STREAK) {
        return end('no-progress', {
          message: `${unchangedStreak} attempts in a row did not make the build better (last: ${judged.why})`,
        });
      }
      continue;
    }
    // Keep what worked: the next attempt starts from the patched tree, and is shown it.
    unchangedStreak = 0;
    progress++;
    base = candidateFix;
    diagnosis = after;
    queue = await ports.fixerProposals(diagnosis, base);
  }
}
