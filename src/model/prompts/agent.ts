/**
 * The agent's prompt: one conversation that only grows. Its first two messages are fixed
 * for the whole session (role, goals, how to answer, the edit format, the guidelines;
 * then the failure, the earlier attempts, in text mode every tool with the states it may
 * be used in (native mode: the server's tool definitions carry them), and the opening
 * state); each call then appends the model's own turn and the answer to it, which ends
 * with the state, the tools usable now and the calls left. Nothing near the top changes
 * from one call to the next, so a server that keeps the evaluated prompt of the model
 * (llama.cpp under Ollama) evaluates only the new exchange each turn.
 *
 * The prompt is trimmed to the context window: the oldest tool output goes first (its
 * call stays, so the model can ask again), then the last result is shortened; only then
 * does the top change. A pure function, like the single-shot repair prompt.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { charsForTokens, estimateTokens } from '../context-window.js';
import type { ChatMessage, ToolCall } from '../types.js';
import { EDIT_FORMAT_INSTRUCTIONS, type EditFormat } from './edit-formats.js';
import { failureSection } from './failure-section.js';
import { renderDiagnostic, type AttemptSummary } from './repair-request.js';
import { GUIDELINES_HEADING } from './system.js';

export type AgentPromptState = 'understand' | 'collect' | 'fix';

export interface AgentToolDescription {
  name: string;
  description: string;
  /** e.g. `{"file": string, "start": integer}` */
  parameters: string;
  states: readonly string[];
}

export interface GatheredFact {
  /** The call as the model would write it: `read_range {"file": "...", "start": 1}`. */
  call: string;
  output: string;
}

export interface TriedFix {
  /** Which files it changed, or what it was (`candidate 2 of write_fix at step 6`). */
  summary: string;
  outcome: string;
}

export interface LastCall {
  /** Tool name and arguments, after the middleware's corrections. */
  tool: string;
  args: Record<string, unknown>;
  /** The server's id for a native call. */
  id?: string;
  result: string;
}

/** Where the session stood when a turn was asked: its state, the tools usable in it, the calls left. */
export interface TurnStanding {
  state: AgentPromptState;
  tools: string[];
  stepsLeft: number;
}

/** One call of the conversation and the answer to it, as sent from then on. */
export interface AgentExchange extends LastCall {
  /** What the model wrote (text mode), sent back as its own turn; without it, the call as JSON. */
  said?: string;
  /** Where the session stood after the call: fixed once the next turn is asked. */
  after?: TurnStanding;
}

export interface AgentTurnInput {
  diagnostics: Diagnostic[];
  /** Earlier attempts of this repair (single-shot or agent) that did not work. */
  history: AttemptSummary[];
  guidelines?: string;
  editFormat: EditFormat;
  /** native: the tools go to the server and calls come back as tool calls; text: one JSON object per answer. */
  mode: 'native' | 'text';
  /** Every tool of the session, in a fixed order, with the states it may be used in. */
  tools: AgentToolDescription[];
  /** Where the session stood at its first call. */
  opening: TurnStanding;
  /** Every call so far and the answer to it, oldest first. */
  exchanges: AgentExchange[];
  /** The model's context window in tokens, and what to keep free for its answer. */
  contextTokens: number;
  answerTokens: number;
  /** Tokens the native tool definitions take (they travel beside the messages). */
  toolTokens?: number;
}

export interface AgentTurn {
  messages: ChatMessage[];
  /** Tool outputs left out to fit the window. */
  droppedFacts: number;
}

export const AGENT_ROLE = `You are mvnx, repairing a failing Maven build of a Java project. You cannot see the
code: you read it with tools, one tool call per answer, and then write the smallest fix.`;

export const AGENT_GOALS = `## Goals
1. understand: find out what fails and why (read the failing test and the code it calls).
   Then call express_hypothesis with one sentence on the cause.
2. collect: read what the fix needs (the method to change, its callers, similar code, how
   the project uses an API). Then call write_fix.
3. fix: write_fix builds every fix you give it in a copy of the project and runs the
   tests; the first that passes ends the work. If none passes you see why; correct the
   fix, call collect_more_information to read more, or discard_hypothesis.

Rules for a fix: change as little as possible, fix the main code rather than the test
unless the test itself is wrong, never weaken, skip or delete a test, keep indentation,
do not copy line numbers into the fix. You may give several different fixes in one
write_fix: each is tried, in order.`;

const TEXT_ANSWER = `## How to answer
Answer with exactly one JSON object naming one tool and its arguments, and nothing else:
{"tool": "read_range", "args": {"file": "src/main/java/com/acme/App.java", "start": 1, "end": 40}}
For write_fix, put each fix in its own fenced block after the JSON (a fix that changes
two files is one block): {"tool": "write_fix", "args": {}} and then the block(s).`;

const NATIVE_ANSWER = `## How to answer
Call exactly one of the tools you are offered. For write_fix, give the fix as "patch",
or several different fixes as "patches" (a fix that changes two files is one patch).`;

const STATE_NAMES: Record<AgentPromptState, string> = {
  understand: 'understand the failure',
  collect: 'collect what the fix needs',
  fix: 'fix (your last fix did not pass)',
};

const DROPPED_OUTPUT = '(output left out to fit the context window; call the tool again if you need it)';

export function buildAgentTurn(input: AgentTurnInput): AgentTurn {
  const opening: ChatMessage[] = [
    { role: 'system', content: systemText(input) },
    { role: 'user', content: openingText(input) },
  ];
  const exchanges = [...input.exchanges];
  let dropped = 0;
  const assemble = (): ChatMessage[] => [
    ...opening,
    ...exchanges.flatMap((exchange, index) =>
      render(input, exchange, index === 0 ? input.opening : exchanges[index - 1]!.after),
    ),
  ];
  const cost = (messages: ChatMessage[]) =>
    messages.reduce((sum, message) => sum + estimateTokens(message.content) + 8, 0) +
    (input.toolTokens ?? 0) +
    input.answerTokens;

  let messages = assemble();
  // Oldest output first: what the model read long ago matters least now. The last result stays whole here.
  for (let index = 0; index < exchanges.length - 1 && cost(messages) > input.contextTokens; index++) {
    if (exchanges[index]!.result === DROPPED_OUTPUT) continue;
    exchanges[index] = { ...exchanges[index]!, result: DROPPED_OUTPUT };
    dropped++;
    messages = assemble();
  }
  const over = cost(messages) - input.contextTokens;
  const last = exchanges.at(-1);
  if (over > 0 && last && last.result.length > 0) {
    const keep = Math.max(200, last.result.length - charsForTokens(over) - 100);
    exchanges[exchanges.length - 1] = {
      ...last,
      result: `${last.result.slice(0, keep)}\n... (cut to fit the context window)`,
    };
    messages = assemble();
  }
  return { messages, droppedFacts: dropped };
}

/** Fixed for the session: the edit format is there from the start, so offering write_fix later changes nothing. */
function systemText(input: AgentTurnInput): string {
  return [
    AGENT_ROLE,
    AGENT_GOALS,
    input.mode === 'text' ? TEXT_ANSWER : NATIVE_ANSWER,
    `## The fix (each patch of write_fix)\n\n${EDIT_FORMAT_INSTRUCTIONS[input.editFormat]}`,
    ...(input.guidelines?.trim() ? [`${GUIDELINES_HEADING}\n${input.guidelines.trim()}`] : []),
  ].join('\n\n');
}

function openingText(input: AgentTurnInput): string {
  const sections = [`## Build failure\n\n${failureSection(input.diagnostics, renderDiagnostic, input.contextTokens)}`];
  if (input.history.length > 0) {
    sections.push(
      `## Earlier attempts that did not work\n\n${input.history.map((a) => `- attempt ${a.n}: ${a.outcome}${a.reason ? `: ${a.reason}` : ''}`).join('\n')}`,
    );
  }
  // Native tools reach the model as the server's definitions (name, description, parameters): listed here again they
  // would be read twice. Which of them a state allows is said at the end of every answer.
  if (input.mode === 'text') {
    const tools = input.tools.map(
      (tool) => `- ${tool.name} ${tool.parameters}: ${tool.description} (${tool.states.join(', ')})`,
    );
    sections.push(`## Tools, and the states they can be used in\n\n${tools.join('\n')}`);
  }
  sections.push(
    `${standingLine(input.opening)} You have ${input.opening.stepsLeft} tool calls. Start by understanding the failure.`,
  );
  return sections.join('\n\n');
}

/**
 * Where the session stands. The tools usable now are listed when they differ from those of the standing before (the
 * opening's, or the previous answer's): the conversation keeps every earlier list, so repeating an unchanged one at
 * the end of each answer only adds tokens to evaluate.
 */
function standingLine(standing: TurnStanding, before?: TurnStanding): string {
  const same =
    before !== undefined &&
    before.state === standing.state &&
    before.tools.length === standing.tools.length &&
    before.tools.every((tool, index) => standing.tools[index] === tool);
  return same
    ? `State: ${STATE_NAMES[standing.state]}, the same tools.`
    : `State: ${STATE_NAMES[standing.state]}. Tools you can use now: ${standing.tools.join(', ')}.`;
}

/** One call as the model's own turn, and the answer to it ending with where the session stands. */
function render(input: AgentTurnInput, exchange: AgentExchange, before: TurnStanding | undefined): ChatMessage[] {
  const after = exchange.after
    ? `\n\n${standingLine(exchange.after, before)} ${exchange.after.stepsLeft} tool calls left.`
    : '';
  if (input.mode === 'native') {
    const call: ToolCall = {
      ...(exchange.id ? { id: exchange.id } : {}),
      name: exchange.tool,
      arguments: exchange.args,
    };
    return [
      { role: 'assistant', content: exchange.said ?? '', toolCalls: [call] },
      {
        role: 'tool',
        content: `${exchange.result}${after}`,
        toolName: exchange.tool,
        ...(exchange.id ? { toolCallId: exchange.id } : {}),
      },
    ];
  }
  return [
    { role: 'assistant', content: exchange.said ?? JSON.stringify({ tool: exchange.tool, args: exchange.args }) },
    {
      role: 'user',
      content: `Result of ${exchange.tool}:\n${exchange.result}${after}${after ? ' Answer with one JSON tool call.' : ''}`,
    },
  ];
}
