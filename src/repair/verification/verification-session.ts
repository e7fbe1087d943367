/**
 * Everything a repair's verification builds share, set up once: the project facts (the
 * reactor, quick-JVM flags), the fresh outputs of the user's build, the scope, and a pool
 * of workspaces. One workspace serves the loop; more are made on demand when several
 * candidates are verified at once (`verify.parallel`).
 */
import os from 'node:os';
import type { DiagnosticParser } from '../../diagnose/index.js';
import type { TestCaseResult } from '../../diagnose/types.js';
import type { Diagnosis } from '../../diagnose/types.js';
import { fingerprintChangeSet } from '../../patch/index.js';
import type { ChangeSet } from '../../patch/types.js';
import { withDependencies } from '../../maven/reactor.js';
import { effectiveTests, type EffectiveConfig } from '../../policy/index.js';
import { defaultCacheDir } from '../../shared/cache-dir.js';
import {
  classesOfOutputs,
  cleansFirst,
  createWorkspace,
  readVerificationFacts,
  takeOutputs,
  type OutputSnapshot,
  type SandboxInfo,
  type VerificationFacts,
  type VerifyScope,
  type Workspace,
} from '../../workspace/index.js';
import { verifyCandidates, type CandidatesResult, type CandidateOrder } from './candidate-race.js';
import type { Verification } from '../loop/ports.js';
import { startBeforeCandidate, type BeforeCandidate } from './before-candidate.js';
import { createVerifier, failingModuleDirs, type Verify } from './verifier.js';

export interface VerificationSessionInput {
  projectRoot: string;
  mavenArgs: string[];
  executable: string;
  env: NodeJS.ProcessEnv;
  userCwd: string;
  /** When the user's build started: with a cleaning command, only outputs written since are reused. */
  buildStartedAt: Date;
  config: Pick<EffectiveConfig, 'verify' | 'auto' | 'tier' | 'rules'> & {
    sandbox: { env: { pass: readonly string[] } };
  };
  sandbox: SandboxInfo;
  baselineTests: TestCaseResult[];
  timeoutMs: number;
  signal: AbortSignal;
  onStage?: (name: string) => void;
  /** Plugins' parsers, for the diagnosis of a failed candidate build. */
  parsers?: readonly DiagnosticParser[];
  /**
   * The user's failed build's diagnosis: the modules it never reached that need none of the failing ones are built
   * and tested at once, beside the model (before-candidate.ts), told through `onBeforeCandidate`.
   */
  diagnosis?: Diagnosis;
  onBeforeCandidate?: (artifactIds: string[]) => void;
}

export interface VerificationSession {
  /** The loop's workspace (the flaky check runs there too). */
  workspace: Workspace;
  facts: VerificationFacts;
  scope: VerifyScope;
  /** Module folders whose outputs came from the user's build. */
  reusedOutputs: string[];
  /** The modules the user's build never reached, under test beside the model (before-candidate.ts), if any. */
  beforeCandidate?: Pick<BeforeCandidate, 'modules' | 'result'>;
  /** Verify one fix, in the loop's workspace unless told otherwise. */
  verify: Verify;
  /**
   * Verify `fix` in the loop's workspace while spare workspaces (verify.parallel) start on
   * the fixes queued after it; when the loop asks for one of those next, with the same
   * diagnosis, its verification is already under way. What the loop decides is unchanged:
   * it still takes the results one by one, in order. Look-ahead on a diagnosis the loop
   * has left, or after a verified fix, is stopped.
   */
  verifyAhead(fix: ChangeSet, diagnosis: Diagnosis, upcoming: ChangeSet[], signal?: AbortSignal): Promise<Verification>;
  /** Verify several fixes at once in their own workspaces; see candidates.ts. */
  verifyCandidates(
    fixes: ChangeSet[],
    diagnosis: Diagnosis,
    options?: { order?: CandidateOrder; signal?: AbortSignal },
  ): Promise<CandidatesResult>;
  /** How many candidates may be verified at once. */
  parallel: number;
  /** Read ahead what narrowing these modules will need (their compiled classes), while nothing waits for it. */
  warm(modules: readonly string[]): void;
  dispose(): Promise<void>;
}

/** verify.parallel: a number as given; auto is half the processors, at most 4. */
export function parallelSlots(
  setting: EffectiveConfig['verify']['parallel'],
  processors = os.availableParallelism(),
): number {
  return setting === 'auto' ? Math.max(1, Math.min(4, Math.floor(processors / 2))) : setting;
}

/** verify.scope, unless auto may apply a fix and auto.requireFullVerification asks for the whole build. */
export function effectiveScope(config: VerificationSessionInput['config']): VerifyScope {
  const mayApplyAtAuto = config.tier === 'auto' || config.rules.some((rule) => rule.tier === 'auto');
  return config.auto.requireFullVerification && mayApplyAtAuto ? 'full' : config.verify.scope;
}

export async function startVerificationSession(input: VerificationSessionInput): Promise<VerificationSession> {
  const { config } = input;
  // A container build runs the image's JVM: Maven's class-data archive is this machine's.
  const cds =
    input.sandbox.kind === 'none' || input.sandbox.kind === 'bwrap'
      ? { cds: { executable: input.executable, cacheDir: defaultCacheDir(input.env) } }
      : {};
  const facts = await readVerificationFacts({
    projectRoot: input.projectRoot,
    mavenArgs: input.mavenArgs,
    env: input.env,
    quickJvm: config.verify.quickJvm,
    ...cds,
  });
  const modules = facts.graph.projects.length > 0 ? facts.graph.projects.map((p) => p.dir) : [''];
  const outputs = config.verify.reuseOutputs
    ? await takeOutputs({
        projectRoot: input.projectRoot,
        modules,
        upstream: new Map(modules.map((dir) => [dir, withDependencies(facts.graph, dir)])),
        ...(cleansFirst(input.mavenArgs) ? { writtenSince: input.buildStartedAt } : { builtAt: input.buildStartedAt }),
      })
    : undefined;
  const snapshot: OutputSnapshot | undefined = outputs?.snapshot;
  const workspaces: Workspace[] = [];
  try {
    workspaces.push(await createWorkspace(input.projectRoot, snapshot ? { outputs: snapshot } : {}));
  } catch (error) {
    await outputs?.dispose();
    throw error;
  }
  const primary = workspaces[0]!;
  const scope = effectiveScope(config);
  const tests = effectiveTests(config);
  const classes = snapshot && tests === 'affected' ? classesOfOutputs(snapshot.dir) : undefined;
  // Spare workspaces for the never-reached modules, look-ahead and candidates; the first one stays the loop's alone.
  const idle: Workspace[] = [];
  const acquire = async (): Promise<Workspace> => {
    const free = idle.pop();
    if (free) return free;
    const made = await createWorkspace(input.projectRoot, snapshot ? { outputs: snapshot } : {});
    workspaces.push(made);
    return made;
  };
  const release = (workspace: Workspace) => {
    idle.push(workspace);
  };
  const beforeCandidate =
    input.diagnosis && scope === 'affected'
      ? startBeforeCandidate({
          diagnosis: input.diagnosis,
          failingModules: failingModuleDirs(input.diagnosis),
          baselineTests: input.baselineTests,
          facts,
          mavenArgs: input.mavenArgs,
          executable: input.executable,
          env: input.env,
          sandbox: input.sandbox,
          envPass: config.sandbox.env.pass,
          userCwd: input.userCwd,
          timeoutMs: input.timeoutMs,
          signal: input.signal,
          ...(input.parsers ? { parsers: input.parsers } : {}),
          acquire,
          release,
          ...(input.onBeforeCandidate
            ? { onStart: (modules) => input.onBeforeCandidate!(modules.map((m) => m.artifactId)) }
            : {}),
        })
      : undefined;
  const verify = createVerifier({
    workspace: primary,
    executable: input.executable,
    mavenArgs: input.mavenArgs,
    env: input.env,
    sandbox: input.sandbox,
    envPass: config.sandbox.env.pass,
    baselineTests: input.baselineTests,
    timeoutMs: input.timeoutMs,
    signal: input.signal,
    userCwd: input.userCwd,
    ...(input.onStage ? { onStage: input.onStage } : {}),
    ...(input.parsers ? { parsers: input.parsers } : {}),
    facts,
    scope,
    tests,
    ...(classes ? { readClasses: classes } : {}),
    ...(config.verify.behaviourCheck !== false ? { probe: { cacheDir: defaultCacheDir(input.env) } } : {}),
    ...(beforeCandidate ? { beforeCandidate } : {}),
  });

  const parallel = parallelSlots(config.verify.parallel);

  // Look-ahead verifications by key (fix and diagnosis), each in a spare workspace.
  const ahead = new Map<string, { diagnosis: string; controller: AbortController; result: Promise<Verification> }>();
  const keyOf = (fix: ChangeSet, diagnosis: Diagnosis) => `${diagnosis.fingerprint}:${fingerprintChangeSet(fix)}`;
  const stopAhead = (keep?: (entry: { diagnosis: string }) => boolean) => {
    for (const [key, entry] of ahead) {
      if (keep?.(entry)) continue;
      entry.controller.abort();
      ahead.delete(key);
    }
  };
  const startAhead = (fix: ChangeSet, diagnosis: Diagnosis) => {
    const controller = new AbortController();
    const stop = () => controller.abort();
    input.signal.addEventListener('abort', stop, { once: true });
    const result = (async () => {
      const workspace = await acquire();
      try {
        return await verify(fix, diagnosis, { workspace, signal: controller.signal });
      } finally {
        release(workspace);
        input.signal.removeEventListener('abort', stop);
      }
    })();
    // A look-ahead nobody asks for must not become an unhandled rejection.
    result.catch(() => undefined);
    ahead.set(keyOf(fix, diagnosis), { diagnosis: diagnosis.fingerprint, controller, result });
  };

  return {
    workspace: primary,
    facts,
    async verifyAhead(fix, diagnosis, upcoming, signal) {
      stopAhead((entry) => entry.diagnosis === diagnosis.fingerprint);
      const key = keyOf(fix, diagnosis);
      const started = ahead.get(key);
      ahead.delete(key);
      if (parallel > 1) {
        for (const next of upcoming) {
          if (ahead.size >= parallel - 1) break;
          if (!ahead.has(keyOf(next, diagnosis)) && keyOf(next, diagnosis) !== key) startAhead(next, diagnosis);
        }
      }
      // `signal` (the wall-time budget) ends this build, whether it runs here or started ahead.
      if (started && signal) signal.addEventListener('abort', () => started.controller.abort(), { once: true });
      const verification = await (started ? started.result : verify(fix, diagnosis, signal ? { signal } : {}));
      if (verification.outcome === 'verified') stopAhead();
      return verification;
    },
    scope,
    reusedOutputs: snapshot?.modules ?? [],
    ...(beforeCandidate ? { beforeCandidate } : {}),
    verify,
    parallel,
    verifyCandidates: (fixes, diagnosis, options = {}) =>
      verifyCandidates({
        fixes,
        parallel,
        order: options.order ?? 'in-order',
        signal: options.signal ?? input.signal,
        run: async (fix, signal): Promise<Verification> => {
          // One at a time: the loop's own workspace (the loop waits for its proposer meanwhile).
          if (parallel === 1) return verify(fix, diagnosis, { signal });
          const workspace = await acquire();
          try {
            return await verify(fix, diagnosis, { workspace, signal });
          } finally {
            release(workspace);
          }
        },
      }),
    warm(modules) {
      classes?.warm(modules.filter((module) => snapshot!.modules.includes(module)));
    },
    async dispose() {
      const pending = [...ahead.values()].map((entry) => entry.result.catch(() => undefined));
      stopAhead();
      beforeCandidate?.stop();
      await Promise.all([...pending, beforeCandidate?.result]);
      await Promise.all(workspaces.map((workspace) => workspace.dispose()));
      await outputs?.dispose();
    },
  };
}
