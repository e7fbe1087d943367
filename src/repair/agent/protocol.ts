/**
 * How the agent's replies are read. Small local models wrap a tool call in prose and
 * fences, name the keys differently, leave trailing commas and quote numbers: all of that
 * is mechanical and normalised here. A reply with a patch and no tool call is a fix.
 */

export type AgentReply =
  | { kind: 'call'; tool: string; args: Record<string, unknown> }
  | { kind: 'patch'; text: string }
  | { kind: 'unreadable'; why: string };

const TOOL_KEYS = ['tool', 'name', 'function', 'action'];
const ARG_KEYS = ['args', 'arguments', 'parameters', 'input'];
const PATCH_MARKERS = /^(?:--- |\+\+\+ |@@ |<<<<<<< SEARCH)/m;

/** A unified diff or a SEARCH/REPLACE block somewhere in the text. */
export function containsPatch(text: string): boolean {
  return PATCH_MARKERS.test(text);
}

export function parseAgentReply(text: string): AgentReply {
  for (const candidate of jsonObjectsIn(text)) {
    const value = parseLenient(candidate);
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    const record = value as Record<string, unknown>;
    // The json edit format: {"summary": ..., "edits": [...]} is itself the fix.
    if (Array.isArray(record.edits)) return { kind: 'patch', text: candidate };
    // {"function": {"name": ..., "arguments": ...}}, as OpenAI-style tool calls nest it.
    const nested = TOOL_KEYS.map((key) => record[key]).find(
      (inner) => inner && typeof inner === 'object' && !Array.isArray(inner),
    ) as Record<string, unknown> | undefined;
    const source = nested ?? record;
    const tool = TOOL_KEYS.map((key) => source[key]).find(
      (name): name is string => typeof name === 'string' && name.trim() !== '',
    );
    if (!tool) continue;
    const rawArgs = ARG_KEYS.map((key) => source[key]).find((args) => args !== undefined);
    const args = typeof rawArgs === 'string' ? parseLenient(rawArgs) : rawArgs;
    return {
      kind: 'call',
      tool: tool.trim(),
      args: args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
    };
  }
  if (containsPatch(text)) return { kind: 'patch', text };
  return { kind: 'unreadable', why: 'no tool call (a JSON object with "tool" and "args") and no patch in the reply' };
}

/** Balanced {...} spans, fenced ones first, outermost only, strings respected. */
function jsonObjectsIn(text: string): string[] {
  const fenced = [...text.matchAll(/```(?:json)?[^\n]*\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const spans: string[] = [];
  for (const source of [...fenced, text]) {
    let depth = 0;
    let start = -1;
    let quote: string | undefined;
    for (let i = 0; i < source.length; i++) {
      const char = source[i]!;
      if (quote) {
        if (char === '\\') i++;
        else if (char === quote) quote = undefined;
        continue;
      }
      if (depth > 0 && (char === '"' || char === "'")) quote = char;
      else if (char === '{') {
        if (depth === 0) start = i;
        depth++;
      } else if (char === '}' && depth > 0) {
        depth--;
        if (depth === 0) spans.push(source.slice(start, i + 1));
      }
    }
  }
  return spans;
}

function parseLenient(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(text.replace(/,\s*([}\]])/g, '$1'));
    } catch {
      return undefined;
    }
  }
}

/** The same call with the same arguments, whatever their order or spacing. */
export function callKey(tool: string, args: Record<string, unknown>): string {
  const sorted = Object.keys(args)
    .sort()
    .map((key) => [key, typeof args[key] === 'string' ? args[key].trim() : args[key]]);
  return `${tool} ${JSON.stringify(sorted)}`;
}
