/**
 * A cost model of a local model server, the way llama.cpp's prompt cache (under Ollama)
 * charges time: each request is rendered as the model reads it (the ChatML template of
 * qwen2.5-coder, tools in the system turn), and only the tokens after the longest common
 * prefix with what the same model holds from its previous request (that prompt and the
 * answer it wrote) are evaluated, at a prompt rate; the answer is generated at an output
 * rate; a model that is not loaded first costs a load time. Tokens are the estimate mvnx
 * packs prompts with (estimateTokens), so figures compare with its own prompt sizes.
 *
 * Pure bookkeeping: the Ollama-API server (ollama-api-server.ts) asks it what a call costs,
 * reports the figures in Ollama's own response fields and waits `scale` times the charge.
 */
import { estimateTokens } from '../model/context-window.js';
import { commonPrefixLength } from '../model/closed-request-estimate.js';
import { MvnxError } from '../shared/errors.js';

export { commonPrefixLength };

export interface ModelCostRates {
  /** Prompt tokens evaluated per second. */
  prompt: number;
  /** Output tokens generated per second. */
  output: number;
  /** Seconds a model that is not loaded takes to load. */
  load: number;
  /**
   * Real seconds the server waits per charged second (0: it answers at once and only reports
   * the charge; 1: it takes as long as the modelled hardware).
   */
  scale: number;
}

const RATE_KEYS = ['prompt', 'output', 'load', 'scale'] as const;

/** `prompt=60,output=8,load=6[,scale=0]`: each key once, prompt and output above zero. */
export function parseModelCost(text: string): ModelCostRates {
  const rates: Partial<Record<(typeof RATE_KEYS)[number], number>> = {};
  const bad = (why: string) =>
    new MvnxError(`--model-cost ${text}: ${why}; expected prompt=TOKENS/S,output=TOKENS/S,load=SECONDS[,scale=N]`);
  for (const part of text.split(',')) {
    const match = /^\s*([a-z]+)\s*=\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!match) throw bad(`"${part}" is not key=number`);
    const key = match[1] as (typeof RATE_KEYS)[number];
    if (!RATE_KEYS.includes(key)) throw bad(`unknown key "${match[1]}"`);
    if (rates[key] !== undefined) throw bad(`"${key}" given twice`);
    rates[key] = Number(match[2]);
  }
  for (const key of ['prompt', 'output', 'load'] as const) if (rates[key] === undefined) throw bad(`"${key}" missing`);
  if (rates.prompt! <= 0 || rates.output! <= 0) throw bad('prompt and output rates must be above zero');
  return { prompt: rates.prompt!, output: rates.output!, load: rates.load!, scale: rates.scale ?? 0 };
}

interface TemplateMessage {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
}

/**
 * The text the model reads for an /api/chat or /api/generate body: ChatML as the
 * qwen2.5-coder template writes it, the tool definitions at the end of the system turn,
 * tool calls as `<tool_call>` lines, tool results as a user turn, and the opening of the
 * assistant's turn that the answer continues.
 */
export function renderPromptAsModelReadsIt(body: unknown): string {
  const request = (body ?? {}) as { messages?: unknown; prompt?: unknown; system?: unknown; tools?: unknown };
  const turn = (role: string, content: string) => `<|im_start|>${role}\n${content}<|im_end|>\n`;
  if (!Array.isArray(request.messages)) {
    const system = typeof request.system === 'string' ? turn('system', request.system) : '';
    const prompt = typeof request.prompt === 'string' ? request.prompt : '';
    return prompt === '' && system === '' ? '' : `${system}${turn('user', prompt)}<|im_start|>assistant\n`;
  }
  const messages = request.messages as TemplateMessage[];
  const tools = Array.isArray(request.tools) && request.tools.length > 0 ? request.tools : undefined;
  const toolText = tools
    ? `\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n<tools>\n${tools.map((tool) => JSON.stringify(tool)).join('\n')}\n</tools>`
    : '';
  let text = '';
  let systemSeen = false;
  messages.forEach((message, index) => {
    const role = typeof message.role === 'string' ? message.role : 'user';
    const content = typeof message.content === 'string' ? message.content : '';
    if (role === 'system' && index === 0) {
      systemSeen = true;
      text += turn('system', `${content}${toolText}`);
    } else if (role === 'tool') text += turn('user', `<tool_response>\n${content}\n</tool_response>`);
    else if (role === 'assistant') text += turn('assistant', `${content}${renderToolCalls(message.tool_calls)}`);
    else text += turn(role, content);
  });
  if (!systemSeen && toolText) text = turn('system', toolText.trimStart()) + text;
  return messages.length === 0 ? '' : `${text}<|im_start|>assistant\n`;
}

function renderToolCalls(calls: unknown): string {
  if (!Array.isArray(calls)) return '';
  return calls
    .map((call: { function?: { name?: unknown; arguments?: unknown } }) =>
      JSON.stringify({ name: call.function?.name, arguments: call.function?.arguments }),
    )
    .map((json) => `\n<tool_call>\n${json}\n</tool_call>`)
    .join('');
}

/** What one call cost, in Ollama's terms (seconds here; the server reports nanoseconds). */
export interface CallCharge {
  model: string;
  /** Tokens of the whole prompt as the model reads it. */
  promptTokens: number;
  /** Tokens after the prefix the model still held: what `prompt_eval_count` reports. */
  evaluatedTokens: number;
  outputTokens: number;
  loadSeconds: number;
  promptSeconds: number;
  outputSeconds: number;
  /** The client closed the stream before the answer's end: only what was written is charged. */
  stoppedEarly?: boolean;
}

export function totalSeconds(charge: Pick<CallCharge, 'loadSeconds' | 'promptSeconds' | 'outputSeconds'>): number {
  return charge.loadSeconds + charge.promptSeconds + charge.outputSeconds;
}

/**
 * One model server's memory: which models are loaded, with which context window, and per
 * model the text its cache holds (the last prompt and the answer written after it). A
 * request with another `num_ctx` than the loaded model's makes Ollama load it again (its
 * scheduler compares the options), and the cache starts empty. `charge` records every call.
 */
export class PromptCacheCost {
  private readonly held = new Map<string, { text: string; window: number | undefined; prompt?: string }>();
  readonly charges: CallCharge[] = [];

  constructor(readonly rates: ModelCostRates) {}

  /** A request with nothing to read (`keep_alive` only): loads the model, evaluates nothing. */
  load(model: string, window?: number): CallCharge {
    return this.charge(model, '', '', window);
  }

  /** Charges one call: `prompt` as the model reads it, `output` the text it writes, `window` its num_ctx. */
  charge(model: string, prompt: string, output: string, window?: number): CallCharge {
    const loaded = this.held.get(model);
    const reload = loaded === undefined || (window !== undefined && window !== loaded.window);
    const cached = reload ? '' : loaded.text;
    const shared = commonPrefixLength(cached, prompt);
    const promptTokens = estimateTokens(prompt);
    // llama.cpp evaluates at least the last token, even of a prompt it holds whole.
    const evaluatedTokens =
      prompt === '' ? 0 : Math.min(promptTokens, Math.max(1, estimateTokens(prompt.slice(shared))));
    const outputTokens = output === '' ? 0 : estimateTokens(output);
    const charge: CallCharge = {
      model,
      promptTokens,
      evaluatedTokens,
      outputTokens,
      loadSeconds: reload ? this.rates.load : 0,
      promptSeconds: evaluatedTokens / this.rates.prompt,
      outputSeconds: outputTokens / this.rates.output,
    };
    // A load alone keeps what the cache held; a call leaves its prompt and answer in it.
    this.held.set(model, {
      text: prompt === '' ? cached : `${prompt}${output}`,
      window: window ?? loaded?.window,
      ...(prompt === '' ? {} : { prompt }),
    });
    this.charges.push(charge);
    return charge;
  }

  /**
   * The client closed the stream after `written` of the answer (it had what it needed): only that was generated, and
   * only that follows the prompt in the cache.
   */
  cutShort(charge: CallCharge, written: string): void {
    charge.outputTokens = written === '' ? 0 : estimateTokens(written);
    charge.outputSeconds = charge.outputTokens / this.rates.output;
    charge.stoppedEarly = true;
    const held = this.held.get(charge.model);
    if (held && held.prompt !== undefined) this.held.set(charge.model, { ...held, text: `${held.prompt}${written}` });
  }
}

/** The share of `previous` that `next` keeps as its prefix (what a prompt cache could reuse), 0..1. */
export function sharedPrefixShare(previous: string, next: string): number {
  return previous.length === 0 ? 1 : commonPrefixLength(previous, next) / previous.length;
}

/** One run's model cost: the server's charges added up, and the seconds the run spent on everything else. */
export interface ModelCostSample {
  calls: number;
  loads: number;
  promptTokens: number;
  evaluatedTokens: number;
  outputTokens: number;
  /** Seconds the calls that asked something took (their loads included). */
  modelSeconds: number;
  /** Seconds of loads asked ahead (requests with nothing to read), which run beside Maven rather than on the path. */
  aheadSeconds: number;
  /** The run's wall time less the server's real waits: Maven, the sandbox and mvnx itself. */
  otherSeconds: number;
  /** Per call: tokens sent, evaluated, written (loads left out), and whether mvnx stopped the answer at its end. */
  perCall: { sent: number; evaluated: number; output: number; stoppedEarly?: true }[];
}

export function summariseCharges(charges: readonly CallCharge[], rates: ModelCostRates, runSeconds: number) {
  const calls = charges.filter((charge) => charge.promptTokens > 0);
  const ahead = charges.filter((charge) => charge.promptTokens === 0);
  const modelSeconds = calls.reduce((sum, charge) => sum + totalSeconds(charge), 0);
  const aheadSeconds = ahead.reduce((sum, charge) => sum + totalSeconds(charge), 0);
  const sum = (pick: (charge: CallCharge) => number) => calls.reduce((total, charge) => total + pick(charge), 0);
  return {
    calls: calls.length,
    loads: charges.filter((charge) => charge.loadSeconds > 0).length,
    promptTokens: sum((charge) => charge.promptTokens),
    evaluatedTokens: sum((charge) => charge.evaluatedTokens),
    outputTokens: sum((charge) => charge.outputTokens),
    modelSeconds,
    aheadSeconds,
    otherSeconds: Math.max(0, runSeconds - (modelSeconds + aheadSeconds) * rates.scale),
    perCall: calls.map((charge) => ({
      sent: charge.promptTokens,
      evaluated: charge.evaluatedTokens,
      output: charge.outputTokens,
      ...(charge.stoppedEarly ? { stoppedEarly: true as const } : {}),
    })),
  } satisfies ModelCostSample;
}
