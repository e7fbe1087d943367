/**
 * A test's body compared, parsed statement by statement, before and after the patch.
 *
 * A test that failed must come to pass on the code's merit: adding assertions is fine;
 * changing what an assertion expects, deleting or commenting it out, replacing it by one
 * that cannot fail, swallowing it in a try/catch, removing a `fail(...)` or changing
 * anything else the test does is an edit of the failing test.
 *
 * A test that passed may be refactored (a renamed variable changes its assertions' text),
 * but not lose an assertion, get one that cannot fail, or expect another literal value.
 */
import { tokenText, type JavaMethod, type JavaSourceFile, type JavaStatement } from '../../java/index.js';
import {
  assertionsIn,
  cannotFail,
  checkingCalls,
  EXPECTED_FIRST,
  isFail,
  oneLine,
  swallowingTry,
  type Assertion,
} from './assertions.js';
import { describeDifference } from './differing-part.js';
import type { IntegrityFinding, TestComparisonFinding } from './types.js';

export interface TestBodyInput {
  before: JavaMethod;
  after: JavaMethod;
  afterFile: JavaSourceFile;
  /** `com.acme.FooTest#method` */
  test: string;
  /** The patched file's path. */
  file: string;
  /** Annotations whose change is judged elsewhere (test and disabling annotations). */
  judgedElsewhere(annotation: string): boolean;
  /** Whether the test failed in the build being repaired. */
  failed: boolean;
}

export function testBodyFindings(input: TestBodyInput): IntegrityFinding[] {
  const findings: IntegrityFinding[] = [];
  const failed = input.failed;
  const finding = (rule: TestComparisonFinding, message: string, line?: number) =>
    findings.push({
      rule,
      file: input.file,
      test: input.test,
      ...(line ? { line } : {}),
      message,
      failingTestEdit: failed,
    });
  const test = failed ? input.test : `${input.test} (a test that passed)`;

  if (failed) annotationChanges(input, finding);
  const beforeStatements = input.before.body?.statements ?? [];
  const afterStatements = input.after.body?.statements ?? [];
  // Assertions are compared by what they check: a message added or reworded is no change.
  const beforeAll = counts(assertionsIn(input.before).map((a) => a.key));
  const afterAssertions = assertionsIn(input.after);
  const afterAll = counts(afterAssertions.map((a) => a.key));

  for (const gap of differingRuns(beforeStatements.map(statementKey), afterStatements.map(statementKey))) {
    const removed = gap.removed.map((index) => beforeStatements[index]!);
    const added = gap.added.map((index) => afterStatements[index]!);
    const reported = findings.length;
    const replacements = added
      .flatMap((statement) => assertionsIn(statement))
      .filter((assertion) => !beforeAll.has(assertion.key));

    for (const assertion of removed.flatMap((statement) => assertionsIn(statement))) {
      if ((afterAll.get(assertion.key) ?? 0) >= (beforeAll.get(assertion.key) ?? 0)) {
        // Still there, somewhere else now: only a catch that swallows it changes its meaning.
        for (const kept of afterAssertions.filter((a) => a.key === assertion.key)) {
          const swallow = swallowingTry(input.after, kept.range);
          if (swallow)
            finding(
              'assertion-swallowed',
              `wrapped \`${oneLine(assertion.text)}\` in ${test} in a try block whose \`${swallow}\` swallows its failure`,
              kept.range.startLine,
            );
        }
        continue;
      }
      const replacement = takeReplacement(replacements, assertion);
      if (replacement) {
        const described = describeReplacement(assertion, replacement, test, failed);
        if (described) finding(described[0], described[1], replacement.range.startLine);
      } else if (isFail(assertion)) {
        finding('fail-removed', `removed \`${oneLine(assertion.text)}\` from ${test}`, assertion.range.startLine);
      } else if (commentedOut(input.afterFile, input.after, assertion)) {
        finding(
          'assertion-removed',
          `commented out \`${oneLine(assertion.text)}\` in ${test}`,
          assertion.range.startLine,
        );
      } else {
        finding('assertion-removed', `deleted \`${oneLine(assertion.text)}\` from ${test}`, assertion.range.startLine);
      }
    }
    if (findings.length > reported || !failed) continue;

    // No assertion was touched: the change is to what the test does before asserting.
    if (removed.length > 0) {
      const first = removed[0]!;
      const was = removed.map((s) => s.text).join(' ');
      const now = added.map((s) => s.text).join(' ');
      finding(
        'failing-test-changed',
        added.length > 0 ? changedText(was, now, test) : `deleted \`${oneLine(was)}\` in ${test}`,
        first.range.startLine,
      );
      continue;
    }
    for (const statement of added) {
      // New assertions are welcome; early returns and assumptions are judged in rules/test-comparison.ts.
      if (isAssertionStatement(statement) || /\breturn\b|\bassum(e|ing)\w*\s*\(/.test(statement.text)) continue;
      finding('failing-test-changed', `added \`${oneLine(statement.text)}\` to ${test}`, statement.range.startLine);
    }
  }
  return findings;
}

function annotationChanges(
  input: TestBodyInput,
  finding: (rule: TestComparisonFinding, message: string, line?: number) => void,
): void {
  const judged = (list: JavaMethod['annotations']) =>
    list.filter((annotation) => !input.judgedElsewhere(annotation.name));
  const before = judged(input.before.annotations);
  const after = judged(input.after.annotations);
  const compact = (text: string) => text.replace(/\s+/g, '');
  const removed = before.filter(
    (annotation) => !after.some((other) => compact(other.text) === compact(annotation.text)),
  );
  const added = after.filter((annotation) => !before.some((other) => compact(other.text) === compact(annotation.text)));
  for (const annotation of removed) {
    const replaced = added.find((other) => other.name === annotation.name);
    const change = replaced
      ? changedText(annotation.text, replaced.text, `on ${input.test}`)
      : `removed \`${oneLine(annotation.text)}\` from ${input.test}`;
    finding('failing-test-changed', change, (replaced ?? annotation).range.startLine);
  }
  for (const annotation of added) {
    if (removed.some((other) => other.name === annotation.name)) continue;
    finding(
      'failing-test-changed',
      `added \`${oneLine(annotation.text)}\` to ${input.test}`,
      annotation.range.startLine,
    );
  }
}

/** The first new assertion that stands in for `original`: one of the same name, else any. */
function takeReplacement(candidates: Assertion[], original: Assertion): Assertion | undefined {
  const sameName = candidates.findIndex((candidate) => candidate.name === original.name);
  const at = sameName >= 0 ? sameName : candidates.length > 0 ? 0 : -1;
  return at >= 0 ? candidates.splice(at, 1)[0] : undefined;
}

/** How an assertion was replaced; for a test that passed, only a weaker or literally different expectation counts. */
function describeReplacement(
  original: Assertion,
  replacement: Assertion,
  test: string,
  failed: boolean,
): [TestComparisonFinding, string] | undefined {
  const was = `\`${oneLine(original.text)}\``;
  if (cannotFail(replacement))
    return ['assertion-weakened', `replaced ${was} in ${test} by \`${oneLine(replacement.text)}\`, which cannot fail`];
  if (original.name === replacement.name) {
    const changed = changedArgument(original, replacement);
    // Stryker disable next-line MethodExpression: the parser's argument texts are trimmed already
    if (!failed)
      return changed && LITERAL.test(changed.from.trim()) && LITERAL.test(changed.to.trim())
        ? [
            'assertion-changed',
            `changed the expected value of \`${changed.call}\` in ${test} from \`${oneLine(changed.from, 60)}\` to \`${oneLine(changed.to, 60)}\``,
          ]
        : undefined;
    if (changed)
      return [
        'assertion-changed',
        `changed the expected value of \`${changed.call}\` in ${test} from \`${oneLine(changed.from, 60)}\` to \`${oneLine(changed.to, 60)}\``,
      ];
    return ['assertion-changed', changedText(original.text, replacement.text, test)];
  }
  return failed ? ['assertion-changed', `replaced ${was} in ${test} by \`${oneLine(replacement.text)}\``] : undefined;
}

/**
 * `changed \`a\` to \`b\` in test` when both are short; otherwise the part that differs,
 * so two long texts that look alike in their first characters are told apart.
 */
function changedText(was: string, now: string, where: string): string {
  // Stryker disable next-line MethodExpression: statement, annotation and assertion texts are trimmed by the parser
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
  // Stryker disable next-line Regex: `where` is a test name (no spaces) or `on <test>`, so the anchor changes nothing
  const place = /^(on|in) /.test(where) ? where : `in ${where}`;
  if (flat(was).length <= 100 && flat(now).length <= 100)
    return `changed \`${flat(was)}\` to \`${flat(now)}\` ${place}`;
  return `changed \`${oneLine(was, 60)}\` ${place}: ${describeDifference(was, now) ?? 'white space only'}`;
}

const LITERAL = /^(-?\d[\d_]*(\.\d+)?[lLfFdD]?|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|true|false|null)$/;

/** The expected value that changed: the first argument of assertEquals & co, or the argument of a chained matcher. */
function changedArgument(
  original: Assertion,
  replacement: Assertion,
): { call: string; from: string; to: string } | undefined {
  const compact = (text: string) => text.replace(/\s+/g, '');
  // Compared without failure messages: a message added alongside does not hide the change.
  const was = checkingCalls(original.calls);
  const now = checkingCalls(replacement.calls);
  if (was.length !== now.length) return undefined;
  const first = was[0];
  const other = now[0];
  if (!first || !other) return undefined;
  if (was.length === 1 && EXPECTED_FIRST.has(first.name) && first.arguments.length === other.arguments.length) {
    const rest = first.arguments
      .slice(1)
      .every((argument, index) => compact(argument) === compact(other.arguments[index + 1] ?? ''));
    if (rest && compact(first.arguments[0] ?? '') !== compact(other.arguments[0] ?? ''))
      return { call: first.name, from: first.arguments[0]!, to: other.arguments[0]! };
    return undefined;
  }
  // assertThat(actual).isEqualTo(expected): the subject stays, a matcher's argument moves.
  if (was.length > 1 && first.arguments.map(compact).join() === other.arguments.map(compact).join()) {
    for (let index = was.length - 1; index > 0; index--) {
      const a = was[index]!;
      const b = now[index]!;
      if (a.name !== b.name) return undefined;
      if (a.arguments.map(compact).join() !== b.arguments.map(compact).join()) {
        return { call: `${first.name}(...).${a.name}`, from: a.arguments.join(', '), to: b.arguments.join(', ') };
      }
    }
  }
  return undefined;
}

function commentedOut(file: JavaSourceFile, method: JavaMethod, assertion: Assertion): boolean {
  const needle = assertion.text.replace(/\s+/g, '');
  return file.comments.some(
    (comment) =>
      comment.range.start >= method.range.start &&
      comment.range.end <= method.range.end &&
      comment.text
        .replace(/^\/\/|^\/\*|\*\/$/g, '')
        .replace(/\s+|^\*/gm, '')
        .includes(needle),
  );
}

/** A statement's tokens, with each assertion in it reduced to what it checks. */
function statementKey(statement: JavaStatement): string {
  return assertionsIn(statement).reduce(
    (text, assertion) => text.replace(assertion.tokens, assertion.key),
    tokenText(statement),
  );
}

function isAssertionStatement(statement: JavaStatement): boolean {
  if (statement.kind === 'assert') return true;
  if (statement.kind !== 'expression') return false;
  const assertions = assertionsIn(statement);
  return assertions.length > 0 && `${assertions[0]!.tokens} ;` === tokenText(statement);
}

function counts(values: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const value of values) map.set(value, (map.get(value) ?? 0) + 1);
  return map;
}

/** Runs of statements that differ between two lists, found by their longest common subsequence. */
export function differingRuns(before: string[], after: string[]): { removed: number[]; added: number[] }[] {
  const n = before.length;
  const m = after.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const runs: { removed: number[]; added: number[] }[] = [];
  let current: { removed: number[]; added: number[] } | undefined;
  let i = 0;
  let j = 0;
  const open = () => (current ??= { removed: [], added: [] });
  const close = () => {
    if (current) runs.push(current);
    current = undefined;
  };
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      close();
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      open().added.push(j++);
    } else {
      open().removed.push(i++);
    }
  }
  close();
  return runs;
}
