/**
 * The tools that read Java as Java, through src/java's parser: a file's outline, one
 * method, a failing test with what runs before it, and how the rest of the project calls
 * a method. A file that does not parse is answered with the parse error and a pointer to
 * read_range, never with a guess.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { findMethodCalls, findTestCode, lineAt, methodAt, outline, typeAt, viewJavaFile, type JavaSourceFile } from '../../java/index.js';
import { MAX_TOOL_OUTPUT_CHARS, type SourceView } from '../../plugins/contracts.js';
import { renderCall } from './code-arguments.js';
import { isTestFile, lookUpCode, typesNamed } from './code-index.js';
import { fileParameter } from './read-tools.js';
import { subTokens } from './sub-tokens.js';
import { BadCall, clip, defineTool, fit, given, integer, MAX_NAMES, numbered, plural, projectPath, readJava, someOf, text, toLines, widthFor, type Args } from './tool-kit.js';
import { editDistance } from '../../shared/similar.js';

// The one Levenshtein distance, named here too for the agent's tools and their tests.
export { editDistance };

export const getClassesAndMethods = defineTool(
  'get_classes_and_methods',
  'outline of a Java file: its classes, interfaces, enums, records, methods and constructors with their line numbers',
  { file: fileParameter },
  async (args, view) => {
    const file = projectPath('get_classes_and_methods', args, 'file', view);
    const { lines, java } = await readJava('get_classes_and_methods', view, file);
    const found = outline(java);
    if (found.length === 0) return { ok: true, output: `no class, interface, enum, record or method found in ${file} (${plural(lines.length, 'line', 'lines')})` };
    const width = widthFor(lines.length);
    const rows = found.map((entry) => `${String(entry.line).padStart(width)}: ${'  '.repeat(entry.depth)}${entry.signature}`);
    const tail = (k: number) => (k < found.length ? `... ${plural(found.length - k, 'more declaration', 'more declarations')} not shown: read them with read_range from line ${found[k]?.line}` : '');
    return { ok: true, output: fit(rows, tail) };
  },
);

/** `Calculator.add(int, int)`, `Calculator#add` and `add` all name `add`. */
function methodName(tool: string, raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new BadCall(`${tool} needs "method" (a method or constructor name)${given(raw)}`);
  const wanted = raw.split('(')[0]?.trim().split(/[.#]/).at(-1) ?? '';
  if (!/^[A-Za-z_$][\w$]*$/.test(wanted)) throw new BadCall(`${tool} needs "method" as a name such as add${given(raw)}`);
  return wanted;
}

/** Rows of line-numbered source for several line ranges, a blank row between ranges; `marks` get `>>`. */
function numberedRanges(lines: readonly string[], ranges: { from: number; to: number }[], marks: ReadonlySet<number> = new Set()): { rows: string[]; numbers: number[] } {
  const width = widthFor(lines.length);
  const numbers: number[] = [];
  for (const [index, range] of ranges.entries()) {
    if (index > 0) numbers.push(0);
    for (let n = range.from; n <= range.to; n++) numbers.push(n);
  }
  const rows = numbers.map((n) => (n === 0 ? '' : `${marks.size > 0 ? (marks.has(n) ? '>>' : '  ') : ''}${numbered(lines, n, width)}`));
  return { rows, numbers };
}

export const extractMethod = defineTool(
  'extract_method',
  'the full source of the methods or constructors with this name in a file (every overload), with line numbers',
  { file: fileParameter, method: { type: 'string', description: 'method or constructor name, e.g. add' } },
  async (args, view) => {
    const file = projectPath('extract_method', args, 'file', view);
    const wanted = methodName('extract_method', args.method);
    const { lines, java } = await readJava('extract_method', view, file);
    const methods = outline(java).filter((entry) => entry.kind !== 'type');
    const matching = methods.filter((entry) => entry.name === wanted);
    if (matching.length === 0) {
      const names = [...new Set(methods.map((entry) => entry.name))];
      return { ok: false, output: names.length > 0 ? `no method ${wanted} in ${file}; its methods are: ${someOf(names, MAX_NAMES)}` : `no method ${wanted} in ${file}: it declares no methods or constructors` };
    }
    const { rows, numbers } = numberedRanges(
      lines,
      matching.map((entry) => ({ from: entry.range.startLine, to: entry.range.endLine })),
    );
    const tail = (k: number) => (k < rows.length ? `... cut at the output limit: read the rest with read_range from line ${numbers.slice(k).find((n) => n > 0)}` : '');
    return { ok: true, output: fit(rows, tail) };
  },
);

interface TestTarget {
  className?: string;
  method: string;
}

/** `com.acme.FooTest#bar`, `FooTest.bar`, `FooTest#bar()` or `bar`. */
function parseTestName(raw: string): TestTarget {
  const cleaned = raw.replace(/\(.*\)\s*$/, '').trim();
  if (cleaned.includes('#')) {
    const [className, method] = cleaned.split('#');
    return { className: className!.trim(), method: method!.trim() };
  }
  const parts = cleaned.split('.');
  const last = parts.at(-1) ?? '';
  if (parts.length > 1 && /^[a-z_$]/.test(last)) return { className: parts.slice(0, -1).join('.'), method: last };
  return { method: cleaned };
}

/** A failing test of the diagnosis, as `Class#method` with what it says. */
function failingTests(diagnostics: readonly Diagnostic[] | undefined): { className: string; method: string; diagnostic: Diagnostic }[] {
  return (diagnostics ?? []).flatMap((diagnostic) => {
    const name = diagnostic.test ?? (diagnostic.testFailure ? `${diagnostic.testFailure.className}#${diagnostic.testFailure.method}` : undefined);
    if (!name || !name.includes('#')) return [];
    const [className, method] = name.split('#') as [string, string];
    return [{ className, method: method.replace(/[[(].*$/, ''), diagnostic }];
  });
}

/** The line of the test method the failure happened on, from the stack trace (`at a.FooTest.bar(FooTest.java:17)`). */
function failingLine(diagnostic: Diagnostic | undefined, className: string, method: string, file: string): number | undefined {
  if (!diagnostic) return undefined;
  const outer = className.split('$')[0]!;
  const frame = new RegExp(`at ${escapeRegExp(className)}\\.${escapeRegExp(method)}\\([^:)]*:(\\d+)\\)`).exec(diagnostic.testFailure?.stackTrace ?? '');
  if (frame) return Number(frame[1]);
  const anyFrame = new RegExp(`at ${escapeRegExp(outer)}[.$][\\w$.]*\\([^:)]*:(\\d+)\\)`).exec(diagnostic.testFailure?.stackTrace ?? '');
  if (anyFrame) return Number(anyFrame[1]);
  return diagnostic.file === file ? diagnostic.line : undefined;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The file of a test class, main sources only when no test source declares it; several are answered with a call for each. */
async function testFile(view: SourceView, className: string, method: string): Promise<string> {
  const outer = className.split('$')[0]!;
  const found = await typesNamed(view, outer);
  if (found.length === 0) {
    const looked = await lookUpCode(view, { readings: [{ type: outer }] });
    const nearest = 'nearest' in looked && looked.nearest.length > 0 ? `; nearest names: ${looked.nearest.join(', ')}` : '';
    throw new BadCall(`extract_test_code found no class ${outer} in the project${nearest}; give the test as ${renderCall('extract_test_code', { test: `com.acme.FooTest#${method}` })}, or its "file"`);
  }
  const tests = found.filter((site) => isTestFile(site.file));
  const chosen = [...new Set((tests.length > 0 ? tests : found).map((site) => site.file))];
  if (chosen.length > 1) {
    const calls = chosen.map((file) => `- ${file}: ${renderCall('extract_test_code', { test: `${className}#${method}`, file })}`);
    throw new BadCall([`${outer} is declared in ${chosen.length} files; call again with the one you mean:`, ...calls].join('\n'));
  }
  return chosen[0]!;
}

export const extractTestCode = defineTool(
  'extract_test_code',
  'a failing test method with the fields and set-up methods of its class, the line where it failed marked >>; without arguments, the first failing test',
  {
    test: { type: 'string', description: 'the test as com.acme.FooTest#method (default: the first failing test)', optional: true },
    file: { type: 'string', description: 'the test file, when the class name does not find it', optional: true },
  },
  async (args, view, context) => {
    const failing = failingTests(context.diagnostics);
    const asked = text('extract_test_code', args, 'test', 'the test, e.g. com.acme.FooTest#method', true);
    let target: TestTarget;
    if (asked) {
      target = parseTestName(asked);
      if (!target.className) {
        const known = failing.find((test) => test.method === target.method);
        if (known) target = { className: known.className, method: target.method };
      }
    } else {
      // A file given: its own failing test, not the first of the build.
      const base = typeof args.file === 'string' ? args.file.replace(/^.*[\\/]/, '').replace(/\.java$/, '') : undefined;
      const first = failing.find((test) => base !== undefined && test.className.split(/[.$]/).includes(base)) ?? failing[0];
      if (!first) throw new BadCall('extract_test_code needs "test" (com.acme.FooTest#method): no test failed in this build');
      target = { className: first.className, method: first.method };
    }
    if (!/^[A-Za-z_$][\w$]*$/.test(target.method)) throw new BadCall(`extract_test_code needs "test" as Class#method${given(asked)}`);
    const file = args.file !== undefined ? projectPath('extract_test_code', args, 'file', view) : target.className ? await testFile(view, target.className, target.method) : undefined;
    if (!file) throw new BadCall(`extract_test_code needs the class of ${target.method}: give "test" as Class#method, or "file"`);
    const { lines, java } = await readJava('extract_test_code', view, file);
    const className = target.className?.replace(/^.*\./, '').split('$').at(-1);
    const code = findTestCode(java, target.method, className);
    if (!code) {
      const tests = outline(java).filter((entry) => entry.kind === 'method').map((entry) => entry.name);
      return { ok: false, output: `no test method ${target.method} in ${file}${tests.length > 0 ? `; its methods are: ${someOf([...new Set(tests)], MAX_NAMES)}` : ''}` };
    }
    const failure = failing.find((test) => test.method === target.method && (!target.className || test.className.endsWith(target.className.replace(/^.*\./, ''))));
    const failedAt = failingLine(failure?.diagnostic, failure?.className ?? code.type.binaryName, target.method, file);
    const inTest = failedAt !== undefined && code.tests.some((test) => test.range.startLine <= failedAt && failedAt <= test.range.endLine);
    const marks = new Set(inTest ? [failedAt] : code.assertionLines);
    const section = (title: string, ranges: { from: number; to: number }[]) => (ranges.length === 0 ? [] : [title, ...numberedRanges(lines, ranges, marks).rows]);
    const rows = [
      `${code.type.binaryName}#${target.method} in ${file}`,
      ...(failure ? [`failed: ${clip(failure.diagnostic.message)}`] : []),
      ...section('fields:', code.fields.filter((field, index, all) => all.findIndex((other) => other.range.start === field.range.start) === index).map((field) => ({ from: field.range.startLine, to: field.range.endLine }))),
      ...section('initializer blocks:', code.initializers.map((block) => ({ from: block.range.startLine, to: block.range.endLine }))),
      ...section('set-up and tear-down:', code.setup.map((method) => ({ from: method.range.startLine, to: method.range.endLine }))),
      inTest ? `test (>> marks line ${failedAt}, where it failed):` : `test (>> marks its assertions${failure ? '; the failing line is not known' : ''}):`,
      ...numberedRanges(lines, code.tests.map((test) => ({ from: test.range.startLine, to: test.range.endLine })), marks).rows,
    ];
    const tail = (k: number) => (k < rows.length ? '... cut at the output limit: read the rest with read_range or extract_method' : '');
    return { ok: true, output: fit(rows, tail) };
  },
);

const MAX_PARSED_FILES = 150;
const MAX_CALLS_SHOWN = 25;
const CALL_NAME = /([A-Za-z_$][\w$]*)\s*\(/g;
const COMMON_WORDS = new Set(['get', 'set', 'has', 'can', 'for', 'with', 'add', 'put', 'new', 'create', 'make', 'from', 'the', 'and']);
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'new', 'synchronized', 'super', 'this', 'try', 'throw', 'else', 'assert']);

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
  return shared > 0 && shared >= Math.ceil(Math.min(left.size, right.size) / 2) && Math.max(left.size, right.size) <= shared + 2;
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
  'how the project calls a method elsewhere (same name first, then similar names), one line each, and declared methods with a similar name: copy how the code base uses an API',
  {
    call: { type: 'string', description: 'the method, or the call as written, e.g. discount.apply(total, 10)' },
    file: { type: 'string', description: 'the file of the call you are looking at, to leave it out (with "line")', optional: true },
    line: { type: 'integer', description: 'the line of that call in "file"', optional: true },
  },
  async (args: Args, view) => {
    const raw = text('find_similar_api_calls', args, 'call', 'a method name or the call as written');
    const name = calledName(raw!);
    if (!name) throw new BadCall(`find_similar_api_calls needs "call" as a method name or a call such as list.add(x)${given(raw)}`);
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
        if (entry.kind !== 'type' && (entry.name === name || candidates.has(entry.name))) declared.push({ file, line: entry.line, signature: entry.signature, name: entry.name });
      }
    }
    const lineText = (file: string, line: number) => clip((toLines(texts.get(file) ?? '')[line - 1] ?? '').trim());
    const render = (call: FoundCall) => `${call.file}:${call.line}: ${lineText(call.file, call.line)}${call.within ? `  (in ${call.within})` : ''}`;
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
      rows.push(...declared.slice(0, MAX_CALLS_SHOWN).map((entry) => `${entry.file}:${entry.line}: ${entry.signature}`));
    }
    if (skipped > 0) rows.push(`(${plural(skipped, 'more file names', 'more files name')} these methods and was not read: narrow with search_code_base)`);
    const tail = (k: number) => (k < rows.length ? '... cut at the output limit: ask search_code_base for a narrower pattern' : '');
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
