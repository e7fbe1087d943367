/**
 * What every built-in tool shares: the model's raw JSON arguments are checked by the tool
 * itself (a bad call is answered with one line naming the argument, never thrown past
 * the tool), paths stay inside the project, and no answer is longer than
 * MAX_TOOL_OUTPUT_CHARS (cut on a whole line, with a last line that says what was left out).
 */
import path from 'node:path';
import { escape } from 'minimatch';
import { viewJavaFile, type JavaSourceFile } from '../../../../java/index.js';
import { renderCall } from '../../code-arguments.js';
import { nearestFiles } from '../../code-names.js';
import {
  AGENT_STATES,
  type AgentTool,
  type AgentToolContext,
  MAX_TOOL_OUTPUT_CHARS,
  type SourceView,
  type ToolParameter,
  type ToolResult,
} from '../../../../plugins/contracts.js';

export const MAX_SUGGESTIONS = 5;
export const MAX_NAMES = 40;
/** A generated or minified line would otherwise fill a whole answer on its own, every time it is asked for. */
const MAX_LINE_CHARS = 1_000;

export type Args = Record<string, unknown>;

export const fileParameter: ToolParameter = {
  type: 'string',
  description: 'project-relative path',
};

/** A call the model got wrong: answered with ok: false and this message, never thrown past the tool. */
export class BadCall extends Error {}

export function defineTool(
  name: string,
  description: string,
  parameters: Record<string, ToolParameter>,
  run: (args: Args, view: SourceView, context: AgentToolContext) => Promise<ToolResult>,
): AgentTool {
  return {
    ...{ name, description, parameters, states: AGENT_STATES },
    async run(args, context) {
      try {
        return cap(await run(args ?? {}, context.view, context));
      } catch (error) {
        if (error instanceof BadCall) return cap({ ok: false, output: error.message });
        throw error;
      }
    },
  };
}

export function cap(result: ToolResult): ToolResult {
  if (result.output.length <= MAX_TOOL_OUTPUT_CHARS) return result;
  const note = `\n... (cut at ${MAX_TOOL_OUTPUT_CHARS} characters)`;
  return { ok: result.ok, output: result.output.slice(0, MAX_TOOL_OUTPUT_CHARS - note.length) + note };
}

/** As many of `lines` as fit the output limit together with `tail(shown)`, the line that says what was left out. */
export function fit(lines: readonly string[], tail: (shown: number) => string, limit = MAX_TOOL_OUTPUT_CHARS): string {
  let size = 0;
  let best = 0;
  for (let k = 0; k <= lines.length; k++) {
    if (k > 0) size += (lines[k - 1] ?? '').length + 1;
    const note = tail(k);
    if ((note ? size + note.length : Math.max(0, size - 1)) <= limit) best = k;
  }
  const note = tail(best);
  return [...lines.slice(0, best), ...(note ? [note] : [])].join('\n');
}

export function given(value: unknown): string {
  return value === undefined ? '' : `, got ${JSON.stringify(value)?.slice(0, 80)}`;
}

/**
 * The argument as a clean project-relative path; absolute paths and `..` are refused, since only the project is
 * readable.
 */
export function projectPath(tool: string, args: Args, key: string, view: SourceView): string {
  const raw = args[key];
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new BadCall(`${tool} needs "${key}" (a project-relative path)${given(raw)}`);
  const file = raw.trim().replace(/\\/g, '/');
  if (file.startsWith('/') || /^[A-Za-z]:\//.test(file)) {
    const inside = path.isAbsolute(raw.trim()) ? path.relative(view.root, raw.trim()) : '';
    if (inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside)) {
      throw new BadCall(
        `${tool} takes project-relative paths: give "${inside.split(path.sep).join('/')}" instead of "${raw}"`,
      );
    }
    throw new BadCall(
      `${tool} refuses "${raw}": files outside the project are not readable; give a path relative to the project root`,
    );
  }
  if (file.split('/').includes('..'))
    throw new BadCall(
      `${tool} refuses "${raw}": files outside the project are not readable; give a path inside the project without ".."`,
    );
  const normalized = path.posix.normalize(file).replace(/\/+$/, '');
  if (normalized === '.') throw new BadCall(`${tool} needs "${key}" (a project-relative path)${given(raw)}`);
  return normalized;
}

/** Small local models often send numbers as strings ("12"); those count as integers. */
export function integer(tool: string, args: Args, key: string, meaning: string, optional = false): number | undefined {
  const raw = args[key];
  if (raw === undefined || raw === null || raw === '') {
    if (optional) return undefined;
    throw new BadCall(`${tool} needs "${key}" (${meaning})`);
  }
  const value = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new BadCall(`${tool} needs "${key}" as a whole number${given(raw)}`);
  return value;
}

/** A required or optional text argument, trimmed. */
export function text(tool: string, args: Args, key: string, meaning: string, optional = false): string | undefined {
  const raw = args[key];
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    if (optional) return undefined;
    throw new BadCall(`${tool} needs "${key}" (${meaning})${given(raw)}`);
  }
  if (typeof raw !== 'string') throw new BadCall(`${tool} needs "${key}" as text (${meaning})${given(raw)}`);
  return raw.trim();
}

export function someOf(items: readonly string[], limit = MAX_SUGGESTIONS): string {
  const more = items.length - limit;
  return items.slice(0, limit).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

/** The file's lines (without line endings), or a BadCall that says what exists instead. */
export async function readLines(view: SourceView, file: string): Promise<string[]> {
  let content: string | undefined;
  try {
    content = await view.read(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
  }
  if (content !== undefined) return toLines(content);
  const inFolder = await view.list(`${escape(file)}/**`);
  if (inFolder.length > 0) throw new BadCall(`${file} is a folder, not a file; it holds ${someOf(inFolder)}`);
  const base = file.slice(file.lastIndexOf('/') + 1);
  const sameName = await view.list(`**/${escape(base)}`);
  if (sameName.length > 0)
    throw new BadCall(`no file ${file} in the project; files named ${base}: ${someOf(sameName)}`);
  const nearest = nearestFiles(base, await view.list('**/*'));
  throw new BadCall(
    `no file ${file} in the project, and no file named ${base} anywhere in it${nearest.length > 0 ? `; nearest names: ${someOf(nearest)}` : ''}`,
  );
}

export function toLines(content: string): string[] {
  const lines = content.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The parsed Java file, or a BadCall that gives the parse error and points to read_range.
 * Parsed once per view (src/java's viewJavaFile): the agent asks about the same files again and again.
 */
export async function readJava(
  tool: string,
  view: SourceView,
  file: string,
): Promise<{ lines: string[]; java: JavaSourceFile }> {
  if (!file.endsWith('.java'))
    throw new BadCall(
      `${tool} reads Java source files; ${file} is not one (read it with ${renderCall('read_range', { file, start: 1 })})`,
    );
  // A missing file or a folder: readLines's BadCall says what exists instead.
  const lines = await readLines(view, file);
  const parsed = (await viewJavaFile(view, file))?.parsed;
  if (!parsed) throw new BadCall(`no file ${file} in the project`);
  if (!parsed.ok)
    throw new BadCall(
      `${file} does not parse as Java (${parsed.error.message}); read it with ${renderCall('read_range', { file, start: Math.max(1, (parsed.error.line ?? 1) - 10) })}`,
    );
  return { lines, java: parsed.file };
}

export const widthFor = (lineCount: number) => Math.max(4, String(lineCount).length);
export const clip = (line: string) =>
  line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} ... (line cut)` : line;
export const numbered = (lines: readonly string[], n: number, width: number, mark = ' ') =>
  `${String(n).padStart(width)}|${mark}${clip(lines[n - 1] ?? '')}`;
export const span = (from: number, to: number) => (from === to ? `line ${from}` : `lines ${from}-${to}`);
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Rows of line-numbered source for several line ranges, a blank row between ranges; `marks` get `>>`. */
export function numberedRanges(
  lines: readonly string[],
  ranges: { from: number; to: number }[],
  marks: ReadonlySet<number> = new Set(),
): { rows: string[]; numbers: number[] } {
  const width = widthFor(lines.length);
  const numbers: number[] = [];
  for (const [index, range] of ranges.entries()) {
    if (index > 0) numbers.push(0);
    for (let n = range.from; n <= range.to; n++) numbers.push(n);
  }
  const rows = numbers.map((n) =>
    n === 0 ? '' : `${marks.size > 0 ? (marks.has(n) ? '>>' : '  ') : ''}${numbered(lines, n, width)}`,
  );
  return { rows, numbers };
}
