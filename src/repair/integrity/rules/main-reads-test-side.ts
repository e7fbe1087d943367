/**
 * Main code must not read the test side at run time. A fix that adds to main code
 * `new File("src/test/resources/expected.txt")`, `Paths.get(...)`, `Path.of(...)`,
 * `new FileInputStream(...)` or `new FileReader(...)` with a path on the test side (the
 * conventional folders or a root the poms declare) makes the code depend on the tests'
 * fixtures, often to read the very values a test expects: it passes the test and fails
 * everywhere else. The path is a string literal, a constant of the changed file, or their
 * concatenation; each argument is joined as a folder (`Paths.get("src", "test", ...)`),
 * and what follows a part that is not known (`new File(basedir, "src/test/java")`) is not
 * relative to the working directory, so it is not read here. A string that names a test
 * folder but is not read (a Maven plugin's default, a message) is no finding. Only reads
 * the patch adds count: one the original file already had is the project's own.
 */
import { maskCommentsAndLiterals } from '../../../java/index.js';
import type { FileChange } from '../../../patch/types.js';
import { oneLine } from '../assertions.js';
import { memberAt, parsedJava } from '../member-name.js';
import { splitTopLevel } from '../java-arguments.js';
import { isMainJava } from '../oracle-inputs.js';
import { moduleDirOf, testSideRootOf, type TestSide } from '../test-side.js';
import type { IntegrityFinding, IntegrityRule } from '../types.js';

export const mainReadsTestSide = {
  id: 'main-reads-test-side',
  description: 'main code does not read a file under the test side at run time',
  check: (input) => input.changes.flatMap((change) => findings(change, input.testSide)),
} as const satisfies IntegrityRule;

/** The calls that open a file by a path relative to the working directory (the module's folder under Maven). */
const READ =
  /\b(?:new\s+(?:java\.io\.)?(File|FileInputStream|FileReader|RandomAccessFile)|(?:java\.nio\.file\.)?(Paths\.get|Path\.of))\s*\(/g;
const STRING = /^"((?:[^"\\\n]|\\.)*)"$/;

interface Read {
  call: string;
  path: string;
  offset: number;
}

function findings(change: FileChange, side: TestSide): IntegrityFinding[] {
  if (!isMainJava(change) || testSideRootOf(side, change.path)) return [];
  const already = new Set((change.before === null ? [] : reads(change.before)).map((read) => read.path));
  const module = moduleDirOf(change.path);
  const out: IntegrityFinding[] = [];
  for (const read of reads(change.after!)) {
    if (already.has(read.path)) continue;
    const file = module === '' ? read.path : `${module}/${read.path}`;
    const root = testSideRootOf(side, file) ?? testSideRootOf(side, `${file}/`);
    if (!root) continue;
    const line = change.after!.slice(0, read.offset).split('\n').length;
    const member = memberAt(parsedJava(change.after!), [line]);
    out.push({
      rule: 'main-reads-test-side',
      file: change.path,
      line,
      message: `added \`${oneLine(read.call, 120)}\` to ${member ? `${member} in ` : ''}${change.path}, which reads ${file} (${root.what}) at run time: main code may not depend on the test side`,
      failingTestEdit: false,
    });
  }
  return out;
}

/** Every read of a known relative path in the text, with the path as written (`./` dropped). */
function reads(text: string): Read[] {
  const masked = maskCommentsAndLiterals(text);
  const constants = stringConstants(text, masked);
  const out: Read[] = [];
  for (const match of masked.matchAll(READ)) {
    const open = match.index + match[0].length;
    const close = closingParen(masked, open);
    if (close === undefined) continue;
    const parts: string[] = [];
    for (const argument of splitTopLevel(text, masked, open, close)) {
      const value = concatenation(argument, constants);
      if (value.known === '') break;
      parts.push(value.known);
      if (!value.complete) break;
    }
    const path = parts.join('/').replace(/^(\.\/)+/, '');
    if (path === '' || path.startsWith('/') || /^[A-Za-z]:/.test(path)) continue;
    out.push({ call: text.slice(match.index, close + 1), path, offset: match.index });
  }
  return out;
}

/** `NAME = "text"` declarations of the file (a field or a local): the constants a path may be built from. */
function stringConstants(text: string, masked: string): Map<string, string> {
  const constants = new Map<string, string>();
  for (const match of masked.matchAll(/\bString\s+([\p{L}_$][\p{L}\p{N}_$]*)\s*=\s*/gu)) {
    const start = match.index + match[0].length;
    const end = masked.indexOf(';', start);
    if (end < 0) continue;
    const value = concatenation(text.slice(start, end).trim(), constants);
    if (value.complete) constants.set(match[1]!, value.known);
  }
  return constants;
}

/** `"a" + B + "c"`: the text as far as it is known, and whether that is all of it. */
function concatenation(
  expression: string,
  constants: ReadonlyMap<string, string>,
): { known: string; complete: boolean } {
  const masked = maskCommentsAndLiterals(expression);
  const operands: string[] = [];
  let start = 0;
  for (let at = masked.indexOf('+'); at >= 0; at = masked.indexOf('+', at + 1)) {
    operands.push(expression.slice(start, at).trim());
    start = at + 1;
  }
  operands.push(expression.slice(start).trim());
  let known = '';
  for (const operand of operands) {
    const literal = STRING.exec(operand);
    const value = literal ? literal[1]!.replace(/\\(.)/g, '$1') : constants.get(operand);
    if (value === undefined) return { known, complete: false };
    known += value;
  }
  return { known, complete: true };
}

function closingParen(masked: string, open: number): number | undefined {
  let depth = 1;
  for (let at = open; at < masked.length; at++) {
    if (masked[at] === '(') depth++;
    else if (masked[at] === ')' && --depth === 0) return at;
  }
  return undefined;
}
