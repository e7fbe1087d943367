/**
 * The agent as a proposer for the repair loop: one session (several model calls) ends
 * in at most one patch, which gets the same extraction and checks as a single-shot
 * reply. A patch that does not fit the code sends the session to its fix state, once.
 */
import type { Diagnosis } from '../../diagnose/types.js';
import { ModelCallError, ProviderUnavailableError, type ModelProvider } from '../../model/index.js';
import { buildAgentPrompt, renderDiagnostic, type EditFormat } from '../../model/prompts/index.js';
import type { ChatMessage } from '../../model/types.js';
import { isPlacementProblem } from '../../patch/problems.js';
import type { ChangeSet } from '../../patch/types.js';
import type { AttemptRecord } from '../../shared/run-vocabulary.js';
import { checkProposedChange, type ChangeChecker } from '../change-check.js';
import { renderMessages } from '../model-proposer.js';
import { describeProblems, ProviderUnavailable, type Proposal, type Verification } from '../loop.js';
import { runAgentSession, STATE_TOOLS, type AgentSessionResult } from './session.js';
import { BUILT_IN_AGENT_TOOLS } from './built-in-tools.js';
import type { AgentTool, ToolResult } from './types.js';

export interface AgentProposerOptions {
  provider: ModelProvider;
  editFormat: EditFormat;
  guidelines?: string;
  checker: ChangeChecker;
  read(base: ChangeSet): (file: string) => Promise<string | undefined>;
  list: (glob: string) => Promise<string[]>;
  /** Builds `base` (relative to the original tree) in the workspace. */
  verify(base: ChangeSet, diagnosis: Diagnosis): Promise<Verification>;
  keepExchange(n: number, prompt: string, response: string): Promise<void>;
  maxSteps: number;
  signal: AbortSignal;
  perCallTimeoutMs: number;
  onStep?(text: string): void;
  /** Plugins' tools, offered next to the built-in ones. */
  extraTools?: readonly AgentTool[];
}

export function createAgentProposer(options: AgentProposerOptions) {
  const tools: readonly AgentTool[] = [...BUILT_IN_AGENT_TOOLS, ...(options.extraTools ?? [])];

  return async function agentProposal(input: { diagnosis: Diagnosis; base: ChangeSet; history: AttemptRecord[]; n: number; modelCallsLeft: number }): Promise<Proposal> {
    const started = Date.now();
    const fixable = input.diagnosis.diagnostics.filter((d) => d.fixable);
    const maxSteps = Math.max(1, Math.min(options.maxSteps, input.modelCallsLeft));
    const opening = buildAgentPrompt({
      diagnostics: fixable,
      tools: [
        ...tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: describeParameters(tool), states: tool.states })),
        ...Object.entries(STATE_TOOLS).map(([name, tool]) => ({ name, description: tool.description, parameters: tool.parameters, states: tool.states })),
      ],
      editFormat: options.editFormat,
      history: input.history.map((a) => ({ n: a.n, outcome: a.outcome, ...(a.reason ? { reason: a.reason } : {}) })),
      ...(options.guidelines ? { guidelines: options.guidelines } : {}),
      maxSteps,
    });
    const context = {
      view: { root: options.checker.root, read: options.read(input.base), list: options.list },
      runTests: async (): Promise<ToolResult> => describeBuild(await options.verify(input.base, input.diagnosis)),
    };
    // The last request as it went out (after redaction) and the reply as the model wrote it: what the prompt file keeps.
    const exchange: { sent?: ChatMessage[]; shown?: string } = {};
    const chat = async (messages: ChatMessage[]): Promise<string> => {
      const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.perCallTimeoutMs)]);
      const reply = await options.provider.chat({
        messages,
        signal,
        onSend: (outgoing) => {
          exchange.sent = outgoing;
          delete exchange.shown;
        },
      });
      exchange.shown = reply.shown ?? reply.text;
      options.onStep?.(firstLine(reply.text));
      return reply.text;
    };

    let session: AgentSessionResult | undefined;
    let modelCalls = 0;
    try {
      session = await runAgentSession({ opening, tools, context, chat, maxSteps });
      modelCalls += session.modelCalls;
      let checked = session.fixText === undefined ? undefined : await checkProposedChange(session.fixText, input.base, options.checker);
      const stepsLeft = maxSteps - session.modelCalls;
      if (checked && checked.problems.length > 0 && checked.problems.every(isPlacementProblem) && stepsLeft > 0) {
        const correction: ChatMessage = { role: 'user', content: `That fix does not fit the code: ${describeProblems(checked.problems)}. Read the lines again and write the fix anew.\n(state: fix)` };
        session = await runAgentSession({ opening: [...session.transcript, correction], tools, context, chat, maxSteps: stepsLeft, initialState: 'fix' });
        modelCalls += session.modelCalls;
        checked = session.fixText === undefined ? undefined : await checkProposedChange(session.fixText, input.base, options.checker);
      }
      await keep(options, input.n, session.transcript, exchange);
      const summary = session.hypothesis ?? checked?.summary;
      return {
        source: 'agent',
        modelMs: Date.now() - started,
        modelCalls,
        problems: checked ? checked.problems : [{ code: 'no-edits', message: `the agent stopped without a fix (${session.stop}) after ${session.steps.length} step(s)` }],
        ...(checked ? { proposalFingerprint: checked.proposalFingerprint } : {}),
        ...(checked?.changeSet ? { changeSet: checked.changeSet } : {}),
        ...(summary ? { summary: summary.slice(0, 600) } : {}),
      };
    } catch (error) {
      if (session) await keep(options, input.n, session.transcript, exchange);
      if (error instanceof ProviderUnavailableError) throw new ProviderUnavailable(error.message);
      if (error instanceof ModelCallError) {
        return { source: 'agent', modelMs: Date.now() - started, modelCalls: modelCalls + 1, problems: [{ code: 'model-error', message: `the model call failed: ${error.message}` }] };
      }
      throw error;
    }
  };
}

function describeParameters(tool: AgentTool): string {
  const entries = Object.entries(tool.parameters).map(([name, p]) => `"${name}"${p.optional ? '?' : ''}: ${p.type}`);
  return `{${entries.join(', ')}}`;
}

function describeBuild(verification: Verification): ToolResult {
  if (verification.outcome === 'verified') return { ok: true, output: 'The build passes with the code as it is now.' };
  if (verification.outcome === 'not-applied') return { ok: false, output: `The change could not be written, so nothing was built: ${verification.message ?? ''}` };
  const failures = verification.diagnosis?.diagnostics ?? [];
  const shown = failures.slice(0, 5).map(renderDiagnostic).join('\n\n');
  const regressions = [
    verification.regressions.length > 0 ? `\nTests that passed before and fail now: ${verification.regressions.join(', ')}` : '',
    verification.testProblems?.length ? `\nThe tests do not show a fix: ${verification.testProblems.join('; ')}` : '',
  ].join('');
  return { ok: true, output: `The build still fails (${verification.outcome}).${regressions}\n\n${shown || 'No diagnostics were read from the log.'}` };
}

/**
 * The prompt file holds the session's last request exactly as sent (it carries the whole
 * conversation before it), the response file the model's last reply as written.
 */
async function keep(options: AgentProposerOptions, n: number, transcript: ChatMessage[], exchange: { sent?: ChatMessage[]; shown?: string }): Promise<void> {
  if (exchange.sent) {
    await options.keepExchange(n, renderMessages(exchange.sent), exchange.shown ?? '(no reply)');
    return;
  }
  const last = transcript.at(-1)?.role === 'assistant' ? transcript.at(-1)!.content : '';
  await options.keepExchange(n, renderMessages(transcript), last);
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]!.slice(0, 120);
}
