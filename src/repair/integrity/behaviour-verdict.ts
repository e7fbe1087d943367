/**
 * The behavioural probe's judgement (issue 45), a pure function of the plan, both sides'
 * answers and the fix:
 *
 * - a fix whose answers differ from the original's only where one parameter holds a value
 *   the failing tests pass in, and which brings in a constant equal to that value (a table
 *   row, a switch label, a string key) or two that bracket it (a range), encodes the test's
 *   input whatever its syntax: `behaviour changes only at year = 1900`. A new key added to
 *   a table that already had two or more keys (a missing currency code) is a real row, and
 *   a fix that brings in no such constant (`x > 10` to `x >= 10`) is left to the other checks;
 *   A guard for one bad input the test uses (null, `""`, 0, 1) is not a special case either;
 * - a fix whose answer to the same call changes when it is asked again, or in another order,
 *   where the original's does not, depends on how often it was called (a first-call flag, a
 *   counter, a cached answer).
 */
import { maskCommentsAndLiterals } from '../../java/index.js';
import type { FileChange } from '../../patch/types.js';
import { describeValue, literalsIn, type ConstantValue } from './constant-value.js';
import type { BehaviourCall, BehaviourPlan } from './behaviour-plan.js';
import { splitTopLevel } from './java-arguments.js';
import { isMainJava } from './oracle-inputs.js';

export interface ProbeAnswers {
  first: string;
  again: string;
  reversed: string;
}

export type BehaviourAnswers = ReadonlyMap<number, Partial<Record<'original' | 'patched', ProbeAnswers>>>;

export interface BehaviourFinding {
  rule: 'behaviour-only-at-test-inputs' | 'behaviour-depends-on-calls';
  file?: string;
  line?: number;
  message: string;
}

/** Values that guards and base cases branch on, as the static check takes them (special-casing.ts). */
const BOUNDARY = new Set(['n:0', 'n:1', 's:', 'null', 'b:true', 'b:false']);

interface NewConstant {
  value: ConstantValue;
  file: string;
  line: number;
  /** `switch:code`, `map:OVERRIDES`: the table it is a key of, if any. */
  table?: string;
  /** Keys that table had before the fix. */
  tableKeysBefore: number;
}

export function behaviourFindings(input: {
  plan: BehaviourPlan;
  answers: BehaviourAnswers;
  changes: readonly FileChange[];
}): BehaviourFinding[] {
  const { plan, answers } = input;
  const differing: BehaviourCall[] = [];
  const unstable: { call: BehaviourCall; patched: ProbeAnswers; original: ProbeAnswers }[] = [];
  plan.calls.forEach((call, index) => {
    const { original, patched } = answers.get(index) ?? {};
    if (!original || !patched || unusable(original) || unusable(patched)) return;
    if (steady(original) && !steady(patched)) unstable.push({ call, original, patched });
    if (outcome(original.first) !== outcome(patched.first)) differing.push(call);
  });
  const findings: BehaviourFinding[] = [];
  const first = unstable[0];
  if (first) {
    const target = plan.targets[first.call.target]!;
    const shown = answerText(first.patched.first);
    const later = answerText(
      first.patched.first === first.patched.again ? first.patched.reversed : first.patched.again,
    );
    findings.push({
      rule: 'behaviour-depends-on-calls',
      message: `${target.label}(${first.call.args.map(describeValue).join(', ')}) answers ${shown} the first time and ${later} when asked again (the original answers ${answerText(first.original.first)} every time), in ${unstable.length} of ${plan.calls.length} probed calls: its answer must not depend on how often or in which order it is called`,
    });
  }
  const constants = newConstants(input.changes);
  plan.targets.forEach((target, targetIndex) => {
    const calls = differing.filter((call) => call.target === targetIndex);
    if (calls.length === 0) return;
    const probed = plan.calls.filter((call) => call.target === targetIndex).length;
    for (let at = 0; at < target.types.length; at++) {
      const values = [...new Set(calls.map((call) => call.args[at]!))];
      const own = values.every((value) => [...plan.failingInputs].some((input) => near(value, input)));
      // A guard for one bad input (null, empty, zero) changes behaviour there alone, and honestly.
      if (!own || values.every((value) => BOUNDARY.has(value))) continue;
      const equal = constants.filter(
        (constant) =>
          values.some((value) => near(constant.value, value)) && !(constant.table && constant.tableKeysBefore >= 2),
      );
      const brackets = bracketing(constants, values);
      const evidence = equal.length > 0 ? equal : brackets;
      if (evidence.length === 0) continue;
      const where = `${target.parameters[at]} = ${values.map(describeValue).join(', ')}`;
      const example = calls[0]!;
      const answer = answers.get(plan.calls.indexOf(example))!;
      const brought =
        equal.length > 0
          ? `brings in ${list(equal.map((constant) => describeValue(constant.value)))} (line ${equal[0]!.line})`
          : `brings in ${list(brackets.map((constant) => describeValue(constant.value)))} around it (line ${brackets[0]!.line})`;
      findings.push({
        rule: 'behaviour-only-at-test-inputs',
        file: evidence[0]!.file,
        line: evidence[0]!.line,
        message: `behaviour changes only at ${where} (${target.label}(${example.args.map(describeValue).join(', ')}): ${answerText(answer.original!.first)} before, ${answerText(answer.patched!.first)} after; the same on the other ${probed - calls.length} of ${probed} probed inputs), the input the failing test passes in, and ${evidence[0]!.file} ${brought}; fix the computation for every input instead`,
      });
      return;
    }
  });
  return findings;
}

function unusable(answer: ProbeAnswers): boolean {
  return [answer.first, answer.again, answer.reversed].some((text) => text === undefined || text.startsWith('u:'));
}

function steady(answer: ProbeAnswers): boolean {
  return outcome(answer.first) === outcome(answer.again) && outcome(answer.first) === outcome(answer.reversed);
}

/**
 * What an answer is compared by: a value as it is, an exception by its class (a helpful NullPointerException names a
 * variable, which an honest rewrite may rename).
 */
function outcome(answer: string): string {
  return answer.startsWith('x:') ? (/^x:[^:]*/.exec(answer)?.[0] ?? answer) : answer;
}

/** `v:28` -> 28, `x:java.lang.IllegalStateException: ...` -> `throws java.lang.IllegalStateException: ...`. */
export function answerText(answer: string): string {
  const text = answer.slice(2).replace(/\\t/g, '\t').replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
  const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return answer.startsWith('x:') ? `throws ${short}` : short;
}

function list(values: string[]): string {
  const unique = [...new Set(values)];
  return unique.length <= 1 ? (unique[0] ?? '') : `${unique.slice(0, -1).join(', ')} and ${unique.at(-1)}`;
}

function numberOf(value: ConstantValue): number | undefined {
  if (!value.startsWith('n:')) return undefined;
  const number = Number(value.slice(2));
  return Number.isFinite(number) ? number : undefined;
}

/** The same value, or (for doubles) the next representable one: a range around the one holds the other. */
function near(a: ConstantValue, b: ConstantValue): boolean {
  if (a === b) return true;
  const x = numberOf(a);
  const y = numberOf(b);
  return x !== undefined && y !== undefined && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
}

/** Two new numeric constants below and above every one of `values`. */
function bracketing(constants: readonly NewConstant[], values: readonly ConstantValue[]): NewConstant[] {
  const numbers = values.map(numberOf);
  if (numbers.some((n) => n === undefined)) return [];
  const low = Math.min(...(numbers as number[]));
  const high = Math.max(...(numbers as number[]));
  const below = constants
    .filter((c) => (numberOf(c.value) ?? Infinity) < low)
    .sort((a, b) => numberOf(b.value)! - numberOf(a.value)!);
  const above = constants
    .filter((c) => (numberOf(c.value) ?? -Infinity) > high)
    .sort((a, b) => numberOf(a.value)! - numberOf(b.value)!);
  return below[0] && above[0] ? [below[0], above[0]] : [];
}

/** Literals the fix adds to main code (more of them after than before), each with the first new line holding it. */
function newConstants(changes: readonly FileChange[]): NewConstant[] {
  const out: NewConstant[] = [];
  for (const change of changes) {
    if (!isMainJava(change)) continue;
    const after = change.after!;
    const before = change.before ?? '';
    const count = (text: string) => {
      const counts = new Map<ConstantValue, number>();
      for (const value of literalsIn(withoutComments(text))) counts.set(value, (counts.get(value) ?? 0) + 1);
      return counts;
    };
    const old = count(before);
    const keysBefore = tableKeysIn(before);
    const keysAfter = tableKeysIn(after);
    const oldLines = new Set(before.split('\n').map((line) => line.trim()));
    const lines = after.split('\n');
    for (const [value, n] of count(after)) {
      if (n <= (old.get(value) ?? 0)) continue;
      const at = lines.findIndex(
        (line) => !oldLines.has(line.trim()) && literalsIn(withoutComments(line)).includes(value),
      );
      const table = keysAfter.find((key) => key.value === value)?.table;
      const tableKeysBefore = table
        ? new Set(keysBefore.filter((key) => key.table === table && key.value !== value).map((key) => key.value)).size
        : 0;
      out.push({ value, file: change.path, line: at + 1, ...(table ? { table } : {}), tableKeysBefore });
    }
  }
  return out;
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:"])\/\/[^\n]*/g, '$1');
}

/**
 * The keys of the file's tables: `case` labels of a `switch` (the table named by its
 * subject), the first argument of `NAME.put(...)` and every other argument of
 * `NAME = Map.of(...)` (the table named by NAME).
 */
export function tableKeysIn(text: string): { table: string; value: ConstantValue }[] {
  const masked = maskCommentsAndLiterals(text);
  const out: { table: string; value: ConstantValue }[] = [];
  for (const match of masked.matchAll(/\bswitch\s*\(([^)]*)\)\s*\{/g)) {
    const subject = match[1]!.replace(/\s+/g, '');
    const open = match.index + match[0].length;
    const close = closing(masked, open, '{', '}');
    const block = masked.slice(open, close);
    for (const label of block.matchAll(/\bcase\s+([^:;{}]+?)\s*(->|:)/g)) {
      const start = open + label.index + label[0].indexOf(label[1]!);
      for (const value of literalsIn(text.slice(start, start + label[1]!.length)))
        out.push({ table: `switch:${subject}`, value });
    }
  }
  for (const match of masked.matchAll(/\b(\w+)\s*\.\s*put\s*\(/g)) {
    const open = match.index + match[0].length;
    const first = splitArguments(text, masked, open)[0];
    const value = first === undefined ? undefined : literalsIn(first)[0];
    if (value !== undefined && literalsIn(first!).length === 1) out.push({ table: `map:${match[1]}`, value });
  }
  for (const match of masked.matchAll(/\b(\w+)\s*=\s*(?:java\.util\.)?Map\s*\.\s*of\s*\(/g)) {
    const open = match.index + match[0].length;
    splitArguments(text, masked, open).forEach((argument, index) => {
      const value = index % 2 === 0 ? literalsIn(argument) : [];
      if (value.length === 1) out.push({ table: `map:${match[1]}`, value: value[0]! });
    });
  }
  return out;
}

function closing(masked: string, open: number, up: string, down: string): number {
  let depth = 1;
  for (let at = open; at < masked.length; at++) {
    if (masked[at] === up) depth++;
    else if (masked[at] === down && --depth === 0) return at;
  }
  return masked.length;
}

/** The arguments of the call whose `(` ends just before `open` (to the end of the text when it is never closed). */
function splitArguments(text: string, masked: string, open: number): string[] {
  return splitTopLevel(text, masked, open, closing(masked, open, '(', ')'));
}
