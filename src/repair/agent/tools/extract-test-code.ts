/**
 * extract_test_code: a failing test with what runs before it (fields, initializer blocks,
 * set-up and tear-down), the failing line marked from the stack trace.
 */
import type { Diagnostic } from '../../../diagnose/types.js';
import { findTestCode, outline } from '../../../java/index.js';
import type { SourceView } from '../../../plugins/contracts.js';
import { renderCall } from '../code-arguments.js';
import { isTestFile, lookUpCode, typesNamed } from '../code-index.js';
import {
  BadCall,
  clip,
  defineTool,
  fit,
  given,
  MAX_NAMES,
  numberedRanges,
  projectPath,
  readJava,
  someOf,
  text,
} from './support/tool-kit.js';

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
function failingTests(
  diagnostics: readonly Diagnostic[] | undefined,
): { className: string; method: string; diagnostic: Diagnostic }[] {
  return (diagnostics ?? []).flatMap((diagnostic) => {
    const name =
      diagnostic.test ??
      (diagnostic.testFailure ? `${diagnostic.testFailure.className}#${diagnostic.testFailure.method}` : undefined);
    if (!name || !name.includes('#')) return [];
    const [className, method] = name.split('#') as [string, string];
    return [{ className, method: method.replace(/[[(].*$/, ''), diagnostic }];
  });
}

/** The line of the test method the failure happened on, from the stack trace (`at a.FooTest.bar(FooTest.java:17)`). */
function failingLine(
  diagnostic: Diagnostic | undefined,
  className: string,
  method: string,
  file: string,
): number | undefined {
  if (!diagnostic) return undefined;
  const outer = className.split('$')[0]!;
  const frame = new RegExp(`at ${escapeRegExp(className)}\\.${escapeRegExp(method)}\\([^:)]*:(\\d+)\\)`).exec(
    diagnostic.testFailure?.stackTrace ?? '',
  );
  if (frame) return Number(frame[1]);
  const anyFrame = new RegExp(`at ${escapeRegExp(outer)}[.$][\\w$.]*\\([^:)]*:(\\d+)\\)`).exec(
    diagnostic.testFailure?.stackTrace ?? '',
  );
  if (anyFrame) return Number(anyFrame[1]);
  return diagnostic.file === file ? diagnostic.line : undefined;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The file of a test class, main sources only when no test source declares it; several are answered with a call for
 * each.
 */
async function testFile(view: SourceView, className: string, method: string): Promise<string> {
  const outer = className.split('$')[0]!;
  const found = await typesNamed(view, outer);
  if (found.length === 0) {
    const looked = await lookUpCode(view, { readings: [{ type: outer }] });
    const nearest =
      'nearest' in looked && looked.nearest.length > 0 ? `; nearest names: ${looked.nearest.join(', ')}` : '';
    throw new BadCall(
      `extract_test_code found no class ${outer} in the project${nearest}; give the test as ${renderCall('extract_test_code', { test: `com.acme.FooTest#${method}` })}, or its "file"`,
    );
  }
  const tests = found.filter((site) => isTestFile(site.file));
  const chosen = [...new Set((tests.length > 0 ? tests : found).map((site) => site.file))];
  if (chosen.length > 1) {
    const calls = chosen.map(
      (file) => `- ${file}: ${renderCall('extract_test_code', { test: `${className}#${method}`, file })}`,
    );
    throw new BadCall(
      [`${outer} is declared in ${chosen.length} files; call again with the one you mean:`, ...calls].join('\n'),
    );
  }
  return chosen[0]!;
}

export const extractTestCode = defineTool(
  'extract_test_code',
  "a failing test method with its class's fields and set-up, the failing line marked >>",
  {
    test: {
      type: 'string',
      description: 'e.g. com.acme.FooTest#method; default: the first failing test',
      optional: true,
    },
    file: { type: 'string', description: 'the test file, if the class is not found', optional: true },
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
      const first =
        failing.find((test) => base !== undefined && test.className.split(/[.$]/).includes(base)) ?? failing[0];
      if (!first)
        throw new BadCall('extract_test_code needs "test" (com.acme.FooTest#method): no test failed in this build');
      target = { className: first.className, method: first.method };
    }
    if (!/^[A-Za-z_$][\w$]*$/.test(target.method))
      throw new BadCall(`extract_test_code needs "test" as Class#method${given(asked)}`);
    const file =
      args.file !== undefined
        ? projectPath('extract_test_code', args, 'file', view)
        : target.className
          ? await testFile(view, target.className, target.method)
          : undefined;
    if (!file)
      throw new BadCall(
        `extract_test_code needs the class of ${target.method}: give "test" as Class#method, or "file"`,
      );
    const { lines, java } = await readJava('extract_test_code', view, file);
    const className = target.className?.replace(/^.*\./, '').split('$').at(-1);
    const code = findTestCode(java, target.method, className);
    if (!code) {
      const tests = outline(java)
        .filter((entry) => entry.kind === 'method')
        .map((entry) => entry.name);
      return {
        ok: false,
        output: `no test method ${target.method} in ${file}${tests.length > 0 ? `; its methods are: ${someOf([...new Set(tests)], MAX_NAMES)}` : ''}`,
      };
    }
    const failure = failing.find(
      (test) =>
        test.method === target.method &&
        (!target.className || test.className.endsWith(target.className.replace(/^.*\./, ''))),
    );
    const failedAt = failingLine(failure?.diagnostic, failure?.className ?? code.type.binaryName, target.method, file);
    const inTest =
      failedAt !== undefined &&
      code.tests.some((test) => test.range.startLine <= failedAt && failedAt <= test.range.endLine);
    const marks = new Set(inTest ? [failedAt] : code.assertionLines);
    const section = (title: string, ranges: { from: number; to: number }[]) =>
      ranges.length === 0 ? [] : [title, ...numberedRanges(lines, ranges, marks).rows];
    const rows = [
      `${code.type.binaryName}#${target.method} in ${file}`,
      ...(failure ? [`failed: ${clip(failure.diagnostic.message)}`] : []),
      ...section(
        'fields:',
        code.fields
          .filter((field, index, all) => all.findIndex((other) => other.range.start === field.range.start) === index)
          .map((field) => ({ from: field.range.startLine, to: field.range.endLine })),
      ),
      ...section(
        'initializer blocks:',
        code.initializers.map((block) => ({ from: block.range.startLine, to: block.range.endLine })),
      ),
      ...section(
        'set-up and tear-down:',
        code.setup.map((method) => ({ from: method.range.startLine, to: method.range.endLine })),
      ),
      inTest
        ? `test (>> marks line ${failedAt}, where it failed):`
        : `test (>> marks its assertions${failure ? '; the failing line is not known' : ''}):`,
      ...numberedRanges(
        lines,
        code.tests.map((test) => ({ from: test.range.startLine, to: test.range.endLine })),
        marks,
      ).rows,
    ];
    const tail = (k: number) =>
      k < rows.length ? '... cut at the output limit: read the rest with read_range or extract_method' : '';
    return { ok: true, output: fit(rows, tail) };
  },
);
