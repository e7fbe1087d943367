/**
 * The repair loop's vocabulary, as the run record (contract: run.json) spells it: why a
 * run stopped, what became of each attempt and where it came from. The loop (repair/)
 * produces these words and the record, stats and reports (report/) read them, so they live
 * in this leaf that both import. Each list is a value as well as a type, so that a reader
 * of run.json can check a word it finds (report/run-record-schema.ts).
 */

export const RUN_STATUSES = ['fixed', 'unfixed', 'skipped', 'error'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const STOP_REASONS = [
  'fixed',
  'budget-exhausted',
  'duplicate-patch',
  'no-progress',
  'provider-unavailable',
  'policy-skip',
  'not-fixable',
  'error',
  'interrupted',
  /** The failing tests passed when re-run on the unchanged code: no model was asked. */
  'flaky',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** `interrupted`: Ctrl-C or SIGTERM stopped the attempt's build; it says nothing about the fix. */
export const ATTEMPT_OUTCOMES = [
  'verified',
  'rejected',
  'not-applicable',
  'build-failed',
  'regressed',
  'interrupted',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export const ATTEMPT_SOURCES = ['fixer', 'model', 'agent'] as const;
export type AttemptSource = (typeof ATTEMPT_SOURCES)[number];

export interface AttemptRecord {
  n: number;
  source: AttemptSource;
  /**
   * Never empty: sha-256 of the normalised change set, or of the normalised proposed
   * edits when no change set could be made (of the reply's text when it held no edit).
   */
  fingerprint: string;
  outcome: AttemptOutcome;
  reason?: string;
  /** Read from the change set, never from the model's words. */
  filesChanged: string[];
  /** The model's own words, context for a human only. */
  summary?: string;
  fixer?: string;
  /** Diagnosis fingerprint after the attempt's build, when it was built. */
  diagnosisFingerprint?: string;
  regressions?: string[];
  /** The fix edits a test that failed (allowed by tests.allowFailingTestEdits): what it changed, in words. */
  failingTestEdits?: string[];
  /** modelMs is the model call alone; promptMs the prompt building before it. */
  timings: { modelMs?: number; promptMs?: number; applyMs?: number; verifyMs?: number };
  /** When the attempt ended (its trace span ends there; the next attempt starts there). */
  finishedAt?: string;
  /**
   * `failingFirst` on a full stage that ran the failing tests first in the same Maven run: they `passed`, `stopped` the
   * build, or were `not-reached`.
   */
  stages?: {
    name: string;
    exitCode: number;
    durationMs: number;
    failingFirst?: 'passed' | 'stopped' | 'not-reached';
  }[];
  /** Agent attempts: what the session did. */
  agent?: AgentAttemptStats;
  /** What rejected a built attempt that failed: `compile` (it did not compile) or the stage whose tests failed. */
  rejectedAt?: 'compile' | 'failing-tests' | 'full';
  /**
   * The command that decided a built attempt whose full stage ran (issue 17): its scope, exact arguments, and the
   * modules whose tests came from your build.
   */
  verdict?: AttemptVerdict;
}

export interface AttemptVerdict {
  /** `affected`: the tests of `testsFromYourBuild` were taken from your build; `full`: every test ran. */
  scope: 'affected' | 'full';
  /** The full stage's Maven arguments, exactly as run in the workspace. */
  args: string[];
  /** artifactIds of modules the fix cannot affect whose passing tests were taken from your build. */
  testsFromYourBuild: string[];
  /** Quick-JVM flags the verification ran with (verify.quickJvm). */
  jvmFlags: string[];
  /** Why every module's tests ran although verify.scope is affected. */
  why?: string;
  /**
   * verify.tests (issue 26): the test classes that ran, those whose results were taken from your build, why; what was
   * compiled again.
   */
  tests?: {
    ran: string[];
    fromYourBuild: string[];
    why: string;
    recompiled?: string[];
    compileWhy?: string;
    /**
     * Issue 42: modules your build never reached (it stopped first) that need none of the failing ones, built and
     * tested once on the unchanged code beside the model; their results count in this verdict.
     */
    beforeCandidate?: BeforeCandidateTests;
  };
}

/** An agent session in the run record: its steps, tool calls per tool, and the candidate fixes it built. */
export interface AgentAttemptStats {
  /**
   * Why the session ended: fix-verified, goals-accomplished, gave-up, step-limit, loop-guard, unreadable, build-budget,
   * time-limit.
   */
  stop: string;
  steps: number;
  modelCalls: number;
  /** Calls per tool, after the middleware corrected the names. */
  toolCalls: Record<string, number>;
  /** Calls whose name or arguments the middleware corrected. */
  corrections: number;
  /** How the model called tools in this session. */
  toolCalling: 'native' | 'text';
  /** Every fix given to write_fix, in order, with what became of it. */
  candidates?: { outcome: string; reason: string; filesChanged: string[]; fingerprint?: string }[];
}

/** The never-reached modules' run on the unchanged code (issue 42), as a verdict names it. */
export interface BeforeCandidateTests {
  /** artifactIds. */
  modules: string[];
  /** Their test classes that ran. */
  ran: string[];
  /** `com.acme.FooTest#method` that failed there, on the unchanged code. */
  failed: string[];
  /** The run's Maven arguments, as run in its workspace. */
  args: string[];
  durationMs: number;
  why: string;
}
