import path from 'node:path';
import type { Diagnosis, Diagnostic } from '../diagnose/types.js';
import { buildRepairPrompt, selectSourceExcerpts, type SourceExcerpt, type AttemptSummary } from '../model/prompts/index.js';
import { ModelCallError, ProviderUnavailableError, type ModelProvider } from '../model/index.js';
import { jsonEditListJsonSchema } from '../patch/index.js';
import type { ChangeSet } from '../patch/types.js';
import type { AttemptRecord } from '../shared/run-vocabulary.js';
import { ProviderUnavailable, type Proposal } from './loop.js';
import { checkProposedChange, type ChangeChecker } from './change-check.js';

export type EditFormat = 'diff' | 'search-replace' | 'json';

export interface ModelProposerOptions {
  provider: ModelProvider;
  editFormat: EditFormat;
  guidelines?: string;
  /** Characters of source the prompt may carry (the provider sizes num_ctx to the prompt). */
  sourceBudgetChars: number;
  checker: ChangeChecker;
  /** Read a file as the current attempt sees it (original tree plus adopted progress). */
  read(base: ChangeSet): (file: string) => Promise<string | undefined>;
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
  }): Promise<Proposal> {
    const started = Date.now();
    const read = options.read(input.base);
    const fixable = input.diagnosis.diagnostics.filter((d) => d.fixable);
    const sources = await gatherSources(fixable, read, options.sourceBudgetChars);
    const failingTests = await gatherFailingTests(fixable, read, Math.floor(options.sourceBudgetChars / 3));
    const messages = buildRepairPrompt({
      diagnostics: fixable,
      sources,
      failingTests,
      ...(options.guidelines ? { guidelines: options.guidelines } : {}),
      editFormat: options.editFormat,
      history: input.history.map(summariseAttempt),
      tokenBudget: Math.ceil(options.sourceBudgetChars / 3),
    });
    // The prompt file holds what went out (after redaction), not what was built.
    let sent = messages;
    const promptText = () => renderMessages(sent);

    const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.perCallTimeoutMs)]);
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
      });
      text = reply.text;
      shown = reply.shown ?? reply.text;
    } catch (error) {
      await options.keepExchange(input.n, promptText(), `(no reply: ${(error as Error).message})`);
      if (error instanceof ProviderUnavailableError) throw new ProviderUnavailable(oneLine(error));
      if (error instanceof ModelCallError) {
        return {
          source: 'model',
          problems: [{ code: 'model-error', message: `the model call failed: ${error.message}` }],
          modelMs: Date.now() - started,
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
      proposalFingerprint: checked.proposalFingerprint,
      ...(checked.changeSet ? { changeSet: checked.changeSet } : {}),
      ...(summary ? { summary } : {}),
    };
  };
}

const SUMMARY_LIMIT = 600;

export function renderMessages(messages: readonly { role: string; content: string }[]): string {
  return messages.map((m) => `### ${m.role}\n${m.content}`).join('\n\n');
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

async function gatherSources(
  diagnostics: Diagnostic[],
  read: (file: string) => Promise<string | undefined>,
  budgetChars: number,
): Promise<SourceExcerpt[]> {
  const focus = new Map<string, number[]>();
  for (const d of diagnostics) {
    if (!d.file) continue;
    const lines = focus.get(d.file) ?? [];
    if (d.line) lines.push(d.line);
    focus.set(d.file, lines);
  }
  const perFile = Math.max(2_000, Math.floor(budgetChars / Math.max(1, focus.size)));
  const excerpts: SourceExcerpt[] = [];
  for (const [file, lines] of focus) {
    const text = await read(file);
    if (text === undefined) continue;
    excerpts.push(...selectSourceExcerpts(text, file, lines.length > 0 ? lines : [1], perFile));
  }
  return excerpts;
}

/** The failing test's own code: where the expectation that failed is written. */
async function gatherFailingTests(
  diagnostics: Diagnostic[],
  read: (file: string) => Promise<string | undefined>,
  budgetChars: number,
): Promise<SourceExcerpt[]> {
  const excerpts: SourceExcerpt[] = [];
  const seen = new Set<string>();
  for (const d of diagnostics) {
    const failure = d.testFailure;
    if (!failure) continue;
    const outer = failure.className.split('$')[0]!;
    const moduleDir = moduleDirOf(d.file);
    const file = path.posix.join(moduleDir, 'src/test/java', `${outer.replaceAll('.', '/')}.java`);
    if (seen.has(file) || file === d.file) continue;
    seen.add(file);
    const text = await read(file);
    if (text === undefined) continue;
    const methodLine = text.split('\n').findIndex((line) => new RegExp(`\\b${failure.method}\\s*\\(`).test(line));
    excerpts.push(...selectSourceExcerpts(text, file, [methodLine >= 0 ? methodLine + 1 : 1], budgetChars));
  }
  return excerpts;
}

function moduleDirOf(file: string | undefined): string {
  if (!file) return '';
  const at = file.indexOf('src/');
  return at > 0 ? file.slice(0, at - 1) : '';
}

