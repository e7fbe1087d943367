import type { Diagnosis } from '../../diagnose/types.js';
import {
  composeRepairPrompt,
  type AttemptSummary,
  type ContextPiece,
  type RepairPrompt,
} from '../../model/prompts/index.js';
import { ModelCallError, ProviderUnavailableError, type ModelProvider } from '../../model/index.js';
import { jsonEditListJsonSchema, validateChangeSet, type PatchPolicy } from '../../patch/index.js';
import type { ChangeSet } from '../../patch/types.js';
import type { AttemptRecord } from '../../shared/run-vocabulary.js';
import { flushJavaParses } from '../../java/index.js';
import { gatherContext } from '../context/gather.js';
import { answerCompleteFor } from './answer-complete.js';
import type { TypeIndex } from '../../plugins/contracts.js';
import { ProviderUnavailable, type Proposal } from '../loop/ports.js';
import { checkProposedChange, type ChangeChecker } from '../loop/change-check.js';
import { testSideOfPrompt } from '../verification/integrity-check.js';

export type EditFormat = 'diff' | 'search-replace' | 'json';

export interface ModelProposerOptions {
  provider: ModelProvider;
  editFormat: EditFormat;
  guidelines?: string;
  /** The window the prompt is packed for (`model.contextTokens`, capped by `model.numCtx`). */
  contextTokens: number;
  checker: ChangeChecker;
  /** Read a file as the current attempt sees it (original tree plus adopted progress). */
  read(base: ChangeSet): (file: string) => Promise<string | undefined>;
  /** Project-relative paths matching a glob (the original tree's file list). */
  list: (glob: string) => Promise<string[]>;
  /** JDK and jar lookups for the declarations a compile error needs. */
  types?: TypeIndex;
  /** Pieces shown before everything else (a dependency update's API difference). */
  extraContext?: () => ContextPiece[];
  /** Where the prompt and the reply of each attempt are kept. */
  keepExchange(n: number, prompt: string, response: string): Promise<void>;
  onToken?: (text: string) => void;
  signal: AbortSignal;
  perCallTimeoutMs: number;
}

/**
 * One model attempt: prompt from the diagnosis and the sources, one chat call (the
 * provider checks the server's health before its first chat), then
 * the same extraction and validation as any other patch. What the model says it did
 * is kept as a summary; what it did is read from the change set.
 */
export function createModelProposer(options: ModelProposerOptions) {
  return async function modelProposal(input: {
    diagnosis: Diagnosis;
    base: ChangeSet;
    history: AttemptRecord[];
    n: number;
    /** Cancels this request alone (attempt 1's, when the flaky re-check beside it passes). */
    signal?: AbortSignal;
  }): Promise<Proposal> {
    const promptStarted = Date.now();
    // Attempt 1 asks the server beside building its prompt: a server that is down is known
    // in milliseconds, not after the first parse of the project (contract: "within a few seconds").
    const health =
      input.n === 1
        ? settled(
            options.provider.healthCheck(AbortSignal.any([options.signal, ...(input.signal ? [input.signal] : [])])),
          )
        : undefined;
    const prompt = await unlessUnavailable(buildPromptFor(input.diagnosis, input.base, input.history, options), health);
    const promptMs = Date.now() - promptStarted;
    const started = Date.now();
    const { messages } = prompt;
    // The prompt file holds what went out (after redaction), not what was built.
    let sent = messages;
    const promptText = () => renderMessages(sent);

    // Read up to the end of a whole answer, not the chatter after it.
    const isComplete = answerCompleteFor(options.editFormat);
    const perCall = AbortSignal.timeout(options.perCallTimeoutMs);
    const signal = AbortSignal.any([options.signal, ...(input.signal ? [input.signal] : []), perCall]);
    let text: string;
    let shown: string;
    try {
      const reply = await options.provider.chat({
        messages,
        onSend: (outgoing) => {
          sent = outgoing;
        },
        signal,
        ...(options.editFormat === 'json' ? { format: jsonEditListJsonSchema } : {}),
        ...(options.onToken ? { onToken: options.onToken } : {}),
        ...(isComplete ? { isComplete } : {}),
      });
      text = reply.text;
      shown = reply.shown ?? reply.text;
    } catch (error) {
      await options.keepExchange(input.n, promptText(), `(no reply: ${(error as Error).message})`);
      if (error instanceof ProviderUnavailableError) throw new ProviderUnavailable(oneLine(error));
      // Our own deadline fired (the provider saw a caller's abort): say it timed out, and after how long.
      const timedOut = perCall.aborted && !options.signal.aborted && !input.signal?.aborted;
      const serverFailure = timedOut
        ? `the model call timed out after ${Math.round(options.perCallTimeoutMs / 1000)} s`
        : error instanceof ModelCallError && isServerFailure(error)
          ? `the model server failed: ${error.message}`
          : undefined;
      if (serverFailure) {
        return { source: 'model', problems: [], serverFailure, modelMs: Date.now() - started, promptMs };
      }
      if (error instanceof ModelCallError) {
        return {
          source: 'model',
          problems: [{ code: 'model-error', message: `the model call failed: ${error.message}` }],
          modelMs: Date.now() - started,
          promptMs,
        };
      }
      throw error;
    }
    await options.keepExchange(input.n, promptText(), shown);
    const modelMs = Date.now() - started;

    const checked = await checkProposedChange(text, input.base, options.checker);
    const summary = summaryOf(text, checked.summary);
    return {
      source: 'model',
      problems: checked.problems,
      modelMs,
      promptMs,
      proposalFingerprint: checked.proposalFingerprint,
      ...(checked.changeSet ? { changeSet: checked.changeSet } : {}),
      ...(summary ? { summary } : {}),
    };
  };
}

/** The server's fault, not the request's: no answer in time, HTTP 5xx, an error reported mid-stream. */
export function isServerFailure(error: ModelCallError): boolean {
  return (
    error.code === 'timeout' ||
    error.code === 'stream-error' ||
    (error.code === 'http-error' && (error.status ?? 500) >= 500)
  );
}

/** A promise that never rejects: its error, or undefined. */
function settled(work: Promise<void>): Promise<unknown> {
  return work.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/**
 * The server said it cannot serve (refused, not pulled, an HTTP error): not a timeout, which a busy event loop here can
 * cause.
 */
function clearlyDown(error: unknown): error is ProviderUnavailableError {
  return error instanceof ProviderUnavailableError && !error.timedOut;
}

/**
 * The prompt, unless the health check beside it finds the server clearly down first. Any
 * other health failure (a timeout while the parser held the event loop) is left to chat(),
 * which checks again and reports it as before.
 */
async function unlessUnavailable<T>(work: Promise<T>, health: Promise<unknown> | undefined): Promise<T> {
  if (!health) return work;
  const down = health.then((error) => (clearlyDown(error) ? error : new Promise<never>(() => undefined)));
  const first = await Promise.race([work.then((value) => ({ value })), down.then((error) => ({ error }))]);
  if ('error' in first) {
    work.catch(() => undefined);
    throw new ProviderUnavailable(oneLine(first.error));
  }
  const error = await health;
  if (clearlyDown(error)) throw new ProviderUnavailable(oneLine(error));
  return first.value;
}

const SUMMARY_LIMIT = 600;

/** Every message under its role; a native tool call as `[tool call] name {arguments}`, as the agent's log writes it. */
export function renderMessages(
  messages: readonly {
    role: string;
    content: string;
    toolCalls?: readonly { name: string; arguments: Record<string, unknown> }[];
  }[],
): string {
  return messages
    .map((m) => {
      const calls = (m.toolCalls ?? []).map((call) => `[tool call] ${call.name} ${JSON.stringify(call.arguments)}`);
      return `### ${m.role}\n${[m.content, ...calls].filter((part) => part !== '').join('\n')}`;
    })
    .join('\n\n');
}

/** The model's prose, outside its code blocks: kept for a human, never trusted. */
export function summaryOf(reply: string, structured?: string): string | undefined {
  if (structured?.trim()) return structured.trim().slice(0, SUMMARY_LIMIT);
  const prose = reply
    .replace(/(```|~~~)[^\n]*\n[\s\S]*?(\1|$)/g, ' ')
    .replace(/^(<<<<<<<|=======|>>>>>>>).*$/gm, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return prose ? prose.slice(0, SUMMARY_LIMIT) : undefined;
}

function oneLine(error: ProviderUnavailableError): string {
  return error.hint && !error.message.includes(error.hint) ? `${error.message} (${error.hint})` : error.message;
}

function summariseAttempt(attempt: AttemptRecord): AttemptSummary {
  return {
    n: attempt.n,
    outcome: attempt.outcome,
    ...(attempt.reason ? { reason: attempt.reason } : {}),
  };
}

/**
 * The prompt of one attempt: context gathered from the tree as the attempt sees it
 * (`base`: the original tree plus adopted progress), the same tree the reply's patch is
 * checked and applied against; files the policy protects are shown as read-only.
 */
export async function buildPromptFor(
  diagnosis: Diagnosis,
  base: ChangeSet,
  history: AttemptRecord[],
  options: Pick<
    ModelProposerOptions,
    'read' | 'list' | 'types' | 'checker' | 'guidelines' | 'editFormat' | 'contextTokens' | 'extraContext'
  >,
): Promise<RepairPrompt> {
  const fixable = diagnosis.diagnostics.filter((d) => d.fixable);
  const context = [
    ...(options.extraContext?.() ?? []),
    ...(await gatherContext({
      diagnostics: fixable,
      access: { read: options.read(base), list: (glob) => options.list(glob) },
      ...(options.types ? { types: options.types } : {}),
    })),
  ];
  // What this prompt parsed and asked, kept for the next attempt's process and the next run (when the run set a store).
  await flushJavaParses();
  return composeRepairPrompt({
    diagnostics: fixable,
    context,
    editable: editableUnder(options.checker.policy),
    ...(await testSideOfPrompt(diagnosis, options.checker.root)),
    ...(options.guidelines ? { guidelines: options.guidelines } : {}),
    editFormat: options.editFormat,
    history: history.map(summariseAttempt),
    contextTokens: options.contextTokens,
  });
}

/** Whether the policy lets a patch edit `path`: the same rules a patch is validated by. */
export function editableUnder(policy: PatchPolicy): (path: string) => boolean {
  return (path) => validateChangeSet({ files: [{ path, before: 'a', after: 'b' }] }, policy).length === 0;
}

/** What `attempt-N.prompt.txt` holds: every message, in order, under its role. */
export function renderPromptText(prompt: RepairPrompt): string {
  return renderMessages(prompt.messages);
}
