/**
 * What the repair loop's ports hand it: a proposal (from a fixer, the model or an agent
 * session), the verification of a candidate fix, the flaky check's re-run and the test
 * integrity of a patch. Plain data; `loop.ts` decides what each means.
 */
import type { Diagnosis } from '../diagnose/types.js';
import type { ChangeSet, PatchProblem } from '../patch/types.js';
import type { AgentAttemptStats, AttemptRecord, AttemptSource } from '../shared/run-vocabulary.js';

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
}

export interface Verification {
  /** `not-applied`: the fix could not be written in the workspace (nothing was built). */
  outcome: 'verified' | 'build-failed' | 'regressed' | 'interrupted' | 'timeout' | 'not-applied';
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
}

/** Test integrity of a candidate fix, read from the patch before any build. */
export interface IntegrityOutcome {
  /** Set when the fix weakens, skips, disables or deletes tests: the attempt's reason. */
  refused?: string;
  /** Edits of failing tests the policy allows (tests.allowFailingTestEdits), in words. */
  failingTestEdits: string[];
}
