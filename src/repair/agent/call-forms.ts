/**
 * How a tool call is written back to the model: the call as JSON, its arguments in the
 * order the tool declares them, and the exact form a tool takes (with a placeholder for
 * each required argument the model left out).
 */
import type { ToolParameter } from '../../plugins/contracts.js';

export interface CodeTool {
  name: string;
  parameters: Record<string, ToolParameter>;
}

/** `{"tool": "extract_method", "args": {...}}`: the call as the model can send it next. */
export function renderCall(tool: string, args: Record<string, unknown>): string {
  return JSON.stringify({ tool, args });
}

/** The arguments in the order the tool declares them, so that a rewritten call reads like the tool's own form. */
export function inToolOrder(tool: CodeTool, args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(tool.parameters)
      .filter((name) => args[name] !== undefined)
      .map((name) => [name, args[name]]),
  );
}

/** The exact form the tool takes, with the model's own call rewritten into it. */
export function formHint(tool: CodeTool, args: Record<string, unknown>): string {
  const example: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(tool.parameters)) {
    if (args[name] !== undefined) example[name] = args[name];
    else if (!parameter.optional) example[name] = placeholder(name, parameter);
  }
  return `${tool.name} takes ${describeForm(tool)}; for example ${renderCall(tool.name, example)}`;
}

function placeholder(name: string, parameter: ToolParameter): unknown {
  if (name === 'file') return 'src/main/java/com/acme/App.java';
  if (parameter.type === 'integer') return 1;
  const example = /e\.g\. ([^;,)]+)/.exec(parameter.description)?.[1]?.trim();
  return parameter.type === 'string[]' ? [example ?? `<${name}>`] : (example ?? `<${name}>`);
}

function describeForm(tool: CodeTool): string {
  const names = Object.entries(tool.parameters).map(
    ([name, parameter]) => `"${name}"${parameter.optional ? ' (optional)' : ''}`,
  );
  const code =
    'file' in tool.parameters
      ? ', where "file" may also be a class (OrderService, com.acme.OrderService) or a member (OrderService#total)'
      : '';
  return `${names.join(', ')}${code}`;
}
