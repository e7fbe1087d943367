/**
 * The tools that move the session between its states (RepairAgent's state machine), and
 * which tools each state offers:
 *
 *   understand --express_hypothesis--> collect --write_fix (none passed)--> fix
 *   collect/fix --discard_hypothesis--> understand
 *   fix --collect_more_information--> collect
 *   fix --goals_accomplished--> end (keeping the best fix so far); a fix that passes ends it too
 *   any --give_up--> end
 *
 * They are answered by the session itself, not run like the reading tools.
 */
import type { ToolSpec } from '../../model/types.js';
import type { AgentState, AgentTool, ToolParameter } from '../../plugins/contracts.js';

export interface StateTool {
  description: string;
  parameters: Record<string, ToolParameter>;
  states: readonly AgentState[];
}

export const STATE_TOOLS = {
  express_hypothesis: {
    states: ['understand', 'collect'],
    description: 'say in one sentence what causes the failure; moves on to collecting what the fix needs',
    parameters: { hypothesis: { type: 'string', description: 'what causes the failure' } },
  },
  discard_hypothesis: {
    states: ['collect', 'fix'],
    description: 'the hypothesis was wrong: back to understanding the failure',
    parameters: { reason: { type: 'string', description: 'why it was wrong', optional: true } },
  },
  collect_more_information: {
    states: ['fix'],
    description: 'the fixes tried show that more is needed: back to reading code before the next write_fix',
    parameters: { reason: { type: 'string', description: 'what is missing', optional: true } },
  },
  write_fix: {
    states: ['collect', 'fix'],
    description: 'try one fix ("patch") or several different ones ("patches"), each built and tested in a copy of the project; the first that passes ends the work, the others are reported',
    parameters: {
      patch: { type: 'string', description: 'the fix in the edit format asked for', optional: true },
      patches: { type: 'string[]', description: 'several different fixes, tried in order', optional: true },
    },
  },
  goals_accomplished: {
    states: ['fix'],
    description: 'stop here and keep the best fix so far (the one that got furthest); use it when a fix made progress and the rest needs a new attempt',
    parameters: {},
  },
  give_up: {
    states: ['understand', 'collect', 'fix'],
    description: 'no fix can be found from here',
    parameters: { reason: { type: 'string', description: 'why', optional: true } },
  },
} as const satisfies Record<string, StateTool>;

export type StateToolName = keyof typeof STATE_TOOLS;

export function isStateTool(name: string): name is StateToolName {
  return Object.hasOwn(STATE_TOOLS, name);
}

/** Names of every tool the session knows, state tools included. */
export function allToolNames(tools: readonly AgentTool[]): string[] {
  return [...tools.map((tool) => tool.name), ...Object.keys(STATE_TOOLS)];
}

export function toolsAllowedIn(state: AgentState, tools: readonly AgentTool[]): string[] {
  const stateTools = Object.entries(STATE_TOOLS)
    .filter(([, tool]) => (tool.states as readonly AgentState[]).includes(state))
    .map(([name]) => name);
  return [...tools.filter((tool) => tool.states.includes(state)).map((tool) => tool.name), ...stateTools];
}

/** Name, description and parameters of any tool the session knows. */
export function signatureOf(name: string, tools: readonly AgentTool[]): { name: string; description: string; parameters: Record<string, ToolParameter>; states: readonly AgentState[] } | undefined {
  if (isStateTool(name)) return { name, ...STATE_TOOLS[name] };
  return tools.find((tool) => tool.name === name);
}

/** `{"file": string, "start": integer, "end"?: integer}`: the parameters as the text prompt lists them. */
export function describeParameters(parameters: Record<string, ToolParameter>): string {
  const entries = Object.entries(parameters).map(([name, p]) => `"${name}"${p.optional ? '?' : ''}: ${p.type === 'string[]' ? '[string, ...]' : p.type}`);
  return `{${entries.join(', ')}}`;
}

/** The JSON Schema a server gets for native tool calls. */
export function toolSpec(name: string, description: string, parameters: Record<string, ToolParameter>): ToolSpec {
  const properties = Object.fromEntries(
    Object.entries(parameters).map(([key, p]) => [key, p.type === 'string[]' ? { type: 'array', items: { type: 'string' }, description: p.description } : { type: p.type, description: p.description }]),
  );
  const required = Object.entries(parameters)
    .filter(([, p]) => !p.optional)
    .map(([key]) => key);
  return { name, description, parameters: { type: 'object', properties, required } };
}
