/**
 * The shape of a plugin object, checked with zod when it is loaded. A wrong shape is one
 * line in the words of the config errors (policy/config-issues.ts): the field path, what was
 * found and what was expected. The checked value itself is kept, never zod's copy: a
 * fixer or tool may be a class instance whose methods need their `this`.
 *
 * Each part is a loose object: a field mvnx does not read (a helper of the plugin's own)
 * is no error; it is noted once in the doctor's output and the run record.
 */
import { z } from 'zod';
import { describeFields, formatPath, knownKeysAt } from '../policy/config-issues.js';
import { AGENT_STATES, TOOL_PARAMETER_TYPES, type AgentTool, type Fixer, type MvnxPlugin } from './contracts.js';

const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', { message: 'a function' });
/** Fixer and parser names: the run record and `fixers.disabled` name them. */
const NAME = /^[a-z0-9][\w.:/-]*$/i;
const name = z.string().regex(NAME, { message: 'a name of letters, digits and . : / - _ (no spaces)' });

export const fixerSchema = z.looseObject({ name, handles: fn, propose: fn });

const toolFields = {
  // A tool name is what the model writes in its call: lower_snake_case, as the built-in ones.
  name: z.string().regex(/^[a-z][a-z0-9_]*$/, { message: 'a lower_snake_case name' }),
  description: z.string().trim().min(1),
  parameters: z.record(
    z.string(),
    z.looseObject({ type: z.enum(TOOL_PARAMETER_TYPES), description: z.string(), optional: z.boolean().optional() }),
  ),
  states: z.array(z.enum(AGENT_STATES)).min(1),
};
const toolSchema = z.looseObject({ ...toolFields, run: fn });
/** A tool the agent's session answers itself (the state tools): declared like any tool, without `run`. */
const stateToolSchema = z.looseObject(toolFields);

const parserSchema = z.looseObject({
  name,
  reports: z
    .array(z.string().regex(/^[^/\\]+$/, { message: 'a file name without folders, e.g. "acme-lint.xml"' }))
    .optional(),
  start: fn,
});

const reporterSchema = z.looseObject({ name: z.string().trim().min(1), report: fn });

/** An integrity rule's id and the names its findings carry: kebab-case, as the built-in ones (`test-side-changed`). */
const ruleName = z
  .string()
  .regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, { message: 'a kebab-case name, e.g. "main-reads-env"' });
const integrityRuleSchema = z.looseObject({
  id: ruleName,
  description: z.string().trim().min(1),
  reports: z.array(ruleName).min(1).optional(),
  check: fn,
});

export const PLUGIN_PARTS = ['fixers', 'tools', 'parsers', 'reporters', 'integrityRules'] as const;

export const pluginSchema = z.strictObject({
  name: z.string().trim().min(1),
  version: z.string().optional(),
  description: z.string().optional(),
  fixers: z.array(fixerSchema).optional(),
  tools: z.array(toolSchema).optional(),
  parsers: z.array(parserSchema).optional(),
  reporters: z.array(reporterSchema).optional(),
  integrityRules: z.array(integrityRuleSchema).optional(),
});

/** The plugin object as it was exported, or the one-line problem (without the `plugin <specifier>: ` prefix). */
export function checkPlugin(value: unknown): { plugin: MvnxPlugin; notes: string[] } | { problem: string } {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'its default export (or export "plugin") must be an object with a name' };
  const checked = pluginSchema.safeParse(value);
  if (!checked.success) return { problem: describeFields(pluginSchema, checked.error.issues, value) };
  return { plugin: value as MvnxPlugin, notes: unusedFields(value as Record<string, unknown>) };
}

/** `fixers[0].priority`: fields of a part that mvnx does not read. */
function unusedFields(plugin: Record<string, unknown>): string[] {
  return PLUGIN_PARTS.flatMap((part) =>
    ((plugin[part] ?? []) as Record<string, unknown>[]).flatMap((item, index) => {
      const known = new Set(knownKeysAt(pluginSchema, [part, index]));
      return Object.keys(item)
        .filter((key) => !known.has(key))
        .map(
          (key) =>
            `${formatPath([part, index, key])} is not read by mvnx (a ${part.slice(0, -1)} has ${[...known].join(', ')})`,
        );
    }),
  );
}

/** The shape every fixer has, built-in or a plugin's (the fixer registry checks it too). */
export function checkFixer(fixer: Fixer): void {
  const checked = fixerSchema.safeParse(fixer);
  if (checked.success) return;
  const label = typeof fixer?.name === 'string' ? `fixer ${fixer.name}` : 'a fixer';
  throw new TypeError(`${label}: ${describeFields(fixerSchema, checked.error.issues, fixer)}`);
}

/**
 * The shape every agent tool has, built-in or a plugin's (the agent's toolbox checks each
 * tool of a session with it); a state tool, answered by the session, has no `run`.
 */
export function checkTool(tool: AgentTool | Omit<AgentTool, 'run'>, kind: 'tool' | 'state tool' = 'tool'): void {
  const schema = kind === 'tool' ? toolSchema : stateToolSchema;
  const checked = schema.safeParse(tool);
  if (checked.success) return;
  const label = typeof tool?.name === 'string' ? `${kind} ${tool.name}` : `a ${kind}`;
  throw new TypeError(`${label}: ${describeFields(schema, checked.error.issues, tool)}`);
}
