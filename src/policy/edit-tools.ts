/**
 * Editing the `tools:` section of a config file's text, for `mvnx tool add` and
 * `mvnx tool remove`: YAML through the yaml package's Document API, so that the team's
 * comments, key order and layout survive; JSON re-serialised with its own indentation.
 * Pure: text in, text out. The result is validated like any config before it is written.
 */
import { isMap, isSeq, parseDocument, YAMLSeq } from 'yaml';
import { MvnxError } from '../shared/errors.js';

export type ConfigTextFormat = 'yaml' | 'json';

/** A command tool as written in a config file (defaults left out). */
export interface CommandToolEntry {
  name: string;
  command: string;
  description?: string;
  outputFormat?: 'text' | 'xml' | 'sarif';
  states?: string[];
  timeoutSeconds?: number;
}

export function configTextFormat(file: string): ConfigTextFormat | undefined {
  if (/\.(?:js|mjs|cjs)$/.test(file)) return undefined;
  return file.endsWith('.json') ? 'json' : 'yaml';
}

/** The tool names already written in the file's `tools:` list. */
export function toolNamesIn(text: string, format: ConfigTextFormat, label: string): string[] {
  const value: unknown = format === 'json' ? parseJson(text, label) : parseYaml(text, label).toJS();
  const tools = value && typeof value === 'object' ? (value as { tools?: unknown }).tools : undefined;
  return Array.isArray(tools)
    ? tools.map((tool) => (tool && typeof tool === 'object' ? String((tool as { name?: unknown }).name) : ''))
    : [];
}

/** The text with `entry` added to `tools:` (or put in place of the tool with its name, when `replace`). */
export function addTool(
  text: string,
  format: ConfigTextFormat,
  entry: CommandToolEntry,
  label: string,
  replace = false,
): string {
  if (format === 'json') {
    const value = parseJson(text, label) ?? {};
    if (typeof value !== 'object' || Array.isArray(value))
      throw new MvnxError(`${label}: the config is not a JSON object`, 2);
    const config = value as Record<string, unknown>;
    const tools = Array.isArray(config.tools) ? config.tools : [];
    const at = tools.findIndex((tool) => (tool as { name?: unknown })?.name === entry.name);
    if (at >= 0 && replace) tools[at] = entry;
    else tools.push(entry);
    config.tools = tools;
    return `${JSON.stringify(config, null, indentOf(text))}\n`;
  }
  const doc = parseYaml(text, label);
  if (doc.contents === null || doc.contents === undefined)
    doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  if (!isMap(doc.contents)) throw new MvnxError(`${label}: the config is not a mapping of settings`, 2);
  // Stryker disable next-line BooleanLiteral: keepScalar only wraps a scalar `tools:` value, which is refused (or
  // replaced when null) either way
  const existing = doc.get('tools', true);
  const node = doc.createNode(entry);
  if (isSeq(existing)) {
    const at = existing.items.findIndex((item) => isMap(item) && item.get('name') === entry.name);
    if (at >= 0 && replace) existing.items[at] = node;
    else existing.items.push(node);
    // A flow list (`tools: []`) would put the new tool on one long line.
    existing.flow = false;
  } else if (existing === undefined || existing === null || (existing as { value?: unknown }).value === null) {
    const list = new YAMLSeq();
    list.items.push(node);
    doc.set('tools', list);
  } else {
    throw new MvnxError(`${label}: "tools" is not a list; fix it by hand first`, 2);
  }
  return doc.toString();
}

/** The text without the tool named `name`; `tools:` goes too when it is left empty. */
export function removeTool(text: string, format: ConfigTextFormat, name: string, label: string): string {
  if (format === 'json') {
    const config = (parseJson(text, label) ?? {}) as Record<string, unknown>;
    const tools = Array.isArray(config.tools)
      ? config.tools.filter((tool) => (tool as { name?: unknown })?.name !== name)
      : [];
    if (tools.length === 0) delete config.tools;
    else config.tools = tools;
    return `${JSON.stringify(config, null, indentOf(text))}\n`;
  }
  const doc = parseYaml(text, label);
  // Stryker disable next-line BooleanLiteral: anything but a list is left alone, wrapped or not
  const existing = doc.get('tools', true);
  if (!isSeq(existing)) return text;
  existing.items = existing.items.filter((item) => !(isMap(item) && item.get('name') === name));
  if (existing.items.length === 0) doc.delete('tools');
  return doc.toString();
}

function parseYaml(text: string, label: string) {
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: false is the default; source tokens are never read by get,
  // set or toString
  const doc = parseDocument(text, { keepSourceTokens: false });
  const error = doc.errors[0];
  if (error)
    throw new MvnxError(`${label}: cannot edit a file that does not parse: ${error.message.split('\n')[0]}`, 2);
  return doc;
}

function parseJson(text: string, label: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MvnxError(`${label}: cannot edit a file that does not parse: ${(error as Error).message}`, 2);
  }
}

/** The file's own indentation (two spaces when it has none yet). */
function indentOf(text: string): string | number {
  const match = /\n([ \t]+)"/.exec(text);
  return match ? match[1]! : 2;
}
