/**
 * The run record's shape (`.mvnx/runs/<runId>/run.json`), apart from the code that writes
 * and reads it (run-record.ts) so that its zod check (run-record-schema.ts) and the
 * record's writer import it without importing each other. Import it from run-record.ts.
 */
import type { Diagnostic } from '../diagnose/types.js';
import type { ModelLoadRecord, ModelRequestRecord } from '../model/traffic.js';
import type { AttemptRecord, RunStatus, StopReason } from '../shared/run-vocabulary.js';

/** The contract's run record (`.mvnx/runs/<runId>/run.json`). Extra fields are additions. */
export interface RunRecord {
  runId: string;
  startedAt: string;
  finishedAt: string;
  mavenArgs: string[];
  mavenExitCode: number;
  tier: 'off' | 'monitor' | 'assist' | 'auto';
  status: RunStatus;
  stopReason: StopReason;
  diagnostics: Diagnostic[];
  attempts: AttemptRecord[];
  applied: boolean;
  /** What the policy decided and why, in order: a user can always see why. */
  decisions: string[];
  /** verified fix: what to do with it (record | suggest | apply) and its risk. */
  action?: 'record' | 'suggest' | 'apply';
  risk?: 'low' | 'medium' | 'high';
  /** Files the fix was made against, so that a later `mvnx apply` can refuse a changed tree. */
  fixBase?: { path: string; beforeSha256: string | null }[];
  /** Model calls made, counting those whose replies were discarded unused. */
  modelCalls: number;
  /**
   * Of `modelCalls`, requests made whose replies were never used (the first request, made beside the flaky re-check,
   * cancelled when the re-check passed first or a quick-fix came first); each is marked `discarded` in `modelRequests`.
   */
  discardedModelCalls?: number;
  /**
   * Set on a record written for a run that was killed before it wrote its own (found by a later run): what the run
   * had started, nothing of what it did.
   */
  incomplete?: { foundAt: string; pid: number; reason: string };
  model?: { provider: string; name: string; host: string };
  /** Every model request: the host that answered, how long it waited for a busy service and why (issue 28). */
  modelRequests?: ModelRequestRecord[];
  /**
   * The model loaded ahead of the first chat (Ollama, when the policy attempts): when it began, how long it took and
   * the server's own load time. With `recheckStartedAt` and `timings.recheckMs` it shows whether the load overlapped
   * the flaky re-check.
   */
  modelLoad?: ModelLoadRecord;
  /** Time spent waiting for busy model servers, in all (absent when none). */
  modelWaitMs?: number;
  /** Agent mode: whether the model took native tool calls, and how that was learned (once per run). */
  toolCalling?: { native: boolean; reason: string };
  /** What isolated the verification builds (bwrap, podman, docker, none), and why not when isolated is false. */
  sandbox?: { kind: string; isolated: boolean; reason?: string };
  /** When the flaky check's re-run of the failing tests began (it took `timings.recheckMs`). */
  recheckStartedAt?: string;
  /**
   * When the build of the modules the failed build never reached began (on the unchanged code, beside the re-check and
   * the model; it took `timings.neverReachedMs`). Absent when there were none, or the run was interrupted.
   */
  neverReachedStartedAt?: string;
  /** stopReason flaky: the failing tests that passed when re-run on the unchanged code. */
  flakyTests?: string[];
  /** The command was re-run in place after an auto apply: its exit code. */
  inPlaceExitCode?: number;
  message?: string;
  /**
   * totalMs: mvnx's own time, from the end of the user's build to the record (loading the repair stage included);
   * recheckMs: the flaky check's re-run of the failing tests, when there was one; promptMs: building the prompts (not
   * in modelMs); neverReachedMs: building and testing the modules the failed build never reached (beside the rest).
   */
  timings: {
    totalMs: number;
    modelMs: number;
    promptMs?: number;
    applyMs: number;
    verifyMs: number;
    recheckMs?: number;
    neverReachedMs?: number;
    diagnoseMs?: number;
  };
  // Rollout loop (docs/rollout.md): where the run happened and what became of its fix.
  /** `owner/name` from CI or the git remote (credentials stripped), else the project folder's name. */
  repository?: string;
  /** Modules (artifactIds) holding the verified fix's files: what a tier rule with `modules` matches. */
  fixModules?: string[];
  /** JaCoCo line coverage (percent) per module (artifactId) when the fix was decided. */
  coverage?: Record<string, number>;
  /** What became of the verified fix; absent while nothing is known (see report/outcome.ts). */
  outcome?: RunOutcome;
  /** Every outcome change, oldest first, with its evidence. */
  outcomeHistory?: OutcomeEvent[];
  /** Last time `mvnx runs --reconcile` (or a later run) looked at the tree and git log for this run. */
  reconciledAt?: string;
  /** The pull/merge request suggestion posted for this run, when one was. */
  review?: { platform: 'github' | 'gitlab'; url?: string; message: string };
  /**
   * The failure is a dependency update's: which one, and which errors belong to it (docs: README "Dependency updates").
   */
  dependencyUpdate?: DependencyUpdateRecord;
  /** The pull/merge request the fix was published as (tier auto in CI, or `mvnx publish`). */
  publication?: RunPublication;
  /**
   * Every request mvnx opened for this run's fix, oldest first (`publication` is the newest), and where the fix was put
   * on a dependency bot's branch (`target: 'update-branch'`, publish.updateBranch).
   */
  publications?: (RunPublication | UpdateBranchPublication)[];
  /** What the user's build ran on, read when mvnx took over: publication builds its commit on exactly this. */
  built?: RunBuilt;
}

/**
 * The commit checked out when the build ran and the tree that was built: HEAD's tree, or (uncommitted) the working
 * tree's, Maven's `target/` folders and `.mvnx/` left out.
 */
export interface RunBuilt {
  commit: string;
  tree: string;
  /** True when the working tree differed from the commit: no commit holds what was built. */
  uncommitted?: boolean;
}

export interface DependencyUpdateRecord {
  groupId: string;
  artifactId: string;
  from: string;
  to: string;
  /** The errors (and failing tests) that belong to the update: `path:line: message`, `Class#test: message`. */
  errors: string[];
  /** What the versions were compared with: `HEAD`, `HEAD~1`, `merge-base <sha> (origin/main)`. */
  comparedWith: string;
  /**
   * False when the old version's jar is not in the local repository (the difference shows the new version's members
   * only).
   */
  oldVersionLocal: boolean;
  /** The Dependabot or Renovate branch, when the build ran on one (a hint, never required). */
  branchHint?: string;
  /** Per error: the failing line, its method and the API difference shown to the model. */
  differences: {
    site: string;
    message: string;
    failingLine?: string;
    method?: string;
    lines: string[];
    quickFix?: string;
    /** `groupId:artifactId from -> to` of the bump whose API this error uses (with `updates`). */
    dependency?: string;
  }[];
  /** Fixes carried from one site to the others (old -> new), and the sites each fixed, once verified. */
  patterns?: { from: string; to: string; sites: string[]; attempt: number; outcome: string }[];
  /** The BOM or parent whose bump moved the version: `bom g:a 1.0 -> 2.0`, `parent g:a 1 -> 2`. */
  via?: string;
  /**
   * Several bumps broke places (a grouped update, a BOM): each with its errors, the lead (the fields above) first.
   * Each difference then names its own in `dependency`.
   */
  updates?: DependencyUpdateEntry[];
  /** When the versions were compared with the last build that passed under mvnx (no git revision to compare with). */
  previousRun?: { at: string; commit?: string };
}

/** One bumped dependency and the errors that use its API. */
export interface DependencyUpdateEntry {
  groupId: string;
  artifactId: string;
  from: string;
  to: string;
  via?: string;
  errors: string[];
}

/**
 * autoMerge: `enabled` (the forge merges once the required checks pass), `refused` (reason says why), `off` (the
 * policy's publish.merge).
 */
export interface RunPublication {
  forge: 'github' | 'gitlab';
  url: string;
  number: number;
  branch: string;
  autoMerge: 'enabled' | 'refused' | 'off';
  reason?: string;
  /** The fix's commit as mvnx pushed it: the branch is deleted after the merge or close only while it is still this. */
  commit?: string;
}

/**
 * A verified fix put on a dependency bot's branch (publish.updateBranch): under `commit` the commit on the bot's
 * branch, under `pull-request` the commit of mvnx's request into it (that request is also the run's `publication`).
 */
export interface UpdateBranchPublication {
  target: 'update-branch';
  forge: 'github' | 'gitlab';
  mode: 'commit' | 'pull-request';
  /** The bot's branch. */
  branch: string;
  /** The commit that carries the fix: on the bot's branch (commit), on `mvnx/fix-*` (pull-request). */
  commit: string;
  /** The bot's head the commit sits on: the head that was built. */
  onTopOf: string;
  /** False when an earlier run had already put this commit there: this run pushed nothing. */
  pushed: boolean;
  /** The bot's pull/merge request (commit), or mvnx's request into the bot's branch (pull-request), when known. */
  url?: string;
  number?: number;
}

/** `merged` and `closed`: what became of the fix's pull/merge request (merged counts with the applied fixes). */
export type RunOutcome = 'applied' | 'adopted' | 'superseded' | 'reverted' | 'merged' | 'closed';

export interface OutcomeEvent {
  outcome: RunOutcome;
  /** When it happened, as far as the evidence tells (a commit's date, the apply's time). */
  at: string;
  /** One line a reviewer can check: `commit 1a2b3c4 "fix calc"`, `mvnx apply`, `auto`. */
  evidence: string;
  commit?: string;
}
