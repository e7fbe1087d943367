/**
 * The loop's ports as the session wires them: each real stage behind the port the loop
 * calls, with the console line that says what is happening. Which proposer answers an
 * attempt (the model, or an agent session under `agent.mode`) is decided here.
 */
import type { Diagnosis } from '../diagnose/types.js';
import type { ModelTraffic } from '../model/index.js';
import { fingerprintChangeSet } from '../patch/index.js';
import type { EffectiveConfig } from '../policy/index.js';
import type { Progress } from '../report/progress.js';
import {
  failingModuleDirs,
  recheckApplies,
  type FailureRecheck,
  type LoopPorts,
  type RecheckEvents,
  type VerificationSession,
} from '../repair/index.js';
import type { AttemptRecord } from '../shared/run-vocabulary.js';

export interface PortsInput {
  config: EffectiveConfig;
  progress: Progress;
  signal: AbortSignal;
  /** When the session started (Date.now()): the budget's wall time counts from it. */
  started: number;
  modelName: string;
  traffic: ModelTraffic;
  verification: VerificationSession;
  /** tests.flakyCheck: the re-run of the failing tests on the unchanged code. */
  recheckFailures?: (diagnosis: Diagnosis, events?: RecheckEvents) => Promise<FailureRecheck | undefined>;
  checkIntegrity: LoopPorts['checkIntegrity'];
  fixerProposals: LoopPorts['fixerProposals'];
  modelProposal: LoopPorts['modelProposal'];
  agentProposal: LoopPorts['modelProposal'];
  budget: LoopPorts['budget'];
  /** Told of every attempt before the console line (the dependency update counts its sites). */
  onAttempt(attempt: AttemptRecord): void;
}

export function wireLoopPorts(input: PortsInput): LoopPorts {
  const { config, progress, signal, started, traffic, verification, recheckFailures, checkIntegrity, fixerProposals } =
    input;
  const useAgent = (history: AttemptRecord[]) =>
    config.agent.mode === 'always' ||
    (config.agent.mode === 'escalate' &&
      history.some((attempt) => attempt.source === 'model' && attempt.outcome !== 'verified'));
  return {
    ...(recheckFailures
      ? {
          recheckFailures: async (diagnosis: Diagnosis, events?: RecheckEvents) => {
            // Said only when it runs: a compile error has no failing test to re-run.
            if (recheckApplies(diagnosis))
              progress.step('re-running the failing tests on the unchanged code (tests.flakyCheck)');
            // Once the re-check's Maven runs, read what narrowing the failing modules will need.
            const launched = () => {
              verification.warm(failingModuleDirs(diagnosis));
              events?.launched?.();
            };
            return recheckFailures(diagnosis, { launched, ...(events?.signal ? { signal: events.signal } : {}) });
          },
          // An agent session builds in the workspace the re-check runs in: it waits. tests.flakyCheck `alone`: no
          // request at all while the re-check runs (a shared model server under load).
          proposesBesideRecheck: (diagnosis: Diagnosis) =>
            config.tests.flakyCheck !== 'alone' && config.agent.mode !== 'always' && recheckApplies(diagnosis),
          modelRequestDiscarded: (n: number, why: string) => {
            traffic.discard(n, why);
            progress.note(`attempt ${n}'s model request, made beside the re-check, was discarded unused: ${why}`);
          },
        }
      : {}),
    checkIntegrity,
    fixerProposals: async (diagnosis, base) => {
      // --mvnx-no-fixers: there is nothing to look for, so nothing is said.
      if (config.fixers.enabled) progress.step('looking for a deterministic quick-fix');
      return fixerProposals(diagnosis, base);
    },
    modelProposal: async (request) => {
      traffic.attempt = request.n;
      if (useAgent(request.history)) {
        progress.step(`attempt ${request.n}: agent session with ${input.modelName}`);
        return input.agentProposal(request);
      }
      // Started before the quick-fixes are looked at, so it is not yet an attempt: said as what it is.
      progress.step(
        request.besideRecheck
          ? `meanwhile preparing a first request to ${input.modelName}${config.fixers.enabled ? ', used if no quick-fix applies' : ''}`
          : `attempt ${request.n}: asking ${input.modelName}`,
      );
      return input.modelProposal(request);
    },
    tookRequestBesideRecheck: (n) =>
      progress.step(`attempt ${n}: the request to ${input.modelName} prepared beside the re-check`),
    fingerprint: fingerprintChangeSet,
    verify: async (fix, diagnosis, n, upcoming = [], buildSignal) => {
      progress.step(`attempt ${n}: verifying in a workspace`);
      return verification.verifyAhead(fix, diagnosis, upcoming, buildSignal);
    },
    budget: input.budget,
    elapsedSeconds: () => (Date.now() - started) / 1000,
    wallTimeLeft: (seconds) => AbortSignal.timeout(Math.max(0, Math.round(seconds * 1000))),
    interrupted: () => signal.aborted,
    onServerFailure: (n, message) => progress.note(`attempt ${n}: ${message} (a server failure, not a rejected fix)`),
    onAttempt: (attempt) => {
      input.onAttempt(attempt);
      attempt.finishedAt ??= new Date().toISOString();
      progress.note(
        `attempt ${attempt.n} (${attempt.fixer ?? attempt.source}): ${attempt.outcome}${attempt.reason ? ` — ${attempt.reason}` : ''}`,
      );
    },
  };
}
