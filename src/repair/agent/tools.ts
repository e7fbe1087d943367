/**
 * The agent's reading tools: what a developer does before touching a failing build (open
 * a file at a line, grep, look at a class's outline, read one method). Each takes the
 * model's raw JSON arguments, checks them itself and answers with text the model can act
 * on, never longer than MAX_TOOL_OUTPUT_CHARS.
 */
import path from 'node:path';
import { escape } from 'minimatch';
import { findBraceBlocks } from '../../model/prompts/java-blocks.js';
import { maskCommentsAndLiterals } from '../../java/index.js';
import type { SourceView } from '../fixers/types.js';
import { MAX_TOOL_OUTPUT_CHARS, type AgentState, type AgentTool, type ToolParameter, type ToolResult } from './types.js';

const ALL_STATES: readonly AgentState[] = ['understand', 'collect', 'fix'];
const MAX_LINES = 200;
const DEFAULT_LINES = 60;
const MAX_HITS = 50;
const MAX_SUGGESTIONS = 5;
const MAX_NAMES = 40;
/** A generated or minified line would otherwise fill a whole answer on its own, every time it is asked for. */
const MAX_LINE_CHARS = 1_000;

type Args = Record<string, unknown>;

/** A call the model got wrong: answered with ok: false and this message, never thrown past the tool. */
class BadCall extends Error {}

function defineTool(name: string, description: string, parameters: Record<string, ToolParameter>, run: (args: Args, view: SourceView) => Promise<ToolResult>): AgentTool {
  return {
    ...{ name, description, parameters, states: ALL_STATES },
    async run(args, context) {
      try {
        return cap(await run(args ?? {}, context.view));
      } catch (error) {
        if (error instanceof BadCall) return cap({ ok: false, output: error.message });
        throw error;
      }
    },
  };
}

function cap(result: ToolResult): ToolResult {
  if (result.output.length <= MAX_TOOL_OUTPUT_CHARS) return result;
  const note = `\n... (cut at ${MAX_TOOL_OUTPUT_CHARS} characters)`;
  return { ok: result.ok, output: result.output.slice(0, MAX_TOOL_OUTPUT_CHARS - note.length) + note };
}

/** As many of `lines` as fit the output limit together with `tail(shown)`, the line that says what was left out. */
function fit(lines: readonly string[], tail: (shown: number) => string): string {
  let size = 0;
  let best = 0;
  for (let k = 0; k <= lines.length; k++) {
    if (k > 0) size += (lines[k - 1] ?? '').length + 1;
    const note = tail(k);
    if ((note ? size + note.length : Math.max(0, size - 1)) <= MAX_TOOL_OUTPUT_CHARS) best = k;
  }
  const note = tail(best);
  return [...lines.slice(0, best), ...(note ? [note] : [])].join('\n');
}

function given(value: unknown): string {
  return value === undefined ? '' : `, got ${JSON.stringify(value)?.slice(0, 80)}`;
}

/** The argument as a clean project-relative path; absolute paths and `..` are refused, since only the project is readable. */
function projectPath(tool: string, args: Args, key: string, view: SourceView): string {
  const raw = args[key];
  if (typeof raw !== 'string' || raw.trim() === '') throw new BadCall(`${tool} needs "${key}" (a project-relative path)${given(raw)}`);
  const file = raw.trim().replace(/\\/g, '/');
  if (file.startsWith('/') || /^[A-Za-z]:\//.test(file)) {
    const inside = path.isAbsolute(raw.trim()) ? path.relative(view.root, raw.trim()) : '';
    if (inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside)) {
      throw new BadCall(`${tool} takes project-relative paths: give "${inside.split(path.sep).join('/')}" instead of "${raw}"`);
    }
    throw new BadCall(`${tool} refuses "${raw}": files outside the project are not readable; give a path relative to the project root`);
  }
  if (file.split('/').includes('..')) throw new BadCall(`${tool} refuses "${raw}": files outside the project are not readable; give a path inside the project without ".."`);
  const normalized = path.posix.normalize(file).replace(/\/+$/, '');
  if (normalized === '.') throw new BadCall(`${tool} needs "${key}" (a project-relative path)${given(raw)}`);
  return normalized;
}

/** Small local models often send numbers as strings ("12"); those count as integers. */
function integer(tool: string, args: Args, key: string, meaning: string, optional = false): number | undefined {
  const raw = args[key];
  if (raw === undefined || raw === null || raw === '') {
    if (optional) return undefined;
    throw new BadCall(`${tool} needs "${key}" (${meaning})`);
  }
  const value = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new BadCall(`${tool} needs "${key}" as a whole number${given(raw)}`);
  return value;
}

function someOf(items: readonly string[], limit = MAX_SUGGESTIONS): string {
  const more = items.length - limit;
  return items.slice(0, limit).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

/** The file's lines (without line endings), or a BadCall that says what exists instead. */
async function readLines(view: SourceView, file: string): Promise<string[]> {
  let text: string | undefined;
  try {
    text = await view.read(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
  }
  if (text !== undefined) {
    const lines = text.replace(/\r\n/g, '\n').split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines;
  }
  const inFolder = await view.list(`${escape(file)}/**`);
  if (inFolder.length > 0) throw new BadCall(`${file} is a folder, not a file; it holds ${someOf(inFolder)}`);
  const base = file.slice(file.lastIndexOf('/') + 1);
  const sameName = await view.list(`**/${escape(base)}`);
  throw new BadCall(sameName.length > 0 ? `no file ${file} in the project; files named ${base}: ${someOf(sameName)}` : `no file ${file} in the project, and no file named ${base} anywhere in it`);
}

const widthFor = (lineCount: number) => Math.max(4, String(lineCount).length);
const clip = (text: string) => (text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)} ... (line cut)` : text);
const numbered = (lines: readonly string[], n: number, width: number) => `${String(n).padStart(width)}| ${clip(lines[n - 1] ?? '')}`;
const span = (from: number, to: number) => (from === to ? `line ${from}` : `lines ${from}-${to}`);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

interface Declaration {
  kind: 'type' | 'method';
  name: string;
  /** The declaration up to its `{` or `;`, annotations dropped, on one line. */
  signature: string;
  /** Line of the declaration itself; `from` is earlier when annotations stand above it. */
  line: number;
  from: number;
  to: number;
  depth: number;
  /** Line of the `{` of its block; undefined when it has none. */
  blockOpen?: number;
}

const TYPE_NAME = /\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)/;
const METHOD_NAME = /([A-Za-z_$][\w$]*)\s*\(/;
/** A member ending in `;` shaped `Type name(...)`: an abstract or interface method, which has no brace block. */
const BODILESS_METHOD = /^[\w$<>[\],.? ]*[\w$>\]]\s+[A-Za-z_$][\w$]*\s*\([^()=]*\)(?:\s*throws\s+[\w$.,\s]+)?$/;

const linesBefore = (text: string, offset: number) => text.slice(0, offset).split('\n').length - 1;

/** Blanks annotations (with their arguments) in masked text, keeping offsets and line breaks. */
function blankAnnotations(text: string): string {
  const out = text.split('');
  for (const match of text.matchAll(/@(?!interface\b)\s*[A-Za-z_$][\w$.]*/g)) {
    let end = match.index + match[0].length;
    const paren = /^\s*\(/.exec(text.slice(end));
    if (paren) {
      let depth = 0;
      for (end += paren[0].length - 1; end < text.length; end++) {
        if (text[end] === '(') depth++;
        else if (text[end] === ')' && --depth === 0) break;
      }
      end++;
    }
    for (let i = match.index; i < end && i < out.length; i++) if (out[i] !== '\n') out[i] = ' ';
  }
  return out.join('');
}

/** `text` is masked source starting at line `firstLine`; undefined when it is only annotations. */
function declare(kind: Declaration['kind'], text: string, firstLine: number, to: number, depth: number): Declaration | undefined {
  const blanked = blankAnnotations(text);
  const lead = blanked.search(/\S/);
  if (lead < 0) return undefined;
  const signature = blanked.replace(/\s+/g, ' ').replace(/\(\s+/g, '(').replace(/\s+\)/g, ')').trim();
  const name = (kind === 'type' ? TYPE_NAME : METHOD_NAME).exec(signature)?.[1] ?? signature;
  return { kind, name, signature, line: firstLine + linesBefore(blanked, lead), from: firstLine + linesBefore(text, text.search(/\S/)), to, depth };
}

/** Types, methods and constructors of a Java file, in line order, with their nesting depth. */
function declarations(lines: readonly string[]): Declaration[] {
  const masked = maskCommentsAndLiterals(lines.join('\n')).split('\n');
  const blocks = findBraceBlocks(lines);
  const found: Declaration[] = [];
  const enclosing: Declaration[] = [];
  for (const block of blocks) {
    // A second block opening on the same line (`class Empty { Empty() { } }`) would get that line's declaration again.
    if (block.kind === 'other' || found.some((d) => d.blockOpen === block.open)) continue;
    const openLine = masked[block.open - 1] ?? '';
    const text = [...masked.slice(block.declarationStart - 1, block.open - 1), openLine.slice(0, Math.max(0, openLine.indexOf('{')))].join('\n');
    while (enclosing.length > 0 && (enclosing.at(-1) as Declaration).to < block.open) enclosing.pop();
    const declaration = declare(block.kind, text, block.declarationStart, block.close, enclosing.length);
    if (!declaration) continue;
    declaration.blockOpen = block.open;
    found.push(declaration);
    enclosing.push(declaration);
    if (block.kind !== 'type') continue;
    // Members of this type outside any inner block, split at `;`: fields, enum constants and bodiless methods.
    const inner = blocks.filter((b) => b !== block && b.open >= block.open && b.close <= block.close);
    const body = masked
      .slice(block.open - 1, block.close)
      .map((line, i) => {
        const n = block.open + i;
        if (inner.some((b) => b.declarationStart <= n && n <= b.close)) return '';
        return n === block.open ? line.slice(line.indexOf('{') + 1) : line;
      })
      .join('\n');
    let start = 0;
    let startLine = block.open;
    for (let i = body.indexOf(';'); i >= 0; start = i + 1, i = body.indexOf(';', start)) {
      const piece = body.slice(start, i);
      const endLine = startLine + linesBefore(piece, piece.length);
      const member = declare('method', piece, startLine, endLine, declaration.depth + 1);
      if (member && !member.signature.includes('=') && BODILESS_METHOD.test(member.signature)) found.push(member);
      startLine = endLine;
    }
  }
  return found.sort((a, b) => a.line - b.line || a.depth - b.depth);
}

const fileParameter: ToolParameter = { type: 'string', description: 'project-relative path, e.g. src/main/java/com/acme/App.java' };

export const readRange = defineTool(
  'read_range',
  `lines start..end of a project file with their numbers (at most ${MAX_LINES} per call; end defaults to start+${DEFAULT_LINES - 1})`,
  {
    file: fileParameter,
    start: { type: 'integer', description: 'first line to show, from 1' },
    end: { type: 'integer', description: `last line to show (inclusive), default start+${DEFAULT_LINES - 1}`, optional: true },
  },
  async (args, view) => {
    const file = projectPath('read_range', args, 'file', view);
    const start = integer('read_range', args, 'start', 'the first line to show, a whole number from 1') as number;
    if (start < 1) throw new BadCall(`read_range needs "start" to be 1 or more, got ${start}`);
    const end = integer('read_range', args, 'end', 'the last line to show', true) ?? start + DEFAULT_LINES - 1;
    if (end < start) throw new BadCall(`read_range needs "end" (${end}) to be at least "start" (${start})`);
    const lines = await readLines(view, file);
    if (lines.length === 0) return { ok: false, output: `${file} is empty` };
    if (start > lines.length) return { ok: false, output: `${file} has ${plural(lines.length, 'line', 'lines')}; start ${start} is past its end` };
    const last = Math.min(end, lines.length);
    const width = widthFor(lines.length);
    const shown = Array.from({ length: Math.min(last, start + MAX_LINES - 1) - start + 1 }, (_, i) => numbered(lines, start + i, width));
    const clamped = end > lines.length ? `(the file has ${plural(lines.length, 'line', 'lines')})` : '';
    const tail = (k: number) => [start + k <= last ? `... ${span(start + k, last)} not shown: ask for them with another read_range` : '', clamped].filter(Boolean).join(' ');
    return { ok: true, output: fit(shown, tail) };
  },
);

export const searchCodeBase = defineTool(
  'search_code_base',
  `find a literal, case-sensitive text (not a regex) in the project's files; lists path:line: text, at most ${MAX_HITS} hits`,
  {
    pattern: { type: 'string', description: 'the exact text to look for, e.g. calculateTotal(' },
    glob: { type: 'string', description: 'which files, e.g. src/test/**/*.java; a glob without / matches file names anywhere; default **/*.java', optional: true },
  },
  async (args, view) => {
    const pattern = args.pattern;
    if (typeof pattern !== 'string' || pattern === '') throw new BadCall(`search_code_base needs "pattern" (the text to look for)${given(pattern)}`);
    if (/[\r\n]/.test(pattern)) throw new BadCall('search_code_base matches within one line: "pattern" cannot hold a line break');
    const rawGlob = args.glob ?? '';
    if (typeof rawGlob !== 'string') throw new BadCall(`search_code_base needs "glob" as text such as "**/*.java"${given(rawGlob)}`);
    let glob = rawGlob.trim().replace(/\\/g, '/') || '**/*.java';
    if (glob.startsWith('/') || glob.split('/').includes('..')) throw new BadCall(`search_code_base refuses glob "${rawGlob}": files outside the project are not readable`);
    if (!glob.includes('/')) glob = `**/${glob}`;
    const files = [...(await view.list(glob))].sort();
    const hits: string[] = [];
    let total = 0;
    for (const file of files) {
      const text = await view.read(file);
      // Jars and class files match globs like **/* and would print noise.
      if (text === undefined || text.includes('\0')) continue;
      text.replace(/\r\n/g, '\n').split('\n').forEach((line, i) => {
        if (!line.includes(pattern)) return;
        total++;
        if (hits.length < MAX_HITS) hits.push(`${file}:${i + 1}: ${clip(line.trim())}`);
      });
    }
    if (total === 0) {
      const none = files.length === 0 ? ` (no file matches the glob ${JSON.stringify(glob)})` : '';
      return { ok: true, output: `no match for ${JSON.stringify(pattern)} in ${plural(files.length, 'file', 'files')}${none}` };
    }
    const tail = (k: number) => (total > k ? `... ${plural(total - k, 'more match', 'more matches')} not shown: narrow the pattern or the glob` : '');
    return { ok: true, output: fit(hits, tail) };
  },
);

export const getClassesAndMethods = defineTool(
  'get_classes_and_methods',
  'outline of a Java file: its classes, interfaces, enums, records, methods and constructors with their line numbers',
  { file: fileParameter },
  async (args, view) => {
    const file = projectPath('get_classes_and_methods', args, 'file', view);
    const lines = await readLines(view, file);
    const found = declarations(lines);
    if (found.length === 0) return { ok: true, output: `no class, interface, enum, record or method found in ${file} (${plural(lines.length, 'line', 'lines')})` };
    const width = widthFor(lines.length);
    const rows = found.map((d) => `${String(d.line).padStart(width)}: ${'  '.repeat(d.depth)}${d.signature}`);
    const tail = (k: number) => (k < found.length ? `... ${plural(found.length - k, 'more declaration', 'more declarations')} not shown: read them with read_range from line ${found[k]?.line}` : '');
    return { ok: true, output: fit(rows, tail) };
  },
);

export const extractMethod = defineTool(
  'extract_method',
  'the full source of the methods or constructors with this name in a file (every overload), with line numbers',
  { file: fileParameter, method: { type: 'string', description: 'method or constructor name, e.g. add' } },
  async (args, view) => {
    const file = projectPath('extract_method', args, 'file', view);
    const raw = args.method;
    if (typeof raw !== 'string' || raw.trim() === '') throw new BadCall(`extract_method needs "method" (a method or constructor name)${given(raw)}`);
    // Models write `Calculator.add(int, int)` or `Calculator#add` as often as `add`.
    const wanted = raw.split('(')[0]?.trim().split(/[.#]/).at(-1) ?? '';
    if (!/^[A-Za-z_$][\w$]*$/.test(wanted)) throw new BadCall(`extract_method needs "method" as a name such as add${given(raw)}`);
    const lines = await readLines(view, file);
    const methods = declarations(lines).filter((d) => d.kind === 'method');
    const matching = methods.filter((d) => d.name === wanted);
    if (matching.length === 0) {
      const names = [...new Set(methods.map((d) => d.name))];
      return { ok: false, output: names.length > 0 ? `no method ${wanted} in ${file}; its methods are: ${someOf(names, MAX_NAMES)}` : `no method ${wanted} in ${file}: it declares no methods or constructors` };
    }
    const width = widthFor(lines.length);
    /** The source line of each row; 0 for the blank rows between overloads. */
    const numbers: number[] = [];
    for (const [i, method] of matching.entries()) {
      if (i > 0) numbers.push(0);
      for (let n = method.from; n <= method.to; n++) numbers.push(n);
    }
    const rows = numbers.map((n) => (n === 0 ? '' : numbered(lines, n, width)));
    const tail = (k: number) => (k < rows.length ? `... cut at the output limit: read the rest with read_range from line ${numbers.slice(k).find((n) => n > 0)}` : '');
    return { ok: true, output: fit(rows, tail) };
  },
);

export const CODE_TOOLS: readonly AgentTool[] = [readRange, searchCodeBase, getClassesAndMethods, extractMethod];
