/**
 * A catch block the fix adds that answers the failing test's expected value (issue 45):
 * `try { return parse(text); } catch (NumberFormatException e) { return 1.5; }` makes the
 * test pass because its input throws, and gives the same value for every other input that
 * throws. Read from the patch; only catches the original did not have count.
 */
import { maskCommentsAndLiterals } from '../../java/index.js';
import type { FileChange } from '../../patch/types.js';
import { constantValue, describeValue, type ConstantValue } from './constant-value.js';
import type { TestOracle } from './test-oracle.js';

export interface SwallowedException {
  rule: 'swallowed-exception';
  file: string;
  line: number;
  message: string;
}

interface CatchReturn {
  key: string;
  value: ConstantValue;
  caught: string;
  offset: number;
}

export function swallowedExceptions(
  change: FileChange,
  oracles: readonly TestOracle[],
  constants: ReadonlyMap<string, ConstantValue>,
): SwallowedException[] {
  const file = change.path;
  const after = change.after ?? '';
  const before = change.before ?? '';
  const old = new Map<string, number>();
  for (const found of catchReturns(before, constants)) old.set(found.key, (old.get(found.key) ?? 0) + 1);
  const out: SwallowedException[] = [];
  for (const found of catchReturns(after, constants)) {
    const left = old.get(found.key) ?? 0;
    old.set(found.key, left - 1);
    if (left > 0) continue;
    const oracle = oracles.find((candidate) => candidate.expected.has(found.value));
    if (!oracle) continue;
    const line = after.slice(0, found.offset).split('\n').length;
    out.push({
      rule: 'swallowed-exception',
      file,
      line,
      message: `${file}: a new catch of ${found.caught} returns ${describeValue(found.value)} (line ${line}), the value the failing test ${oracle.test} expects, whatever the input that threw; fix the computation that throws instead`,
    });
  }
  return out;
}

function catchReturns(text: string, constants: ReadonlyMap<string, ConstantValue>): CatchReturn[] {
  const masked = maskCommentsAndLiterals(text);
  const out: CatchReturn[] = [];
  for (const match of masked.matchAll(/\bcatch\s*\(([^)]*)\)\s*\{/g)) {
    const caught = match[1]!
      .trim()
      .replace(/\s+\w+$/, '')
      .replace(/^final\s+/, '');
    const open = match.index + match[0].length;
    let depth = 1;
    let close = open;
    for (; close < masked.length && depth > 0; close++) {
      if (masked[close] === '{') depth++;
      else if (masked[close] === '}') depth--;
    }
    const block = masked.slice(open, close);
    for (const ret of block.matchAll(/\breturn\s+([^;]+);/g)) {
      const start = open + ret.index + ret[0].indexOf(ret[1]!);
      const value = constantValue(text.slice(start, start + ret[1]!.length), constants);
      if (value !== undefined) out.push({ key: `${caught}|${value}`, value, caught, offset: open + ret.index });
    }
  }
  return out;
}
