/**
 * What the behavioural probe asks (issue 45): the main-code methods a fix changes that the
 * failing tests reach (their type is named in a failing test's file, or the method is
 * called there), and the inputs to call them with: the failing tests' own inputs (their
 * literals, test-oracle.ts), their neighbours (±1, ±2, ±10, ±100, the sign, doubled and
 * halved, zero, the type's bounds, the next representable values, nearby strings) and the
 * literals the other tests of those files use. The failing tests' input combination is
 * varied one parameter at a time, so a difference is pinned to the parameter it comes
 * from. Pure and deterministic: the same fix and tests give the same calls.
 */
import {
  allTypes,
  maskCommentsAndLiterals,
  parseKept,
  type JavaSourceFile,
  type JavaMethod,
} from '../../java/index.js';
import type { FileChange } from '../../patch/types.js';
import { constantValue, literalsIn, type ConstantValue } from './constant-value.js';
import { splitTopLevel } from './java-arguments.js';
import { isMainJava } from './oracle-inputs.js';
import { testOracles, type FailingTestSource } from './test-oracle.js';

export interface BehaviourTarget {
  className: string;
  name: string;
  isStatic: boolean;
  /** As the probe names them: `int`, `Integer`, `String`, ..., `enum:com.acme.Month` */
  types: string[];
  /** Parameter names, for the reason. */
  parameters: string[];
  /** `Dates.isLeapYear`, for the reason. */
  label: string;
  /** The main file that declares it, and the offset in its patched text just inside the body's `{`. */
  file: string;
  entry: number;
}

/** The arguments a target was called with while the failing tests ran, by `targetKey`. */
export type CapturedCalls = ReadonlyMap<string, readonly ConstantValue[][]>;

/** `com.acme.Dates#isLeapYear(int)`: a target's name across two plans of the same fix. */
export function targetKey(target: Pick<BehaviourTarget, 'className' | 'name' | 'types'>): string {
  return `${target.className}#${target.name}(${target.types.join(',')})`;
}

export interface BehaviourCall {
  target: number;
  args: ConstantValue[];
}

export interface BehaviourPlan {
  targets: BehaviourTarget[];
  calls: BehaviourCall[];
  /** Every value the failing tests pass in. */
  failingInputs: Set<ConstantValue>;
  /** Changed methods left out, and why (parameter types the probe cannot make, no receiver). */
  skipped: string[];
}

const INTEGRAL: Record<string, [bigint, bigint]> = {
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  short: [-32768n, 32767n],
  byte: [-128n, 127n],
};
const BOXES: Record<string, string> = {
  Integer: 'int',
  Long: 'long',
  Short: 'short',
  Byte: 'byte',
  Double: 'double',
  Float: 'float',
  Boolean: 'boolean',
  Character: 'char',
};
const SUPPORTED = new Set([
  ...Object.keys(INTEGRAL),
  ...Object.keys(BOXES),
  'double',
  'float',
  'boolean',
  'char',
  'String',
  'CharSequence',
]);
/** Calls per method at most: a few hundred answers decide; more only cost time. */
const MAX_CALLS_PER_TARGET = 400;
const MAX_TARGETS = 8;
const MAX_BASE_TUPLES = 16;

export function behaviourPlan(input: {
  changes: readonly FileChange[];
  tests: readonly FailingTestSource[];
  /** Arguments captured at the call while the failing tests ran: the inputs a test computes. */
  captured?: CapturedCalls;
}): BehaviourPlan {
  const oracles = testOracles(input.tests);
  const captured = input.captured ?? new Map<string, ConstantValue[][]>();
  const failingInputs = new Set([
    ...oracles.flatMap((oracle) => [...oracle.inputs]),
    ...[...captured.values()].flat(2),
  ]);
  const typeNames = new Set(oracles.flatMap((oracle) => [...oracle.typeNames]));
  const testTexts = input.tests.map((test) => test.text).join('\n');
  const passingInputs = new Set(input.tests.flatMap((test) => literalsIn(test.text)));
  const plan: BehaviourPlan = { targets: [], calls: [], failingInputs, skipped: [] };
  if (oracles.length === 0) return plan;
  for (const change of input.changes) {
    if (!isMainJava(change) || change.before === null) continue;
    const after = parseKept(change.after!);
    const before = parseKept(change.before);
    if (!after.ok || !before.ok) continue;
    const previous = new Map(
      allTypes(before.file).flatMap((type) =>
        type.methods.map((method) => [`${type.binaryName}#${method.signature}`, method]),
      ),
    );
    for (const type of allTypes(after.file)) {
      for (const method of type.methods) {
        const old = previous.get(`${type.binaryName}#${method.signature}`);
        if (method.kind !== 'method' || !method.body || !old || same(old, method)) continue;
        const reached = typeNames.has(type.name) || new RegExp(String.raw`\b${method.name}\s*\(`).test(testTexts);
        if (!reached) continue;
        const label = `${type.name}.${method.name}`;
        const key = (types: string[]) => targetKey({ className: type.binaryName, name: method.name, types });
        const written = method.parameters.map((parameter) => parameter.type.replace(/^final\s+/, '').trim());
        // Captured under the probe's names for the types (`enum:com.acme.Month`) or as written.
        const asEnums = written.map((name) => (SUPPORTED.has(name) ? name : `enum:${binaryNameOf(name, after.file)}`));
        const seenArgs = captured.get(key(written)) ?? captured.get(key(asEnums)) ?? [];
        // An enum parameter: the constants the tests name (`Month.FEBRUARY`) or the failing test passed in.
        const types = written.map((name, index) =>
          !SUPPORTED.has(name) && enumConstants(name, testTexts, seenArgs, index).length > 0
            ? `enum:${binaryNameOf(name, after.file)}`
            : name,
        );
        for (const [index, name] of types.entries())
          if (name.startsWith('enum:'))
            for (const value of enumConstants(written[index]!, testTexts, seenArgs, index)) passingInputs.add(value);
        const unsupported = types.find((name) => !SUPPORTED.has(name) && !name.startsWith('enum:'));
        if (unsupported !== undefined) {
          plan.skipped.push(`${label}: the probe cannot make a ${unsupported}`);
          continue;
        }
        if (plan.targets.length >= MAX_TARGETS) {
          plan.skipped.push(`${label}: more than ${MAX_TARGETS} changed methods`);
          continue;
        }
        const body = method.body;
        const target =
          plan.targets.push({
            className: type.binaryName,
            name: method.name,
            isStatic: method.modifiers.includes('static'),
            types,
            parameters: method.parameters.map((parameter) => parameter.name),
            label,
            file: change.path,
            entry: body.range.start + body.text.indexOf('{') + 1,
          }) - 1;
        const seen = seenArgs.filter((args) => args.length === types.length);
        for (const args of tuplesFor(types, failingInputs, passingInputs, seen)) plan.calls.push({ target, args });
      }
    }
  }
  return plan;
}

/**
 * Whether capturing the arguments at the call can add an input to the plan: a target the failing tests'
 * files never call by name (reached through other code), or call with an argument that is no constant
 * (`isLeapYear(firstYearOf(19))`, a variable, a loop's value). When every call writes its arguments as
 * constants, the plan has them already and the capture (a compile and its time) is left out.
 */
export function captureCanAdd(plan: BehaviourPlan, tests: readonly FailingTestSource[]): boolean {
  return plan.targets.some((target) => {
    let called = false;
    for (const test of tests) {
      const masked = maskCommentsAndLiterals(test.text);
      for (const match of masked.matchAll(new RegExp(String.raw`\b${target.name}\s*\(`, 'g'))) {
        const open = match.index + match[0].length;
        let depth = 1;
        let close = open;
        while (close < masked.length && depth > 0) {
          if (masked[close] === '(') depth++;
          else if (masked[close] === ')') depth--;
          if (depth > 0) close++;
        }
        const args = splitTopLevel(test.text, masked, open, close).filter((arg) => arg.trim() !== '');
        if (args.length !== target.types.length) continue;
        called = true;
        if (args.some((arg) => constantValue(arg) === undefined)) return true;
      }
    }
    return !called;
  });
}

function same(a: JavaMethod, b: JavaMethod): boolean {
  return a.text.replace(/\s+/g, ' ') === b.text.replace(/\s+/g, ' ');
}

/**
 * The failing inputs' combinations (those captured at the call first, as the test made
 * them), each varied one parameter at a time over its candidates; then the others'.
 */
function tuplesFor(
  types: readonly string[],
  failing: ReadonlySet<ConstantValue>,
  passing: ReadonlySet<ConstantValue>,
  captured: readonly ConstantValue[][],
): ConstantValue[][] {
  if (types.length === 0) return [[]];
  const real = captured.filter((args) =>
    args.every((value, index) => fitting(types[index]!, new Set([value])).length > 0),
  );
  const own = types.map((type, index) => unique([...real.map((args) => args[index]!), ...fitting(type, failing)]));
  const others = types.map((type) => fitting(type, passing));
  const candidates = types.map((type, index) =>
    unique([
      ...own[index]!,
      ...own[index]!.flatMap((value) => neighbours(type, value)),
      ...others[index]!,
      ...defaults(type),
    ]),
  );
  const baseValues = types.map((type, index) => (own[index]!.length > 0 ? own[index]! : defaults(type).slice(0, 1)));
  const bases = [...real.map((args) => [...args]), ...product(baseValues)].slice(0, MAX_BASE_TUPLES);
  const out: ConstantValue[][] = [];
  const seen = new Set<string>();
  const add = (tuple: ConstantValue[]) => {
    const key = tuple.join('\u0000');
    if (seen.has(key) || out.length >= MAX_CALLS_PER_TARGET) return;
    seen.add(key);
    out.push(tuple);
  };
  for (const base of bases) {
    add(base);
    for (let at = 0; at < types.length; at++)
      for (const value of candidates[at]!) add(base.map((old, index) => (index === at ? value : old)));
  }
  for (const tuple of product(others.map((values, index) => (values.length > 0 ? values : baseValues[index]!))))
    add(tuple);
  return out;
}

function product(lists: readonly ConstantValue[][]): ConstantValue[][] {
  let out: ConstantValue[][] = [[]];
  for (const list of lists) {
    out = out.flatMap((prefix) => list.map((value) => [...prefix, value]));
    if (out.length > MAX_CALLS_PER_TARGET) out = out.slice(0, MAX_CALLS_PER_TARGET);
  }
  return out;
}

function unique(values: ConstantValue[]): ConstantValue[] {
  return [...new Set(values)];
}

/**
 * The constants of enum type `name` the tests name (`Month.FEBRUARY`) and the failing tests passed in at
 * parameter `index` (captured), as `e:FEBRUARY`. A difference at one of them is never the rule's evidence
 * (an enum's constants are few and each may rightly have a case of its own): they hold the parameter
 * while the others are varied.
 */
function enumConstants(
  name: string,
  testTexts: string,
  captured: readonly ConstantValue[][],
  index: number,
): ConstantValue[] {
  const simple = name.split('.').pop()!;
  if (!/^[A-Z][\w$]*$/.test(simple)) return [];
  const named = [...testTexts.matchAll(new RegExp(String.raw`\b${simple}\s*\.\s*([A-Z][A-Z0-9_]*)\b`, 'g'))].map(
    (match) => `e:${match[1]}`,
  );
  const passed = captured.map((args) => args[index]).filter((value) => value?.startsWith('e:')) as ConstantValue[];
  return unique([...passed, ...named]);
}

/** `Month` as a class loader names it: a type of the file, an import, else the file's package. */
function binaryNameOf(name: string, file: JavaSourceFile): string {
  if (name.includes('.')) return name;
  const own = allTypes(file).find((type) => type.name === name);
  if (own) return own.binaryName;
  const imported = file.imports.find((line) => line.endsWith(`.${name}`));
  if (imported) return imported;
  return file.packageName ? `${file.packageName}.${name}` : name;
}

function kindOf(type: string): string {
  return BOXES[type] ?? (type === 'CharSequence' ? 'String' : type);
}

/** The values of `values` a parameter of `type` can take, as that type holds them. */
function fitting(type: string, values: ReadonlySet<ConstantValue>): ConstantValue[] {
  const kind = kindOf(type);
  const out: ConstantValue[] = [];
  if (kind.startsWith('enum:')) return [...values].filter((value) => value === 'null' || value.startsWith('e:'));
  for (const value of values) {
    if (value === 'null') {
      if (type !== kind || kind === 'String') out.push(value);
      continue;
    }
    const text = value.slice(2);
    if (INTEGRAL[kind] && value.startsWith('n:') && /^-?\d+$/.test(text)) {
      const [min, max] = INTEGRAL[kind];
      const number = BigInt(text);
      if (number >= min && number <= max) out.push(value);
    } else if ((kind === 'double' || kind === 'float') && value.startsWith('n:')) out.push(value);
    else if (kind === 'boolean' && value.startsWith('b:')) out.push(value);
    else if (kind === 'char' && value.startsWith('c:')) out.push(value);
    else if (kind === 'String' && value.startsWith('s:')) out.push(value);
  }
  return out;
}

function defaults(type: string): ConstantValue[] {
  const kind = kindOf(type);
  if (kind.startsWith('enum:')) return ['null'];
  const boxed = type !== kind || kind === 'String' ? ['null'] : [];
  if (INTEGRAL[kind]) return ['n:0', 'n:1', 'n:-1', `n:${INTEGRAL[kind][0]}`, `n:${INTEGRAL[kind][1]}`, ...boxed];
  if (kind === 'double' || kind === 'float') return ['n:0', 'n:1', 'n:-1', 'n:0.5', ...boxed];
  if (kind === 'boolean') return ['b:false', 'b:true', ...boxed];
  if (kind === 'char') return ['c:a', 'c:A', 'c:0', 'c: ', ...boxed];
  return ['s:', 's: ', 's:a', ...boxed];
}

/** The values around `value` for a parameter of `type`. */
export function neighbours(type: string, value: ConstantValue): ConstantValue[] {
  const kind = kindOf(type);
  if (value === 'null') return [];
  const text = value.slice(2);
  if (INTEGRAL[kind]) {
    const [min, max] = INTEGRAL[kind];
    const v = BigInt(text);
    const around = [1n, 2n, 10n, 100n].flatMap((step) => [v - step, v + step]);
    return [...around, -v, v * 2n, v / 2n, 0n].filter((n) => n >= min && n <= max).map((n) => `n:${n}`);
  }
  if (kind === 'double' || kind === 'float') {
    const v = Number(text);
    const near = [
      nextDouble(v, -1),
      nextDouble(v, 1),
      v - 1,
      v + 1,
      v - 0.5,
      v + 0.5,
      v - 10,
      v + 10,
      -v,
      v * 2,
      v / 2,
      0,
    ];
    return near.filter((n) => Number.isFinite(n)).map((n) => `n:${n}`);
  }
  if (kind === 'char') {
    const code = text.codePointAt(0) ?? 97;
    return [code - 1, code + 1].filter((c) => c > 0 && c < 0xd800).map((c) => `c:${String.fromCodePoint(c)}`);
  }
  if (kind === 'String') {
    const last = text.codePointAt(text.length - 1);
    const bumped = last === undefined ? 'a' : text.slice(0, -1) + String.fromCodePoint(last + 1);
    return [
      '',
      `${text} `,
      ` ${text}`,
      `${text}x`,
      text.slice(0, -1),
      bumped,
      text.toUpperCase(),
      text.toLowerCase(),
      [...text].reverse().join(''),
      text + text,
    ].map((s) => `s:${s}`);
  }
  return [];
}

/** The next double above (+1) or below (-1) `v`: a range that holds only the test's value still holds these. */
function nextDouble(v: number, direction: 1 | -1): number {
  if (Number.isNaN(v) || !Number.isFinite(v)) return v;
  if (v === 0) return direction * Number.MIN_VALUE;
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, v);
  const bits = buffer.getBigInt64(0);
  buffer.setBigInt64(0, bits + (v > 0 === direction > 0 ? 1n : -1n));
  return buffer.getFloat64(0);
}
