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
 * They are answered by the session itself, not run like the reading tools (tools/, one
 * file each). A session's tools are checked here, built-in or not, with the check a
 * plugin's tool gets when it loads (plugins/check.ts).
 */
import type { ToolSpec } from '../../model/types.js';
import { checkTool } from '../../plugins/check.js';
import type { AgentState, AgentTool, ToolParameter } from '../../plugins/contracts.js';
import { BUILT_IN_AGENT_TOOLS, STATE_TOOLS } from './tools/index.js';
import type { ToolDeclaration } from './tools/support/state-tool.js';

export { STATE_TOOLS };

export type StateToolName = keyof typeof STATE_TOOLS;

/**
 * The tools a session runs: the built-in ones, then the plugins' and the config's, each
 * checked like a plugin's tool, the state tools' declarations too; a name used twice is refused.
 */
export function sessionTools(
  extra: readonly AgentTool[],
  builtIn: readonly AgentTool[] = BUILT_IN_AGENT_TOOLS,
  stateTools: readonly ToolDeclaration[] = Object.values(STATE_TOOLS),
): readonly AgentTool[] {
  const names = new Set<string>();
  const take = (name: string) => {
    if (names.has(name)) throw new TypeError(`an agent tool named ${name} is already registered`);
    names.add(name);
  };
  for (const tool of stateTools) {
    checkTool(tool, 'state tool');
    take(tool.name);
  }
  const tools = [...builtIn, ...extra];
  for (const tool of tools) {
    checkTool(tool);
    take(tool.name);
  }
  return tools;
}

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
export function signatureOf(
  name: string,
  tools: readonly AgentTool[],
):
  | { name: string; description: string; parameters: Record<string, ToolParameter>; states: readonly AgentState[] }
  | undefined {
  if (isStateTool(name)) return STATE_TOOLS[name];
  return tools.find((tool) => tool.name === name);
}

/** `{"file": string, "start": integer, "end"?: integer}`: the parameters as the text prompt lists them. */
export function describeParameters(parameters: Record<string, ToolParameter>): string {
  const entries = Object.entries(parameters).map(
    ([name, p]) => `"${name}"${p.optional ? '?' : ''}: ${p.type === 'string[]' ? '[string, ...]' : p.type}`,
  );
  return `{${entries.join(', ')}}`;
}

/** The JSON Schema a server gets for native tool calls. */
export function toolSpec(name: string, description: string, parameters: Record<string, ToolParameter>): ToolSpec {
  const properties = Object.fromEntries(
    Object.entries(parameters).map(([key, p]) => [
      key,
      p.type === 'string[]'
        ? { type: 'array', items: { type: 'string' }, description: p.description }
        : { type: p.type, description: p.description },
    ]),
  );
  const required = Object.entries(parameters)
    .filter(([, p]) => !p.optional)
    .map(([key]) => key);
  return { name, description, parameters: { type: 'object', properties, required } };
}
