/**
 * The agent as a proposer for the repair loop: one session (several model calls) whose
 * write_fix calls are checked and built here, so that the loop gets a fix that already
 * passed (or the last one that was built, with its build's verdict, so that progress is
 * kept). Each build counts against the attempt budget, like any other attempt.
 */
import type { Diagnosis } from '../../diagnose/types.js';
import { ModelCallError, ProviderUnavailableError, tokensForChars, type ModelProvider } from '../../model/index.js';
import { buildAgentTurn, renderDiagnostic, type EditFormat } from '../../model/prompts/index.js';
import type { ChatMessage, ToolCallingSupport } from '../../model/types.js';
import type { ChangeSet } from '../../patch/types.js';
import type { AgentAttemptStats, AttemptRecord } from '../../shared/run-vocabulary.js';
import { checkProposedChange, type ChangeChecker } from '../loop/change-check.js';
import { composeChangeSets } from '../loop/compose.js';
import { isServerFailure, renderMessages } from '../proposers/model-proposer.js';
import { ProviderUnavailable, type IntegrityOutcome, type Proposal, type Verification } from '../loop/ports.js';
import { toFixTrial, tryCandidates, type CandidateResult } from './fix-candidates.js';
import { runAgentSession, ToolCallingRefused, type AgentSessionResult } from './agent-session.js';
import { sessionTools } from './toolbox.js';
import type { AgentTool, ToolResult } from '../../plugins/contracts.js';

export type ToolCallingSetting = 'auto' | 'native' | 'text';

export interface AgentProposerOptions {
  provider: ModelProvider;
  editFormat: EditFormat;
  guidelines?: string;
  checker: ChangeChecker;
  read(base: ChangeSet): (file: string) => Promise<string | undefined>;
  list: (glob: string) => Promise<string[]>;
  /** Builds `fix` (relative to the original tree) in a free workspace; `signal` stops that build alone. */
  verify(fix: ChangeSet, diagnosis: Diagnosis, signal?: AbortSignal): Promise<Verification>;
  fingerprint(changeSet: ChangeSet): string;
  /**
   * Test integrity of a fix relative to the original tree (the loop's own check): a candidate that weakens tests is
   * refused before it is built.
   */
  checkIntegrity?(fix: ChangeSet, diagnosis: Diagnosis): Promise<IntegrityOutcome>;
  /** The session's last request exactly as sent (after redaction) and the model's last reply as written. */
  keepExchange(n: number, prompt: string, response: string): Promise<void>;
  /** The session step by step: each reply and what mvnx answered. */
  keepLog?(n: number, log: string): Promise<void>;
  maxSteps: number;
  maxCandidates: number;
  /** Candidate builds at the same time. */
  parallelBuilds: number;
  toolCalling: ToolCallingSetting;
  /**
   * The configured context window in tokens (`model.contextTokens`, capped by `model.numCtx`); the model's own length
   * caps it when the server tells.
   */
  contextTokens: number;
  signal: AbortSignal;
  perCallTimeoutMs: number;
  onStep?(text: string): void;
  /** Plugins' and the config's command tools, offered next to the built-in ones. */
  extraTools?: readonly AgentTool[];
  /** Tools that run a command on the code as the attempt sees it: told which base that is. */
  onBase?(base: ChangeSet): void;
}

/** What the loop passes to each model attempt, plus what agent mode needs of the budget. */
export interface AgentAttemptInput {
  diagnosis: Diagnosis;
  base: ChangeSet;
  history: AttemptRecord[];
  n: number;
  modelCallsLeft: number;
  /** Builds the attempt budget still allows (this attempt's included). */
  attemptsLeft?: number;
  secondsLeft?: number;
  /** Ends a model call early (the loop's wall-time budget). */
  signal?: AbortSignal;
}

const ANSWER_TOKENS = 1536;

/**
 * The window agent prompts are trimmed to: the configured one, or the model's own context
 * length when that is smaller (a prompt beyond it would be refused as too large, not trimmed).
 */
export function agentWindow(configured: number, modelTokens: number | undefined): number {
  return modelTokens !== undefined && Number.isInteger(modelTokens) && modelTokens > 0
    ? Math.min(configured, modelTokens)
    : configured;
}

export function createAgentProposer(options: AgentProposerOptions) {
  const tools: readonly AgentTool[] = sessionTools(options.extraTools ?? []);
  let support: ToolCallingSupport | undefined;

  const decideMode = async (): Promise<'native' | 'text'> => {
    if (options.toolCalling !== 'auto') {
      support ??= { native: options.toolCalling === 'native', reason: `agent.toolCalling is ${options.toolCalling}` };
      return options.toolCalling;
    }
    const told = await options.provider.toolCalling?.(options.signal);
    if (told) support = told;
    // Unknown: try native; the first refusal (HTTP 400) switches to text for good.
    return told?.native === false ? 'text' : 'native';
  };

  async function agentProposal(input: AgentAttemptInput): Promise<Proposal> {
    const started = Date.now();
    const fixable = input.diagnosis.diagnostics.filter((d) => d.fixable);
    const maxSteps = Math.max(1, Math.min(options.maxSteps, input.modelCallsLeft));
    const budget = { left: Math.max(1, input.attemptsLeft ?? 1) };
    const buildsAllowed = budget.left;
    const tried = new Map(
      input.history
        .filter((attempt) => attempt.fingerprint)
        .map((attempt) => [attempt.fingerprint, `attempt ${attempt.n}`] as [string, string]),
    );
    const built: CandidateResult[] = [];
    let verified: CandidateResult | undefined;
    let writeFixes = 0;
    const candidatesSeen: CandidateResult[] = [];
    options.onBase?.(input.base);
    // The last request as it went out (after redaction) and the reply as the model wrote it: what the prompt file
    // keeps.
    const exchange: { sent?: ChatMessage[]; shown?: string } = {};
    const keep = async (log: string[]) => {
      if (exchange.sent)
        await options.keepExchange(input.n, renderMessages(exchange.sent), exchange.shown ?? '(no reply)');
      await options.keepLog?.(input.n, log.join('\n\n'));
    };

    let session: AgentSessionResult | undefined;
    const log: string[] = [];
    /** Whether the last chat ended at its own per-call deadline (not a caller's abort). */
    let callTimedOut = () => false;
    try {
      const mode = await decideMode();
      session = await runAgentSession({
        log,
        tools,
        mode,
        maxSteps,
        maxCandidates: options.maxCandidates,
        ...(input.secondsLeft !== undefined ? { deadline: started + input.secondsLeft * 1000 } : {}),
        context: {
          view: { root: options.checker.root, read: options.read(input.base), list: options.list },
          runTests: async (): Promise<ToolResult> => describeBuild(await options.verify(input.base, input.diagnosis)),
          diagnostics: fixable,
        },
        turn: (memory) =>
          buildAgentTurn({
            diagnostics: fixable,
            history: input.history.map((a) => ({
              n: a.n,
              outcome: a.outcome,
              ...(a.reason ? { reason: a.reason } : {}),
            })),
            ...(options.guidelines ? { guidelines: options.guidelines } : {}),
            editFormat: options.editFormat,
            ...memory,
            contextTokens: agentWindow(options.contextTokens, options.provider.modelContextTokens?.()),
            answerTokens: ANSWER_TOKENS,
            toolTokens: memory.mode === 'native' ? tokensForChars(JSON.stringify(memory.tools).length) : 0,
          }).messages,
        chat: async (messages, specs) => {
          const perCall = AbortSignal.timeout(options.perCallTimeoutMs);
          const signal = AbortSignal.any([options.signal, ...(input.signal ? [input.signal] : []), perCall]);
          callTimedOut = () => perCall.aborted && !options.signal.aborted && !input.signal?.aborted;
          try {
            const reply = await options.provider.chat({
              messages,
              signal,
              ...(specs ? { tools: specs } : {}),
              onSend: (outgoing) => {
                exchange.sent = outgoing;
                delete exchange.shown;
              },
            });
            exchange.shown = [
              reply.shown ?? reply.text,
              ...(reply.toolCalls ?? []).map(
                (call) => `[tool call] ${call.name} ${call.rawArguments ?? JSON.stringify(call.arguments)}`,
              ),
            ]
              .filter(Boolean)
              .join('\n');
            return { text: reply.text, ...(reply.toolCalls ? { toolCalls: reply.toolCalls } : {}) };
          } catch (error) {
            if (error instanceof ModelCallError && error.code === 'tools-unsupported') {
              support = {
                native: false,
                reason: (await options.provider.toolCalling?.())?.reason ?? 'the server refused tools (HTTP 400)',
              };
              throw new ToolCallingRefused(error.message);
            }
            throw error;
          }
        },
        tryFixes: async (texts) => {
          writeFixes++;
          const label = writeFixes;
          const trial = await tryCandidates(texts, {
            check: (text) => checkProposedChange(text, input.base, options.checker),
            fingerprint: (changeSet) => options.fingerprint(composeChangeSets(input.base, changeSet)),
            ...(options.checkIntegrity
              ? {
                  integrity: async (changeSet: ChangeSet) =>
                    (await options.checkIntegrity!(composeChangeSets(input.base, changeSet), input.diagnosis)).refused,
                }
              : {}),
            tried,
            verify: (changeSet, signal) =>
              options.verify(composeChangeSets(input.base, changeSet), input.diagnosis, signal),
            parallel: options.parallelBuilds,
            budget,
            label: (index) => `fix ${index + 1} of write_fix ${label}`,
          });
          candidatesSeen.push(...trial.results);
          built.push(
            ...trial.results.filter(
              (result) =>
                result.verification && ['build-failed', 'regressed', 'timeout', 'verified'].includes(result.outcome),
            ),
          );
          verified ??= trial.verified;
          return toFixTrial(trial, budget.left);
        },
        onStep: (line) => options.onStep?.(line),
      });
      if (support === undefined && session.mode === 'native')
        support = { native: true, reason: 'the server took the tool definitions' };
      await keep(session.log);
      return proposalFrom(session, {
        verified,
        built,
        candidatesSeen,
        started,
        buildsStarted: buildsAllowed - budget.left,
        fingerprint: (cs) => options.fingerprint(composeChangeSets(input.base, cs)),
      });
    } catch (error) {
      await keep(log);
      if (error instanceof ProviderUnavailableError) throw new ProviderUnavailable(error.message);
      // The server failed the call (timed out, HTTP 5xx, an error mid-stream): a server failure, not a rejected fix.
      const serverFailure = callTimedOut()
        ? `the model call timed out after ${Math.round(options.perCallTimeoutMs / 1000)} s`
        : error instanceof ModelCallError && isServerFailure(error)
          ? `the model server failed: ${error.message}`
          : undefined;
      if (serverFailure) {
        const modelCalls = Math.max(1, session?.modelCalls ?? 1);
        return { source: 'agent', problems: [], serverFailure, modelMs: Date.now() - started, modelCalls };
      }
      if (error instanceof ModelCallError) {
        return {
          source: 'agent',
          modelMs: Date.now() - started,
          modelCalls: Math.max(1, session?.modelCalls ?? 1),
          problems: [{ code: 'model-error', message: `the model call failed: ${error.message}` }],
        };
      }
      throw error;
    }
  }

  return Object.assign(agentProposal, {
    /** What was learned about native tool calls (for the run record), once a session asked. */
    toolCalling: (): ToolCallingSupport | undefined => support,
  });
}

function proposalFrom(
  session: AgentSessionResult,
  found: {
    verified?: CandidateResult;
    built: CandidateResult[];
    candidatesSeen: CandidateResult[];
    started: number;
    buildsStarted: number;
    fingerprint(changeSet: ChangeSet): string;
  },
): Proposal {
  const stats: AgentAttemptStats = {
    stop: session.stop,
    steps: session.steps.length,
    modelCalls: session.modelCalls,
    toolCalls: session.toolCalls,
    corrections: session.corrections,
    toolCalling: session.mode,
    ...(found.candidatesSeen.length > 0
      ? {
          candidates: found.candidatesSeen.map((c) => ({
            outcome: c.outcome,
            reason: c.detail,
            filesChanged: c.changeSet ? c.changeSet.files.map((file) => file.path) : [],
            ...(c.fingerprint ? { fingerprint: c.fingerprint } : {}),
          })),
        }
      : {}),
  };
  const base = {
    source: 'agent' as const,
    modelMs: Date.now() - found.started,
    modelCalls: Math.max(1, session.modelCalls),
    agent: stats,
  };
  const summary = (session.hypothesis ?? found.verified?.summary)?.slice(0, 600);
  // The fix that passed; else the best one built, whose build tells the loop whether it made progress.
  const chosen = found.verified ?? bestBuilt(found.built);
  if (chosen?.changeSet && chosen.verification) {
    return {
      ...base,
      problems: [],
      changeSet: chosen.changeSet,
      fingerprint: chosen.fingerprint ?? found.fingerprint(chosen.changeSet),
      proposalFingerprint: chosen.proposalFingerprint,
      verification: chosen.verification,
      // Every candidate build started (stopped ones too) took its share of the attempt budget.
      extraBuilds: Math.max(0, found.buildsStarted - 1),
      ...(summary ? { summary } : {}),
    };
  }
  const last = found.candidatesSeen.at(-1);
  return {
    ...base,
    // What was proposed last, so that the loop knows a repeat of it (main's duplicate rule).
    ...(last ? { proposalFingerprint: last.proposalFingerprint } : {}),
    problems:
      last && last.problems.length > 0
        ? last.problems
        : [
            {
              code: 'no-edits',
              message: `the agent stopped without a fix (${session.stop}) after ${session.steps.length} step(s)${last ? `: ${last.detail}` : ''}`,
            },
          ],
    ...(summary ? { summary } : {}),
  };
}

/**
 * The built candidate that got furthest: one that breaks no passing test before one that
 * does, then the fewest failures left, then the latest (it had the most feedback).
 */
function bestBuilt(built: CandidateResult[]): CandidateResult | undefined {
  const failures = (candidate: CandidateResult) =>
    candidate.verification?.diagnosis?.diagnostics.length ?? Number.MAX_SAFE_INTEGER;
  const regressed = (candidate: CandidateResult) => (candidate.verification?.outcome === 'regressed' ? 1 : 0);
  return built.reduce<CandidateResult | undefined>((best, candidate) => {
    if (!best) return candidate;
    const order = regressed(candidate) - regressed(best) || failures(candidate) - failures(best);
    return order <= 0 ? candidate : best;
  }, undefined);
}

function describeBuild(verification: Verification): ToolResult {
  if (verification.outcome === 'verified') return { ok: true, output: 'The build passes with the code as it is now.' };
  if (verification.outcome === 'not-applied')
    return {
      ok: false,
      output: `The change could not be written, so nothing was built: ${verification.message ?? ''}`,
    };
  const failures = verification.diagnosis?.diagnostics ?? [];
  const shown = failures.slice(0, 5).map(renderDiagnostic).join('\n\n');
  const regressions = [
    verification.regressions.length > 0
      ? `\nTests that passed before and fail now: ${verification.regressions.join(', ')}`
      : '',
    verification.testProblems?.length ? `\nThe tests do not show a fix: ${verification.testProblems.join('; ')}` : '',
  ].join('');
  return {
    ok: true,
    output: `The build still fails (${verification.outcome}).${regressions}\n\n${shown || 'No diagnostics were read from the log.'}`,
  };
}
