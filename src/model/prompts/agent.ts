/**
 * The agent's prompt, rebuilt for every turn from sections (as RepairAgent does): its
 * role and goals, the failure, the current state and that state's tools, what it has
 * gathered, its hypothesis, the fixes it tried and how they ended, and its last call
 * with the result. A small model then always sees the whole situation at the end of a
 * short prompt instead of a transcript that grows until the window truncates it.
 *
 * The prompt is trimmed to the context window: the oldest gathered tool output goes
 * first (its call stays listed, so the model can ask again), then the last result is
 * shortened. A pure function, like the single-shot repair prompt.
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

export interface AgentTurnInput {
  diagnostics: Diagnostic[];
  /** Earlier attempts of this repair (single-shot or agent) that did not work. */
  history: AttemptSummary[];
  guidelines?: string;
  editFormat: EditFormat;
  /** native: the tools go to the server and calls come back as tool calls; text: one JSON object per answer. */
  mode: 'native' | 'text';
  state: AgentPromptState;
  /** The tools of the current state. */
  tools: AgentToolDescription[];
  hypothesis?: string;
  /** Tool outputs gathered before the last call, oldest first. */
  facts: GatheredFact[];
  fixesTried: TriedFix[];
  last?: LastCall;
  stepsLeft: number;
  /** The model's context window in tokens, and what to keep free for its answer. */
  contextTokens: number;
  answerTokens: number;
  /** Tokens the native tool definitions take (they travel beside the messages). */
  toolTokens?: number;
}

export interface AgentTurn {
  messages: ChatMessage[];
  /** Gathered outputs left out to fit the window. */
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
  fix: 'fix: your last fix did not pass',
};

const DROPPED_OUTPUT = '(output left out to fit the context window; call the tool again if you need it)';

export function buildAgentTurn(input: AgentTurnInput): AgentTurn {
  const system = systemText(input);
  const facts = [...input.facts];
  let lastResult = input.last?.result ?? '';
  let dropped = 0;
  const assemble = (): ChatMessage[] => [
    { role: 'system', content: system },
    { role: 'user', content: situation(input, facts) },
    ...lastExchange(input, lastResult),
  ];
  const cost = (messages: ChatMessage[]) =>
    messages.reduce((sum, message) => sum + estimateTokens(message.content) + 8, 0) +
    (input.toolTokens ?? 0) +
    input.answerTokens;

  let messages = assemble();
  // Oldest output first: what the model read long ago matters least now.
  for (let index = 0; index < facts.length && cost(messages) > input.contextTokens; index++) {
    if (facts[index]!.output === DROPPED_OUTPUT) continue;
    facts[index] = { call: facts[index]!.call, output: DROPPED_OUTPUT };
    dropped++;
    messages = assemble();
  }
  const over = cost(messages) - input.contextTokens;
  if (over > 0 && lastResult.length > 0) {
    const keep = Math.max(200, lastResult.length - charsForTokens(over) - 100);
    lastResult = `${lastResult.slice(0, keep)}\n... (cut to fit the context window)`;
    messages = assemble();
  }
  return { messages, droppedFacts: dropped };
}

function systemText(input: AgentTurnInput): string {
  const writes = input.tools.some((tool) => tool.name === 'write_fix');
  return [
    AGENT_ROLE,
    AGENT_GOALS,
    input.mode === 'text' ? TEXT_ANSWER : NATIVE_ANSWER,
    ...(writes ? [`## The fix (each patch of write_fix)\n\n${EDIT_FORMAT_INSTRUCTIONS[input.editFormat]}`] : []),
    ...(input.guidelines?.trim() ? [`${GUIDELINES_HEADING}\n${input.guidelines.trim()}`] : []),
  ].join('\n\n');
}

function situation(input: AgentTurnInput, facts: GatheredFact[]): string {
  const sections = [`## Build failure\n\n${failureSection(input.diagnostics, renderDiagnostic, input.contextTokens)}`];
  if (input.history.length > 0) {
    sections.push(
      `## Earlier attempts that did not work\n\n${input.history.map((a) => `- attempt ${a.n}: ${a.outcome}${a.reason ? `: ${a.reason}` : ''}`).join('\n')}`,
    );
  }
  if (facts.length > 0)
    sections.push(
      `## What you found so far\n\n${facts.map((fact) => `### ${fact.call}\n${fact.output}`).join('\n\n')}`,
    );
  if (input.hypothesis) sections.push(`## Your hypothesis\n\n${input.hypothesis}`);
  if (input.fixesTried.length > 0)
    sections.push(`## Fixes tried\n\n${input.fixesTried.map((fix) => `- ${fix.summary}: ${fix.outcome}`).join('\n')}`);
  const tools = input.tools
    .map((tool) =>
      input.mode === 'text'
        ? `- ${tool.name} ${tool.parameters}: ${tool.description}`
        : `- ${tool.name}: ${tool.description}`,
    )
    .join('\n');
  sections.push(`## State: ${STATE_NAMES[input.state]}\n\nTools you can use now:\n${tools}`);
  sections.push(
    input.last
      ? `You have ${input.stepsLeft} tool calls left.`
      : `You have ${input.stepsLeft} tool calls. Start by understanding the failure.`,
  );
  return sections.join('\n\n');
}

/** The last call and its result, as the model's own turn and the answer to it. */
function lastExchange(input: AgentTurnInput, result: string): ChatMessage[] {
  const last = input.last;
  if (!last) return [];
  if (input.mode === 'native') {
    const call: ToolCall = { ...(last.id ? { id: last.id } : {}), name: last.tool, arguments: last.args };
    return [
      { role: 'assistant', content: '', toolCalls: [call] },
      { role: 'tool', content: result, toolName: last.tool, ...(last.id ? { toolCallId: last.id } : {}) },
    ];
  }
  return [
    { role: 'assistant', content: JSON.stringify({ tool: last.tool, args: last.args }) },
    {
      role: 'user',
      content: `Result of ${last.tool}:\n${result}\n\n(state: ${input.state}; answer with one JSON tool call)`,
    },
  ];
}
