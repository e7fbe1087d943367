/**
 * No fix may encode the failing test's oracle (issue 25). Read from the patch before any
 * build, main code (files that are not tests) parsed before and after:
 *
 * - a new branch on a value the failing test passes in that returns a value it expects
 *   (`if (n == 5) return 120;`, `case "JPY" -> 0`), unless the branch is one row of a
 *   table (two or more other keys of the same subject that the test does not use) or its
 *   key is a boundary (0, 1, null, "", a boolean) that base cases and guards branch on;
 * - an `equals` that can return true without reading the other object, a `compareTo` or
 *   `compare` that returns 0 without reading its operands, a `hashCode` or `toString` that
 *   became a constant, on a type the failing test's file mentions;
 * - code that inspects who calls it (StackWalker, getStackTrace, JUnit, Surefire or test
 *   class names in string literals) or branches on a new static call counter.
 *
 * Only what the patch adds counts: a shape already in the code before is not the fix's.
 */
import {
  allTypes,
  fieldsOf,
  findBranches,
  findReturnStatements,
  maskCommentsAndLiterals,
  parseKept,
  type JavaBranch,
  type JavaMethod,
  type JavaSourceFile,
} from '../../java/index.js';
import type { FileChange } from '../../patch/types.js';
import { conditionParts, constantValue, describeValue, equalityOf, type ConstantValue } from './constant-value.js';
import { isMainJava } from './oracle-inputs.js';
import { swallowedExceptions } from './swallowed-exception.js';
import { constantsOf, testOracles, type FailingTestSource, type TestOracle } from './test-oracle.js';
import { testClassNames, type ClassNames } from './test-class-names.js';
import { testResourceNames, type ResourcePaths } from './test-resource-names.js';

export type { FailingTestSource } from './test-oracle.js';

export type SpecialCasingRule =
  | 'literal-special-case'
  | 'trivial-equality'
  | 'constant-identity'
  | 'caller-inspection'
  | 'call-counting'
  | 'swallowed-exception'
  | 'test-resource'
  | 'test-class';

export interface SpecialCasingFinding {
  rule: SpecialCasingRule;
  file: string;
  line?: number;
  /** One sentence, for the model and the run record. */
  message: string;
}

/** Keys that base cases and guards branch on: a branch on them is not taken to be special-casing. */
const BOUNDARY_KEYS = new Set(['n:0', 'n:1', 's:', 'null', 'b:true', 'b:false']);
/** Other keys of the same subject (not inputs of the test) that make a branch one row of a table. */
const TABLE_ROWS = 2;

export function specialCasingFindings(input: {
  changes: readonly FileChange[];
  tests: readonly FailingTestSource[];
  /** The project's resource files (test-resource-names.ts); absent: not checked. */
  resources?: ResourcePaths;
  /** The project's class names by side (test-class-names.ts); absent: not checked. */
  classes?: ClassNames;
}): SpecialCasingFinding[] {
  const oracles = testOracles(input.tests);
  if (oracles.length === 0) return [];
  const findings: SpecialCasingFinding[] = [];
  for (const change of input.changes) {
    if (!isMainJava(change)) continue;
    const after = parseKept(change.after!);
    if (!after.ok) continue; // javac refuses it; nothing to judge
    const parsedBefore = change.before === null ? undefined : parseKept(change.before);
    const before = parsedBefore?.ok ? parsedBefore.file : undefined;
    findings.push(
      ...literalSpecialCases(change.path, after.file, before, oracles),
      ...trivialIdentities(change.path, after.file, before, oracles),
      // Stryker disable next-line StringLiteral: a new file has no caller signs before; any text without StackWalker,
      // getStackTrace, getCallerClass or test words in a literal gives none either
      ...callerInspection(change.path, after.file.text, change.before ?? '', oracles),
      ...callCounting(change.path, after.file, before),
      ...swallowedExceptions(change, oracles, constantsOf(allTypes(after.file))),
      ...testResourceNames(change, input.resources),
      ...testClassNames(change, input.classes),
    );
  }
  return findings;
}

/** The attempt's reason: the contract's `test-special-casing` prefix, then every finding. */
export function testSpecialCasingReason(findings: readonly SpecialCasingFinding[]): string {
  return `test-special-casing: ${findings.map((finding) => finding.message).join('; ')}`;
}

// --- a branch on the test's input returning its expected value ---

interface Hit {
  key: string;
  message: string;
  line: number;
}

function literalSpecialCases(
  file: string,
  after: JavaSourceFile,
  before: JavaSourceFile | undefined,
  oracles: readonly TestOracle[],
): SpecialCasingFinding[] {
  // Stryker disable next-line ArrayDeclaration: a known key that is not a hit key (a string without '|') never matches
  // one
  const known = new Set(before ? oracles.flatMap((oracle) => hitsIn(file, before, oracle)).map((hit) => hit.key) : []);
  const seen = new Set<string>();
  const findings: SpecialCasingFinding[] = [];
  for (const oracle of oracles) {
    for (const hit of hitsIn(file, after, oracle)) {
      if (known.has(hit.key) || seen.has(hit.key)) continue;
      seen.add(hit.key);
      findings.push({ rule: 'literal-special-case', file, line: hit.line, message: hit.message });
    }
  }
  return findings;
}

interface Entry {
  subject: string;
  value: ConstantValue;
  results: string[];
  branch: JavaBranch;
}

function hitsIn(file: string, source: JavaSourceFile, oracle: TestOracle): Hit[] {
  const types = allTypes(source);
  const constants = constantsOf(types);
  const hits: Hit[] = [];
  for (const type of types) {
    for (const method of type.methods) {
      const entries = findBranches(method).flatMap((branch) => entriesOf(branch, constants));
      const otherKeys = new Map<string, Set<ConstantValue>>();
      for (const entry of entries)
        if (!oracle.inputs.has(entry.value))
          otherKeys.set(entry.subject, (otherKeys.get(entry.subject) ?? new Set()).add(entry.value));
      for (const entry of entries) {
        if (!oracle.inputs.has(entry.value) || BOUNDARY_KEYS.has(entry.value)) continue;
        if ((otherKeys.get(entry.subject)?.size ?? 0) >= TABLE_ROWS) continue;
        const result = entry.results
          .map((text) => constantValue(text, constants))
          .find((value) => value !== undefined && oracle.expected.has(value));
        if (result === undefined) continue;
        const where = `${type.name}.${method.name}`;
        hits.push({
          key: `${type.binaryName}#${method.signature}|${entry.subject}|${entry.value}|${result}`,
          line: entry.branch.range.startLine,
          message: `${file}: ${where} now gives ${describeValue(result)} when ${entry.subject} is ${describeValue(entry.value)} (line ${entry.branch.range.startLine}), the input the failing test ${oracle.test} passes in and the value it expects; fix the computation for every input instead`,
        });
      }
    }
  }
  return hits;
}

function entriesOf(branch: JavaBranch, constants: ReadonlyMap<string, ConstantValue>): Entry[] {
  const subjectOf = (text: string) => text.replace(/\s+/g, '');
  if (branch.kind === 'case') {
    return branch.labels.flatMap((label) => {
      const value = constantValue(label, constants);
      return value === undefined
        ? []
        : [{ subject: subjectOf(branch.condition), value, results: branch.results, branch }];
    });
  }
  return conditionParts(branch.condition).flatMap((part) => {
    const equality = equalityOf(part, constants);
    // Stryker disable next-line ArrayDeclaration: an entry that is a bare string has no value, so it is never a test
    // input and is only counted under the undefined subject
    if (!equality) return [];
    return [
      {
        subject: subjectOf(equality.subject),
        value: equality.value,
        results: equality.negated ? branch.otherwise : branch.results,
        branch,
      },
    ];
  });
}

// --- equals, compareTo, hashCode, toString that stop looking at the objects ---

function trivialIdentities(
  file: string,
  after: JavaSourceFile,
  before: JavaSourceFile | undefined,
  oracles: readonly TestOracle[],
): SpecialCasingFinding[] {
  const mentioned = new Set(oracles.flatMap((oracle) => [...oracle.typeNames]));
  const tests = [...new Set(oracles.map((oracle) => oracle.test))].join(', ');
  const beforeTypes = new Map((before ? allTypes(before) : []).map((type) => [type.binaryName, type]));
  const findings: SpecialCasingFinding[] = [];
  for (const type of allTypes(after)) {
    if (!mentioned.has(type.name)) continue;
    for (const method of type.methods) {
      const previous = beforeTypes
        .get(type.binaryName)
        ?.methods.find((candidate) => candidate.signature === method.signature);
      const shape = trivialShape(method);
      if (!shape || (previous && trivialShape(previous) === shape)) continue;
      const line = method.range.startLine;
      findings.push({
        rule: shape === 'constant' ? 'constant-identity' : 'trivial-equality',
        file,
        line,
        message: `${file}: ${type.name}.${method.signature} ${SHAPE_WORDS[shape]} (line ${line}), so an assertion of the failing test ${tests} on ${type.name} passes whatever the values are; fix the code that computes them instead`,
      });
    }
  }
  return findings;
}

type TrivialShape = 'equals-true' | 'compare-zero' | 'constant';
const SHAPE_WORDS: Record<TrivialShape, string> = {
  'equals-true': 'now returns true without reading the object it compares with',
  'compare-zero': 'now returns 0 without reading what it compares',
  constant: 'now returns a constant',
};

function trivialShape(method: JavaMethod): TrivialShape | undefined {
  if (method.kind !== 'method' || !method.body) return undefined;
  const returns = findReturnStatements(method);
  const params = method.parameters.map((parameter) => parameter.name);
  if (method.name === 'equals' && params.length === 1) {
    return !readsAny(method, params) &&
      returns.some((ret) => ret.expression !== undefined && constantValue(ret.expression) !== 'b:false')
      ? 'equals-true'
      : undefined;
  }
  if ((method.name === 'compareTo' && params.length === 1) || (method.name === 'compare' && params.length === 2)) {
    return !readsAny(method, params) &&
      returns.some((ret) => ret.expression !== undefined && constantValue(ret.expression) === 'n:0')
      ? 'compare-zero'
      : undefined;
  }
  if ((method.name === 'hashCode' || method.name === 'toString') && params.length === 0) {
    const statements = method.body.statements;
    const only = statements.length === 1 ? returns[0] : undefined;
    return only?.expression !== undefined && constantValue(only.expression) !== undefined ? 'constant' : undefined;
  }
  return undefined;
}

/**
 * Whether the method reads one of `names` (or a name bound to it by a pattern or a cast)
 * beyond a null check, an `instanceof`, `getClass()` or an identity comparison.
 */
function readsAny(method: JavaMethod, names: readonly string[]): boolean {
  let text = maskCommentsAndLiterals(method.body!.text);
  const aliases = new Set(names);
  const TYPE = String.raw`[\w.$]+(?:\s*<[^>]*>)?`;
  for (const name of names) {
    for (const match of text.matchAll(new RegExp(String.raw`\b${name}\s+instanceof\s+${TYPE}\s+(\w+)`, 'g')))
      aliases.add(match[1]!);
    for (const match of text.matchAll(new RegExp(String.raw`\b(\w+)\s*=\s*\(\s*${TYPE}\s*\)\s*${name}\b`, 'g')))
      aliases.add(match[1]!);
  }
  for (const name of names) {
    text = text
      .replace(new RegExp(String.raw`\b${name}\s+instanceof\s+${TYPE}(\s+\w+)?`, 'g'), ' ')
      // `Money other = (Money) o;`: the cast binds an alias; `((Money) o).cents` reads o.
      .replace(new RegExp(String.raw`=\s*\(\s*${TYPE}\s*\)\s*${name}\s*;`, 'g'), '= ;')
      .replace(new RegExp(String.raw`\b${name}\s*[!=]=\s*(null|this)\b|\b(null|this)\s*[!=]=\s*${name}\b`, 'g'), ' ')
      .replace(new RegExp(String.raw`\b${name}\s*\.\s*getClass\s*\(\s*\)`, 'g'), ' ');
  }
  for (const alias of aliases) text = text.replace(new RegExp(String.raw`\b${alias}\s*=(?!=)`, 'g'), ' ');
  return [...aliases].some((alias) => new RegExp(String.raw`\b${alias}\b`).test(text));
}

// --- looking at the caller ---

const CALLER_CODE: [RegExp, string][] = [
  [/\bStackWalker\b/g, 'StackWalker'],
  [/\.\s*getStackTrace\s*\(/g, 'getStackTrace()'],
  [/\bgetCallerClass\s*\(/g, 'getCallerClass()'],
];
// Test frameworks and runners, and what tells a test run apart: its class folder, the launcher's command.
const TEST_WORDS =
  /(^|[^a-z])(org\.junit|junit|testng|surefire|failsafe|org\.apache\.maven|test-classes|sun\.java\.command)/i;

function callerInspection(
  file: string,
  after: string,
  before: string,
  oracles: readonly TestOracle[],
): SpecialCasingFinding[] {
  const classNames = [...new Set(oracles.map((oracle) => oracle.className))];
  const signs = (text: string) => {
    const masked = maskCommentsAndLiterals(text);
    // Stryker disable next-line ArrayDeclaration: a stray first element is in the signs of before and after alike, so
    // it cancels out
    const found: { label: string; at: number }[] = [];
    for (const [pattern, label] of CALLER_CODE)
      for (const match of masked.matchAll(pattern)) found.push({ label, at: match.index });
    // String literals: where the mask left `"   "`, the original holds the text.
    for (const match of masked.matchAll(/"( *)"/g)) {
      const literal = text.slice(match.index + 1, match.index + match[0].length - 1);
      if (
        TEST_WORDS.test(literal) ||
        /^(Test|Tests|TestCase|IT)$/.test(literal) ||
        classNames.some((name) => literal.includes(name))
      )
        found.push({ label: `"${literal}"`, at: match.index });
    }
    return found;
  };
  const old = new Map<string, number>();
  for (const sign of signs(before)) old.set(sign.label, (old.get(sign.label) ?? 0) + 1);
  const added = signs(after).filter((sign) => {
    const left = old.get(sign.label) ?? 0;
    old.set(sign.label, left - 1);
    return left <= 0;
  });
  if (added.length === 0) return [];
  const line = lineOf(after, added[0]!.at);
  const labels = [...new Set(added.map((sign) => sign.label))].join(', ');
  return [
    {
      rule: 'caller-inspection',
      file,
      line,
      message: `${file}: now inspects who calls it (${labels}, line ${line}); main code must give the same answer to a test as to any other caller`,
    },
  ];
}

// --- counting calls ---

const COUNTER_TYPES = /^(int|long|short|byte|Integer|Long)$/;
const ATOMIC_COUNTER_TYPES = /^(?:java\.util\.concurrent\.atomic\.)?(AtomicInteger|AtomicLong|LongAdder)$/;

function callCounting(file: string, after: JavaSourceFile, before: JavaSourceFile | undefined): SpecialCasingFinding[] {
  const beforeFields = new Map(
    (before ? allTypes(before) : []).map((type) => [
      type.binaryName,
      new Set(fieldsOf(type).map((field) => field.name)),
    ]),
  );
  const findings: SpecialCasingFinding[] = [];
  for (const type of allTypes(after)) {
    const known = beforeFields.get(type.binaryName) ?? new Set<string>();
    const counters = fieldsOf(type).filter(
      (field) =>
        field.kind === 'field' &&
        field.modifiers.includes('static') &&
        !known.has(field.name) &&
        // Stryker disable next-line StringLiteral: a final integral field cannot be incremented (javac refuses it), so
        // it is never counted whether or not it is let in
        ((COUNTER_TYPES.test(field.type) && !field.modifiers.includes('final')) ||
          ATOMIC_COUNTER_TYPES.test(field.type)),
    );
    if (counters.length === 0) continue;
    const text = maskCommentsAndLiterals(after.text.slice(type.range.start, type.range.end));
    const conditions = type.methods.flatMap((method) => findBranches(method).map((branch) => branch.condition));
    for (const counter of counters) {
      const name = counter.name;
      const counted = new RegExp(
        String.raw`\b${name}\s*(\+\+|--|[+-]=)|(\+\+|--)\s*${name}\b|\b${name}\s*=\s*${name}\s*[+-]|\b${name}\s*\.\s*(incrementAndGet|getAndIncrement|addAndGet|getAndAdd|increment|add|decrementAndGet|getAndDecrement)\s*\(`,
      ).test(text);
      if (!counted) continue;
      // Stryker disable next-line MethodExpression: without the filter the field's own name is in the list twice, which
      // finds the same conditions
      const names = [
        name,
        ...[...text.matchAll(new RegExp(String.raw`\b(\w+)\s*=(?!=)[^;]*\b${name}\b`, 'g'))]
          .map((match) => match[1]!)
          .filter((alias) => alias !== name),
      ];
      const branchOn = conditions.find((condition) =>
        names.some((alias) => new RegExp(String.raw`\b${alias}\b`).test(condition)),
      );
      if (!branchOn) continue;
      findings.push({
        rule: 'call-counting',
        file,
        line: counter.range.startLine,
        message: `${file}: ${type.name} counts its calls in the new static field ${name} and branches on the count (\`${branchOn.replace(/\s+/g, ' ')}\`); its answer must not depend on how often it was called`,
      });
    }
  }
  return findings;
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}
