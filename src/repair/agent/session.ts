/**
 * One agent session: the model moves through understand -> collect -> fix, calling tools,
 * until it writes a fix or a guard stops it. The state decides which tools it may call.
 * Guards: a repeated call gets the earlier answer and a warning (three repeats end the
 * session), two unreadable replies in a row end it, and so does the step limit.
 */
import type { ChatMessage } from '../../model/types.js';
import { callKey, containsPatch, parseAgentReply } from './protocol.js';
import { MAX_TOOL_OUTPUT_CHARS, type AgentState, type AgentTool, type AgentToolContext, type ToolResult } from './types.js';

export type AgentStop = 'fix-written' | 'step-limit' | 'loop-guard' | 'unreadable' | 'gave-up';

export interface AgentStep {
  state: AgentState;
  tool: string;
  ok: boolean;
}

export interface AgentSessionResult {
  stop: AgentStop;
  /** The reply or write_fix argument that holds the fix, when one was written. */
  fixText?: string;
  hypothesis?: string;
  steps: AgentStep[];
  modelCalls: number;
  /** The whole conversation, for the run record. */
  transcript: ChatMessage[];
}

export interface AgentSessionInput {
  /** System and first user message: the failure, the rules, the reply format. */
  opening: ChatMessage[];
  tools: readonly AgentTool[];
  context: AgentToolContext;
  chat(messages: ChatMessage[]): Promise<string>;
  maxSteps: number;
  /** `fix` when a written fix did not fit and the session continues to correct it. */
  initialState?: AgentState;
}

const MAX_REPEATS = 3;
const MAX_UNREADABLE_IN_A_ROW = 2;

/** Tools that move between states; they are answered by the session itself. */
export const STATE_TOOLS = {
  express_hypothesis: { states: ['understand', 'collect'], description: 'say what you think causes the failure; moves to collecting what the fix needs', parameters: '{"hypothesis": string}' },
  discard_hypothesis: { states: ['collect', 'fix'], description: 'the hypothesis was wrong; back to understanding the failure', parameters: '{}' },
  write_fix: { states: ['collect', 'fix'], description: 'the fix, in the edit format asked for, as "patch" (or as a fenced block after the JSON)', parameters: '{"patch": string}' },
  give_up: { states: ['understand', 'collect', 'fix'], description: 'no fix can be found from here', parameters: '{"reason": string}' },
} as const satisfies Record<string, { states: readonly AgentState[]; description: string; parameters: string }>;

export function toolsAllowedIn(state: AgentState, tools: readonly AgentTool[]): string[] {
  const stateTools = Object.entries(STATE_TOOLS).filter(([, tool]) => (tool.states as readonly AgentState[]).includes(state)).map(([name]) => name);
  return [...tools.filter((tool) => tool.states.includes(state)).map((tool) => tool.name), ...stateTools];
}

export async function runAgentSession(input: AgentSessionInput): Promise<AgentSessionResult> {
  const messages: ChatMessage[] = [...input.opening];
  const steps: AgentStep[] = [];
  const answered = new Map<string, string>();
  let state: AgentState = input.initialState ?? 'understand';
  let hypothesis: string | undefined;
  let repeats = 0;
  let unreadableInARow = 0;
  let modelCalls = 0;
  const end = (stop: AgentStop, fixText?: string): AgentSessionResult => ({
    stop,
    steps,
    modelCalls,
    transcript: messages,
    ...(fixText !== undefined ? { fixText } : {}),
    ...(hypothesis ? { hypothesis } : {}),
  });
  const answer = (text: string) => messages.push({ role: 'user', content: `${text}\n\n${stateLine(state, input.tools)}` });

  while (steps.length < input.maxSteps) {
    modelCalls++;
    const reply = await input.chat(messages);
    messages.push({ role: 'assistant', content: reply });
    const parsed = parseAgentReply(reply);

    if (parsed.kind === 'unreadable') {
      unreadableInARow++;
      if (unreadableInARow >= MAX_UNREADABLE_IN_A_ROW) return end('unreadable');
      answer(`I could not read a tool call in your reply (${parsed.why}). Answer with one JSON object, for example {"tool": "read_range", "args": {"file": "src/main/java/App.java", "start": 1}}.`);
      continue;
    }
    unreadableInARow = 0;

    if (parsed.kind === 'patch') {
      steps.push({ state, tool: 'write_fix', ok: true });
      return end('fix-written', parsed.text);
    }

    const { tool, args } = parsed;
    const allowed = toolsAllowedIn(state, input.tools);
    if (!allowed.includes(tool)) {
      steps.push({ state, tool, ok: false });
      const known = tool in STATE_TOOLS || input.tools.some((t) => t.name === tool);
      answer(`${known ? `${tool} cannot be used while ${describeState(state)}` : `there is no tool named ${tool}`}. You can use: ${allowed.join(', ')}.`);
      continue;
    }

    if (tool === 'write_fix') {
      // The patch may follow the JSON as a fenced block: the whole reply goes to extraction, which skips the JSON.
      const given = typeof args.patch === 'object' && args.patch !== null ? JSON.stringify(args.patch) : args.patch;
      const patch = typeof given === 'string' && given.trim() !== '' ? given : containsPatch(reply) ? reply : undefined;
      steps.push({ state, tool, ok: patch !== undefined });
      if (patch === undefined) {
        answer('write_fix needs the fix as "patch", or as a fenced block after the JSON.');
        continue;
      }
      return end('fix-written', patch);
    }
    if (tool === 'give_up') {
      steps.push({ state, tool, ok: true });
      return end('gave-up');
    }
    if (tool === 'express_hypothesis' || tool === 'discard_hypothesis') {
      const text = typeof args.hypothesis === 'string' ? args.hypothesis.trim() : '';
      if (tool === 'express_hypothesis' && text === '') {
        steps.push({ state, tool, ok: false });
        answer('express_hypothesis needs "hypothesis": one sentence on what causes the failure.');
        continue;
      }
      steps.push({ state, tool, ok: true });
      hypothesis = tool === 'express_hypothesis' ? text : undefined;
      state = tool === 'express_hypothesis' ? 'collect' : 'understand';
      answer(tool === 'express_hypothesis' ? `Noted. Now collect what the fix needs, then write it.` : 'Hypothesis dropped. Look at the failure again.');
      continue;
    }

    const key = callKey(tool, args);
    const earlier = answered.get(key);
    if (earlier !== undefined) {
      repeats++;
      steps.push({ state, tool, ok: false });
      if (repeats >= MAX_REPEATS) return end('loop-guard');
      answer(`You already called ${tool} with these arguments; the answer is the same:\n${earlier}\nUse it, or do something else.`);
      continue;
    }
    const result = await runTool(input.tools.find((t) => t.name === tool)!, args, input.context);
    steps.push({ state, tool, ok: result.ok });
    // Only answers to reading tools repeat; the build may change between two run_tests.
    if (tool !== 'run_tests') answered.set(key, result.output);
    answer(result.output);
  }
  return end('step-limit');
}

async function runTool(tool: AgentTool, args: Record<string, unknown>, context: AgentToolContext): Promise<ToolResult> {
  try {
    const result = await tool.run(args, context);
    return result.output.length > MAX_TOOL_OUTPUT_CHARS ? { ok: result.ok, output: `${result.output.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n... (cut)` } : result;
  } catch (error) {
    return { ok: false, output: `${tool.name} failed: ${(error as Error).message.split('\n')[0]}` };
  }
}

function describeState(state: AgentState): string {
  return { understand: 'understanding the failure', collect: 'collecting what the fix needs', fix: 'fixing' }[state];
}

export function stateLine(state: AgentState, tools: readonly AgentTool[]): string {
  return `(state: ${state}; tools you can use now: ${toolsAllowedIn(state, tools).join(', ')})`;
}
