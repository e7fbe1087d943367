/**
 * find_similar_api_calls: how the rest of the project calls a method (same name first,
 * then similar names), found with src/java's parser, so that the model copies how the code
 * base uses an API.
 */
import {
  findMethodCalls,
  lineAt,
  methodAt,
  outline,
  typeAt,
  viewJavaFile,
  type JavaSourceFile,
} from '../../../java/index.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../../../plugins/contracts.js';
import { subTokens } from '../sub-tokens.js';
import {
  BadCall,
  clip,
  defineTool,
  fit,
  given,
  integer,
  plural,
  projectPath,
  text,
  toLines,
  type Args,
} from './support/tool-kit.js';
import { editDistance } from '../../../shared/similar.js';

// The one Levenshtein distance, named here too for the agent's tools and their tests.
export { editDistance };

const MAX_PARSED_FILES = 150;
const MAX_CALLS_SHOWN = 25;
const CALL_NAME = /([A-Za-z_$][\w$]*)\s*\(/g;
const COMMON_WORDS = new Set([
  'get',
  'set',
  'has',
  'can',
  'for',
  'with',
  'add',
  'put',
  'new',
  'create',
  'make',
  'from',
  'the',
  'and',
]);
const KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'new',
  'synchronized',
  'super',
  'this',
  'try',
  'throw',
  'else',
  'assert',
]);

/** Names close enough to be the same idea: a small typo, or most of the same words. */
export function similarName(a: string, b: string): boolean {
  if (a === b || a.length < 3 || b.length < 3) return false;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return true;
  if (editDistance(x, y) <= Math.max(1, Math.floor(Math.min(x.length, y.length) / 4))) return true;
  const left = new Set(subTokens(a));
  const right = new Set(subTokens(b));
  // Sharing only a verb (`get` of getName and getValue) says nothing about what the methods do.
  const shared = [...left].filter((word) => right.has(word) && word.length >= 3 && !COMMON_WORDS.has(word)).length;
  return (
    shared > 0 &&
    shared >= Math.ceil(Math.min(left.size, right.size) / 2) &&
    Math.max(left.size, right.size) <= shared + 2
  );
}

/** The method name a snippet calls: the last `name(` in it, or the bare name. */
function calledName(raw: string): string | undefined {
  const names = [...raw.matchAll(CALL_NAME)].map((match) => match[1]!).filter((name) => !KEYWORDS.has(name));
  if (names.length > 0) return names.at(-1);
  const bare = raw.trim().split(/[.#]/).at(-1)?.trim() ?? '';
  return /^[A-Za-z_$][\w$]*$/.test(bare) ? bare : undefined;
}

interface FoundCall {
  file: string;
  line: number;
  name: string;
  /** `Class.method` the call is in. */
  within?: string;
}

export const findSimilarApiCalls = defineTool(
  'find_similar_api_calls',
  'how the project calls a method elsewhere (same name, then similar names) and methods declared with a similar name',
  {
    call: { type: 'string', description: 'a method or a call as written, e.g. discount.apply(total, 10)' },
    file: {
      type: 'string',
      description: 'the file of your call, to leave it out (with line)',
      optional: true,
    },
    line: { type: 'integer', description: 'the line of your call', optional: true },
  },
  async (args: Args, view) => {
    const raw = text('find_similar_api_calls', args, 'call', 'a method name or the call as written');
    const name = calledName(raw!);
    if (!name)
      throw new BadCall(
        `find_similar_api_calls needs "call" as a method name or a call such as list.add(x)${given(raw)}`,
      );
    const own = args.file !== undefined ? projectPath('find_similar_api_calls', args, 'file', view) : undefined;
    const ownLine = integer('find_similar_api_calls', args, 'line', 'the line of the call in "file"', true);
    const files = [...(await view.list('**/*.java'))].sort();
    // The parser takes milliseconds per file: only files whose text names a candidate are parsed.
    const candidates = new Set<string>();
    const texts = new Map<string, string>();
    for (const file of files) {
      const content = await view.read(file);
      if (content === undefined || content.length > 1_000_000) continue;
      let named = false;
      for (const match of content.matchAll(CALL_NAME)) {
        const found = match[1]!;
        if (found === name || similarName(found, name)) {
          candidates.add(found);
          named = true;
        }
      }
      if (named) texts.set(file, content);
    }
    const calls: FoundCall[] = [];
    const declared: { file: string; line: number; signature: string; name: string }[] = [];
    let parsed = 0;
    let skipped = 0;
    for (const file of [...texts.keys()]) {
      if (parsed >= MAX_PARSED_FILES) {
        skipped++;
        continue;
      }
      parsed++;
      const viewed = await viewJavaFile(view, file);
      if (!viewed?.parsed.ok) continue;
      texts.set(file, viewed.text);
      const entries = outline(viewed.parsed.file);
      for (const call of findMethodCalls(viewed.parsed.file, (found) => candidates.has(found.name))) {
        const line = lineOfName(viewed.text, call.range.start, call.range.end, call.name);
        // The call the model is looking at is no example of how others call it.
        if (file === own && ownLine === line) continue;
        calls.push({ file, line, name: call.name, ...withinOf(viewed.parsed.file, call.range.start) });
      }
      for (const entry of entries) {
        if (entry.kind !== 'type' && (entry.name === name || candidates.has(entry.name)))
          declared.push({ file, line: entry.line, signature: entry.signature, name: entry.name });
      }
    }
    const lineText = (file: string, line: number) => clip((toLines(texts.get(file) ?? '')[line - 1] ?? '').trim());
    const render = (call: FoundCall) =>
      `${call.file}:${call.line}: ${lineText(call.file, call.line)}${call.within ? `  (in ${call.within})` : ''}`;
    const same = calls.filter((call) => call.name === name);
    const similar = calls.filter((call) => call.name !== name);
    const rows: string[] = [];
    rows.push(same.length > 0 ? `calls of ${name} (${same.length}):` : `no call of ${name} elsewhere in the project`);
    rows.push(...same.slice(0, MAX_CALLS_SHOWN).map(render));
    if (similar.length > 0) {
      rows.push(`calls of similar names (${[...new Set(similar.map((call) => call.name))].join(', ')}):`);
      rows.push(...similar.slice(0, MAX_CALLS_SHOWN).map((call) => `${render(call)}  [${call.name}]`));
    }
    if (declared.length > 0) {
      rows.push(`declared methods named ${name} or similar:`);
      rows.push(
        ...declared.slice(0, MAX_CALLS_SHOWN).map((entry) => `${entry.file}:${entry.line}: ${entry.signature}`),
      );
    }
    if (skipped > 0)
      rows.push(
        `(${plural(skipped, 'more file names', 'more files name')} these methods and was not read: narrow with search_code_base)`,
      );
    const tail = (k: number) =>
      k < rows.length ? '... cut at the output limit: ask search_code_base for a narrower pattern' : '';
    return { ok: true, output: fit(rows, tail, MAX_TOOL_OUTPUT_CHARS) };
  },
);

/** The line the call's name is written on (a chain may start lines earlier). */
function lineOfName(content: string, start: number, end: number, name: string): number {
  const piece = content.slice(start, end);
  const at = piece.lastIndexOf(`${name}`);
  return lineAt(content, start + (at >= 0 ? at : 0));
}

function withinOf(file: JavaSourceFile, offset: number): { within?: string } {
  const owner = typeAt(file, { offset });
  const method = methodAt(file, { offset })?.method;
  if (!method) return owner ? { within: owner.name } : {};
  return { within: `${owner?.name ?? '?'}.${method.name}` };
}
