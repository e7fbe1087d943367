/**
 * Agent mode wired to the real stages: the proposer gets a pool of workspaces for its
 * candidate builds (several at a time where the cores allow), the config's command tools
 * run in a workspace under the verification sandbox, and what was learned about native
 * tool calls is kept for the run record. engine.ts calls this once per repair.
 */
import os from 'node:os';
import type { Diagnosis } from '../diagnose/types.js';
import type { ModelProvider } from '../model/index.js';
import type { ToolCallingSupport } from '../model/types.js';
import { applyChangeSet } from '../patch/index.js';
import type { ChangeSet } from '../patch/types.js';
import type { EffectiveConfig } from '../policy/index.js';
import { runCommandInWorkspace, type SandboxInfo, type Workspace } from '../workspace/index.js';
import {
  allToolNames,
  BUILT_IN_AGENT_TOOLS,
  createAgentProposer,
  createCommandTool,
  createWorkspacePool,
  type AgentAttemptInput,
  type ChangeChecker,
  type IntegrityOutcome,
  type Proposal,
  type Verification,
} from '../repair/index.js';
import type { AgentTool, SourceView } from '../plugins/contracts.js';

export interface AgentWiringInput {
  config: EffectiveConfig;
  provider: ModelProvider;
  guidelines?: string;
  checker: ChangeChecker;
  original: SourceView;
  read: (base: ChangeSet) => (file: string) => Promise<string | undefined>;
  workspace: Workspace;
  projectRoot: string;
  sandbox: SandboxInfo;
  env: NodeJS.ProcessEnv;
  /** A verifier bound to one workspace (engine.ts makes them with createVerifier). */
  verifierFor(
    workspace: Workspace,
  ): (fix: ChangeSet, diagnosis: Diagnosis, signal?: AbortSignal) => Promise<Verification>;
  fingerprint: (changeSet: ChangeSet) => string;
  /**
   * Test integrity of a fix (relative to the original tree), read from the patch: a candidate that weakens tests is not
   * built.
   */
  checkIntegrity: (fix: ChangeSet, diagnosis: Diagnosis) => Promise<IntegrityOutcome>;
  keepExchange: (n: number, prompt: string, response: string) => Promise<void>;
  keepLog: (n: number, log: string) => Promise<void>;
  signal: AbortSignal;
  pluginTools?: readonly AgentTool[];
  onStep: (text: string) => void;
  /** A command tool left out (its name is taken), for the console and the record. */
  onNote(text: string): void;
}

export interface AgentWiring {
  propose: (input: AgentAttemptInput) => Promise<Proposal>;
  /** Builds through the pool, so that the loop's own builds wait for a free workspace too. */
  verify: (fix: ChangeSet, diagnosis: Diagnosis, signal?: AbortSignal) => Promise<Verification>;
  toolCalling(): ToolCallingSupport | undefined;
  dispose(): Promise<void>;
}

/** A Maven build keeps about two cores busy: half the cores, at least one. */
export function defaultParallelBuilds(cores = os.availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 2));
}

/**
 * The configured context window for agent prompts (`model.contextTokens`, capped by `model.numCtx` when set, as for
 * single-shot prompts); the proposer caps it by the model's own length.
 */
export function agentContextTokens(config: EffectiveConfig): number {
  return Math.min(config.model.contextTokens, config.model.numCtx ?? Number.POSITIVE_INFINITY);
}

export function wireAgent(input: AgentWiringInput): AgentWiring {
  const { config } = input;
  const parallelBuilds = config.agent.parallelBuilds ?? defaultParallelBuilds();
  const pool = createWorkspacePool(input.workspace, input.projectRoot, parallelBuilds);
  const verifiers = new Map<Workspace, ReturnType<AgentWiringInput['verifierFor']>>();
  const verify = (fix: ChangeSet, diagnosis: Diagnosis, signal?: AbortSignal) =>
    pool.use((workspace) => {
      let verifier = verifiers.get(workspace);
      if (!verifier) {
        verifier = input.verifierFor(workspace);
        verifiers.set(workspace, verifier);
      }
      return verifier(fix, diagnosis, signal);
    });

  let base: ChangeSet = { files: [] };
  const taken = new Set(allToolNames([...BUILT_IN_AGENT_TOOLS, ...(input.pluginTools ?? [])]));
  const commandTools: AgentTool[] = [];
  for (const entry of config.tools ?? []) {
    if (taken.has(entry.name)) {
      input.onNote(`command tool ${entry.name} left out: a built-in or plugin tool has that name`);
      continue;
    }
    taken.add(entry.name);
    commandTools.push(
      createCommandTool(
        { ...entry, states: [...entry.states] },
        {
          run: (argvFor, timeoutMs) =>
            pool.use(async (workspace) => {
              // The code as the attempt sees it: the project plus the progress kept so far.
              await workspace.reset();
              await applyChangeSet(workspace.root, base);
              const run = await runCommandInWorkspace({
                argv: argvFor(workspace.root),
                cwd: workspace.root,
                scratchDir: workspace.scratchDir,
                env: input.env,
                pass: config.sandbox.env.pass,
                sandbox: input.sandbox,
                timeoutMs,
                signal: input.signal,
              });
              return { run, workspaceRoot: workspace.root };
            }),
        },
        input.original,
      ),
    );
  }

  const proposer = createAgentProposer({
    provider: input.provider,
    editFormat: config.model.editFormat,
    ...(input.guidelines ? { guidelines: input.guidelines } : {}),
    checker: input.checker,
    read: input.read,
    list: (glob) => input.original.list(glob),
    verify,
    fingerprint: input.fingerprint,
    checkIntegrity: input.checkIntegrity,
    keepExchange: input.keepExchange,
    keepLog: input.keepLog,
    maxSteps: config.agent.maxSteps,
    maxCandidates: config.agent.maxCandidates,
    parallelBuilds,
    toolCalling: config.agent.toolCalling,
    contextTokens: agentContextTokens(config),
    signal: input.signal,
    perCallTimeoutMs: config.model.timeoutSeconds * 1000,
    onStep: input.onStep,
    extraTools: [...(input.pluginTools ?? []), ...commandTools],
    onBase: (attemptBase) => {
      base = attemptBase;
    },
  });

  return { propose: proposer, verify, toolCalling: () => proposer.toolCalling(), dispose: () => pool.dispose() };
}
