/**
 * The repair loop's ports, and what they hand it: a proposal (from a fixer, the model or an
 * agent session), the verification of a candidate fix, the flaky check's re-run and the test
 * integrity of a patch. Plain data and interfaces; `repair-loop.ts` decides what each means.
 * Every sub-folder of repair/ that implements a port imports this file, never the loop.
 */
import type { Diagnosis } from '../../diagnose/types.js';
import type { ChangeSet, PatchProblem } from '../../patch/types.js';
import type { AgentAttemptStats, AttemptRecord, AttemptSource, StopReason } from '../../shared/run-vocabulary.js';

export interface Proposal {
  source: AttemptSource;
  /** Relative to the current base (the original tree plus adopted progress). */
  changeSet?: ChangeSet;
  /** Of the change set (the loop computes it when absent). */
  fingerprint?: string;
  /** Of what was proposed (the normalised edits, or the reply when it held none), whether it applied or not. */
  proposalFingerprint?: string;
  problems: PatchProblem[];
  /** The model's own words; context only. */
  summary?: string;
  fixer?: string;
  modelMs?: number;
  /** Of `modelMs` before the call: gathering context and building the prompt. */
  promptMs?: number;
  /** Model calls this proposal took, when more than one (an agent session). */
  modelCalls?: number;
  // Agent mode: the session builds its candidate fixes itself (several may be tried in one attempt).
  /** The build of `changeSet` already done by the proposer; the loop does not build it again. */
  verification?: Verification;
  /** Builds beyond this attempt's own that the proposer made (other candidates): they count against maxAttempts. */
  extraBuilds?: number;
  agent?: AgentAttemptStats;
  /** The model server failed this call (timed out, HTTP 5xx, an error mid-stream): not an attempt, a server failure. */
  serverFailure?: string;
}

export interface Verification {
  /**
   * `not-applied`: the fix could not be written in the workspace (nothing was built). `refused`: it built and the tests
   * passed, but the behavioural probe found it special-cases the failing tests (`refused` says how).
   */
  outcome: 'verified' | 'build-failed' | 'regressed' | 'interrupted' | 'timeout' | 'not-applied' | 'refused';
  /** Why, for `refused`: a `test-special-casing:` reason. */
  refused?: string;
  /** Why, for `not-applied`. */
  message?: string;
  /** The diagnosis of the patched build when it failed. */
  diagnosis?: Diagnosis;
  regressions: string[];
  /** Why the tests do not show a fix although the build passed: a failing test skipped or missing, fewer tests run. */
  testProblems?: string[];
  applyMs: number;
  verifyMs: number;
  stages: { name: string; exitCode: number; durationMs: number; failingFirst?: 'passed' | 'stopped' | 'not-reached' }[];
  /** What rejected it (compile, or the stage whose tests failed); the command that decided, when the full stage ran. */
  rejectedAt?: AttemptRecord['rejectedAt'];
  verdict?: AttemptRecord['verdict'];
}

/** The failing tests re-run on the unchanged code, before any repair. */
export interface FailureRecheck {
  passed: string[];
  failed: string[];
  /** How many of the failing tests were re-run (the first ones; the rest only when those passed). */
  reran?: number;
  /** What the re-run cost, for the run record. */
  durationMs: number;
  /** When the re-run began (ISO), for the run record: what ran beside it can be read against it. */
  startedAt?: string;
}

/** Test integrity of a candidate fix, read from the patch before any build. */
export interface IntegrityOutcome {
  /** Set when the fix weakens, skips, disables or deletes tests: the attempt's reason. */
  refused?: string;
  /** Edits of failing tests the policy allows (tests.allowFailingTestEdits), in words. */
  failingTestEdits: string[];
}

export interface LoopBudget {
  maxAttempts: number;
  maxModelCalls: number;
  maxWallSeconds: number;
}

export class ProviderUnavailable extends Error {}

/** `launched`: the re-check's Maven has started (called once per re-run). */
export interface RecheckEvents {
  launched?: () => void;
  /** Ends the re-check's builds early (the wall-time budget): the re-check then proves nothing (undefined). */
  signal?: AbortSignal;
}

export interface LoopPorts {
  /** tests.flakyCheck: re-run the failing tests on the unchanged code; undefined when that does not apply. */
  recheckFailures?(diagnosis: Diagnosis, events?: RecheckEvents): Promise<FailureRecheck | undefined>;
  /** Attempt `n`'s model request was made but its reply will not be used (recheck-beside.ts), with why. */
  modelRequestDiscarded?(n: number, why: string): void;
  /** Whether attempt 1's model request may start beside the re-check (recheck-beside.ts): it builds nothing. */
  proposesBesideRecheck?(diagnosis: Diagnosis): boolean;
  /** Deterministic candidates for the current diagnosis, best first. */
  fixerProposals(diagnosis: Diagnosis, base: ChangeSet): Promise<Proposal[]>;
  /**
   * One model call (an agent session may take up to `modelCallsLeft` calls, `attemptsLeft`
   * builds and `secondsLeft`); throws ProviderUnavailable when the provider cannot serve.
   */
  modelProposal(input: {
    diagnosis: Diagnosis;
    base: ChangeSet;
    history: AttemptRecord[];
    n: number;
    modelCallsLeft: number;
    attemptsLeft: number;
    secondsLeft: number;
    signal?: AbortSignal;
    /** Attempt 1's request, started beside the re-check before the quick-fixes are looked at (recheck-beside.ts). */
    besideRecheck?: boolean;
  }): Promise<Proposal>;
  /** The loop took the request started beside the re-check as attempt `n`'s (told so the console can say it). */
  tookRequestBesideRecheck?(n: number): void;
  fingerprint(changeSet: ChangeSet): string;
  /** Does `fix` (relative to the original tree) weaken, skip, disable or delete tests? No build. */
  checkIntegrity(fix: ChangeSet, diagnosis: Diagnosis): Promise<IntegrityOutcome>;
  /** Apply `fix` (relative to the original tree) in a clean workspace and build it; `signal` ends the build early. */
  verify(
    fix: ChangeSet,
    diagnosis: Diagnosis,
    n: number,
    upcoming?: ChangeSet[],
    signal?: AbortSignal,
  ): Promise<Verification>;
  budget(diagnosis: Diagnosis, attemptsWithProgress: number): LoopBudget;
  elapsedSeconds(): number;
  /** Fires when `seconds` of the wall-time budget have passed: a wait (model, build, re-check) ends there. */
  wallTimeLeft?(seconds: number): AbortSignal;
  interrupted(): boolean;
  onAttempt?(attempt: AttemptRecord): void;
  /** A model call the server failed (one console line each); it is no attempt. */
  onServerFailure?(n: number, message: string): void;
}

export interface LoopResult {
  stopReason: StopReason;
  attempts: AttemptRecord[];
  /** The verified fix, relative to the original tree. */
  fix?: ChangeSet;
  modelCalls: number;
  /** Model requests made beside the re-check whose replies were never used (not in `modelCalls`). */
  discardedModelCalls?: number;
  message?: string;
  /** stopReason flaky: the tests that passed when re-run. */
  flakyTests?: string[];
  /** The flaky check's re-run, when there was one. */
  recheck?: FailureRecheck;
  timings: { modelMs: number; promptMs: number; applyMs: number; verifyMs: number };
}
