/**
 * Between a small model's tool call and the tool: what is mechanically wrong with a call
 * is corrected here, and the model is told the correction in one line, so that a
 * misspelled name or a path with the module prefix missing costs nothing instead of a
 * wasted step. What cannot be decided mechanically (two tools fit the name equally well,
 * two files have the name) is not guessed: the model is asked again.
 *
 * - tool names: case and separators (`readRange`), common synonyms (`show_method`),
 *   then a word-by-word edit distance in which verbs of one kind (show/get/read/extract)
 *   cost little (`extract_similar_functions_calls` -> find_similar_api_calls);
 * - argument names: the spellings models use for each parameter (`path`, `file_path`,
 *   `start_line`), then a character edit distance of at most 2;
 * - argument values: numbers written as text;
 * - code named the way models name it (`"class": "OrderService"`, `OrderService#total`,
 *   `Utils.java line 50`, a CI runner's path, `"lines": "10-20"`): code-arguments.ts looks
 *   it up and places it, or answers with the candidates, or with the nearest names;
 * - anything left over is dropped, with a note.
 */
import type { SourceView, ToolParameter } from '../../plugins/contracts.js';
import { editDistance } from '../../shared/similar.js';
import { placeCode, takeCodeExtras } from './code-arguments.js';
import { subTokens } from './sub-tokens.js';

export interface ToolSignature {
  name: string;
  parameters: Record<string, ToolParameter>;
}

export type NameResolution = { tool: string; correction?: string } | { unknown: string; candidates: string[] };

/** Names models give the built-in tools, in the words of other agents and editors. */
const NAME_ALIASES: Record<string, string> = {
  read_file: 'read_range',
  open_file: 'read_range',
  view_file: 'read_range',
  show_file: 'read_range',
  cat: 'read_range',
  read_lines: 'read_range',
  get_file_content: 'read_range',
  grep: 'search_code_base',
  search: 'search_code_base',
  search_code: 'search_code_base',
  find_in_files: 'search_code_base',
  outline: 'get_classes_and_methods',
  file_outline: 'get_classes_and_methods',
  list_methods: 'get_classes_and_methods',
  get_outline: 'get_classes_and_methods',
  get_test_code: 'extract_test_code',
  show_test: 'extract_test_code',
  extract_similar_functions_calls: 'find_similar_api_calls',
  run_test: 'run_tests',
  test: 'run_tests',
  build: 'run_tests',
  hypothesis: 'express_hypothesis',
  apply_patch: 'write_fix',
  submit_fix: 'write_fix',
  write_patch: 'write_fix',
  propose_fix: 'write_fix',
  try_fixes: 'write_fix',
  fix: 'write_fix',
  go_back_to_collect_more_info: 'collect_more_information',
  done: 'goals_accomplished',
  finish: 'goals_accomplished',
};

/** Verbs that ask for the same thing; swapping one for another costs a quarter of a word. */
const VERB_KINDS: readonly (readonly string[])[] = [
  [
    'show',
    'get',
    'view',
    'read',
    'extract',
    'fetch',
    'display',
    'print',
    'open',
    'see',
    'inspect',
    'dump',
    'cat',
    'list',
    'find',
    'lookup',
    'look',
    'search',
    'grep',
    'locate',
    'query',
    'retrieve',
  ],
  ['run', 'execute', 'exec', 'launch', 'start', 'invoke'],
  ['write', 'apply', 'submit', 'propose', 'commit', 'save', 'edit', 'patch', 'make', 'try'],
  ['express', 'state', 'give', 'set', 'declare'],
];

/** How a model may write a tool name: `readRange`, `Read-Range`, `functions.read_range`, `read_range()`. */
export function normaliseName(name: string): string {
  return subTokens(
    name
      .trim()
      .replace(/\(.*\)$/, '')
      .replace(/^(?:functions|tools?)\./i, ''),
  ).join('_');
}

const stem = (word: string) =>
  word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

function wordCost(a: string, b: string): number {
  if (a === b || stem(a) === stem(b)) return 0;
  if (VERB_KINDS.some((kind) => kind.includes(a) && kind.includes(b))) return 0.25;
  if (Math.min(a.length, b.length) >= 4 && editDistance(a, b) <= 1) return 0.5;
  return 1;
}

/**
 * Word-level edit distance between two names, divided by the longer one's word count: 0 is the same, 1 all different.
 */
export function nameDistance(a: string, b: string): number {
  const x = a.split('_').filter(Boolean);
  const y = b.split('_').filter(Boolean);
  const row = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + wordCost(x[i - 1]!, y[j - 1]!));
      diagonal = above;
    }
  }
  return row[y.length]! / Math.max(x.length, y.length, 1);
}

const CLOSE_ENOUGH = 0.5;
const CLEAR_LEAD = 0.1;

/** The tool a name means, or the names it could mean when that is not clear. */
export function resolveToolName(raw: string, known: readonly string[]): NameResolution {
  if (known.includes(raw)) return { tool: raw };
  const name = normaliseName(raw);
  const correct = (tool: string): NameResolution => ({ tool, correction: `${raw} → ${tool}` });
  if (known.includes(name)) return correct(name);
  const alias = NAME_ALIASES[name];
  if (alias && known.includes(alias)) return correct(alias);
  // A typo in one word: read_rnage.
  const typo = known.filter((tool) => editDistance(tool, name) <= 2);
  if (typo.length === 1) return correct(typo[0]!);
  const ranked = known
    .map((tool) => ({ tool, distance: nameDistance(name, tool) }))
    .sort((a, b) => a.distance - b.distance);
  const [best, second] = ranked;
  if (best && best.distance < CLOSE_ENOUGH && (!second || second.distance > best.distance + CLEAR_LEAD))
    return correct(best.tool);
  // Every word given, in order, in exactly one tool's name: `search` for search_code_base.
  const words = name.split('_');
  const containing = known.filter((tool) => inOrder(words, tool.split('_')));
  if (containing.length === 1) return correct(containing[0]!);
  return {
    unknown: raw,
    candidates: ranked
      .filter((entry) => entry.distance <= 0.75)
      .slice(0, 3)
      .map((entry) => entry.tool),
  };
}

function inOrder(words: string[], within: string[]): boolean {
  let at = 0;
  for (const word of words) {
    while (at < within.length && stem(within[at]!) !== stem(word)) at++;
    if (at === within.length) return false;
    at++;
  }
  return words.length > 0;
}

/** Argument names models use, per parameter name of the built-in tools. */
const ARGUMENT_ALIASES: Record<string, readonly string[]> = {
  file: [
    'path',
    'file_path',
    'filepath',
    'filename',
    'file_name',
    'source_file',
    'test_file_path',
    'class_file',
    'location',
    'class_path',
  ],
  start: ['start_line', 'startline', 'line_start', 'from', 'from_line', 'begin', 'first_line', 'line'],
  end: ['end_line', 'endline', 'line_end', 'to', 'to_line', 'last_line'],
  line: ['line_number', 'lineno', 'at_line'],
  method: ['method_name', 'name', 'function', 'function_name'],
  pattern: [
    'query',
    'text',
    'search',
    'keyword',
    'keywords',
    'key_words',
    'term',
    'string',
    'regex',
    'identifier',
    'search_term',
  ],
  glob: ['files', 'file_pattern', 'include', 'path_glob'],
  test: ['test_name', 'test_method', 'name', 'method', 'test_case'],
  call: ['code_snippet', 'snippet', 'method', 'method_name', 'name', 'api', 'function', 'call_expression'],
  hypothesis: ['text', 'description', 'cause', 'reason'],
  reason: ['reason_for_discarding', 'reason_for_going_back', 'why', 'explanation'],
  patch: ['diff', 'fix', 'changes', 'code', 'changes_dicts', 'edit'],
  patches: ['candidates', 'fixes', 'fixes_list', 'diffs'],
};

export interface CoercedCall {
  args: Record<string, unknown>;
  /** Each correction in a few words, for the one-line note. */
  corrections: string[];
  /** The answer instead of running the tool: the candidates a name fits, the nearest names, or the form that works. */
  answer?: string;
}

/** Parameters through which a tool reads code: only such tools get code names looked up. */
const CODE_PARAMETERS = ['file', 'class', 'method', 'glob', 'start', 'line', 'call', 'pattern', 'test'];

/** The arguments as the tool expects them: names, numbers, code names and paths corrected, the rest dropped. */
export async function coerceArguments(
  tool: ToolSignature,
  raw: Record<string, unknown>,
  view: SourceView,
): Promise<CoercedCall> {
  const parameters = tool.parameters;
  const corrections: string[] = [];
  const args: Record<string, unknown> = {};
  const leftOver: [string, unknown][] = [];
  const given = { ...(raw ?? {}) };
  // {"class": "FooTest", "method": "bar"} for a tool that takes the test as FooTest#bar.
  const classKey = ['class', 'class_name', 'className', 'test_class', 'testClass'].find(
    (key) => typeof given[key] === 'string',
  );
  const methodKey = ['method', 'method_name', 'methodName', 'test_method'].find(
    (key) => typeof given[key] === 'string',
  );
  if ('test' in parameters && given.test === undefined && classKey && methodKey) {
    given.test = `${String(given[classKey])}#${String(given[methodKey])}`;
    corrections.push(`"${classKey}" and "${methodKey}" → "test" ${JSON.stringify(given.test)}`);
    delete given[classKey];
    delete given[methodKey];
  }
  const readsCode = CODE_PARAMETERS.some((name) => name in parameters);
  const takes = (key: string) =>
    Object.keys(parameters).some((name) => name === key || (ARGUMENT_ALIASES[name] ?? []).includes(key));
  const extras = readsCode ? takeCodeExtras(parameters, given, takes) : {};
  for (const [key, value] of Object.entries(given)) {
    if (key in parameters) args[key] = value;
    else leftOver.push([key, value]);
  }
  for (const [key, value] of leftOver) {
    const normalised = normaliseName(key);
    const target =
      (normalised in parameters && !(normalised in args) ? normalised : undefined) ??
      Object.keys(parameters).find((name) => !(name in args) && (ARGUMENT_ALIASES[name] ?? []).includes(normalised)) ??
      Object.keys(parameters).find(
        (name) => !(name in args) && name.length >= 4 && editDistance(name, normalised) <= 2,
      );
    if (target) {
      args[target] = value;
      corrections.push(`"${key}" → "${target}"`);
    } else {
      corrections.push(`dropped unknown "${key}"`);
    }
  }
  for (const [name, parameter] of Object.entries(parameters)) {
    const value = args[name];
    if (value === undefined) continue;
    if (parameter.type === 'integer') {
      const number = asInteger(value);
      if (number !== undefined && number !== value) {
        args[name] = number;
        corrections.push(`${JSON.stringify(value)} → ${number}`);
      }
    } else if (
      parameter.type === 'string' &&
      Array.isArray(value) &&
      value.length === 1 &&
      typeof value[0] === 'string'
    ) {
      args[name] = value[0];
      corrections.push(`"${name}" as text`);
    } else if (parameter.type === 'string[]' && typeof value === 'string') {
      args[name] = [value];
    }
  }
  if (!readsCode) return { args, corrections };
  const placed = await placeCode(tool, args, extras, view);
  corrections.push(...placed.corrections);
  return { args, corrections, ...(placed.answer !== undefined ? { answer: placed.answer } : {}) };
}

function asInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(?:line\s*)?(-?\d+)(?:\.0+)?\s*$/i.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** The one line that tells the model what was corrected, or '' when nothing was. */
export function describeCorrections(corrections: readonly string[]): string {
  return corrections.length === 0 ? '' : `(mvnx corrected your call: ${corrections.join('; ')})`;
}
