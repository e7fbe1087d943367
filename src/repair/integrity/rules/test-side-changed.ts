/**
 * While tests fail, the test side is read-only. The method-by-method comparison of
 * rules/test-comparison.ts finds what a patch did to the failing tests themselves; one step away
 * (a helper of the test class, a shared tolerance or custom assertion, a new
 * `@BeforeEach`, an expected-output file, a test-support module) a patch can make the
 * same failing test pass without touching it. So when the repair's failures include
 * failing tests, every change on the test side is a finding, named by its file, the
 * member it is in and the part that differs. Files with a compile error of their own in
 * the diagnosis are left to the method-by-method comparison: a repair must be able to fix
 * them, and such a fix is high risk (`compileErrorFix`). `tests.allowFailingTestEdits` lets these findings through
 * (high risk, never
 * applied without a person).
 */
import type { FileChange } from '../../../patch/types.js';
import { oneLine } from '../assertions.js';
import { describeDifference, similarity } from '../differing-part.js';
import { memberAt, parsedJava } from '../member-name.js';
import { differingRuns } from '../test-body.js';
import { testSideRootOf, type TestSide } from '../test-side.js';
import type { IntegrityFinding, IntegrityRule } from '../types.js';

export interface TestSideInput {
  changes: readonly FileChange[];
  testSide: TestSide;
  /** Whether tests failed in the build being repaired (from the diagnosis, or an earlier one worked on). */
  testsFailed: boolean;
  /** Project-relative files with a compile error in the diagnosis: a repair may fix those. */
  compileErrorFiles: ReadonlySet<string>;
  /** Files the other checks already found something in: their finding says more. */
  alreadyFound: ReadonlySet<string>;
}

/** Said once after the findings of a refused patch, and to the model with them. */
export const TEST_SIDE_READ_ONLY = 'the test side is read-only while tests fail: fix the code under test instead';

/** At most this many changed places are named per file. */
const PLACES = 3;

export const testSideChanged = {
  id: 'test-side-changed',
  description: 'while tests fail, nothing on the test side changes (sources, resources, set-up, test-support modules)',
  // What the rules before it found in a file says more, so a file they named is left to them.
  check: (input) =>
    testSideFindings({
      changes: input.changes,
      testSide: input.testSide,
      testsFailed: input.failingTests.length > 0,
      compileErrorFiles: input.compileErrorFiles,
      alreadyFound: new Set(input.earlier.map((finding) => finding.file)),
    }),
} as const satisfies IntegrityRule;

export function testSideFindings(input: TestSideInput): IntegrityFinding[] {
  if (!input.testsFailed) return [];
  const findings: IntegrityFinding[] = [];
  for (const change of input.changes) {
    const paths = [...new Set([change.oldPath ?? change.path, change.path])];
    const onTestSide = paths
      .map((file) => ({ file, root: testSideRootOf(input.testSide, file) }))
      .find((entry) => entry.root);
    if (!onTestSide?.root) continue;
    if (paths.some((file) => input.alreadyFound.has(file))) continue;
    const where = `${change.path} (${onTestSide.root.what})`;
    if (paths.some((file) => input.compileErrorFiles.has(file))) {
      findings.push({
        rule: 'test-side-changed',
        file: change.path,
        message: `${describeChange(change, where)}, which had a compile error of its own`,
        failingTestEdit: true,
        compileErrorFix: true,
      });
      continue;
    }
    findings.push({
      rule: 'test-side-changed',
      file: change.path,
      ...firstLine(change),
      message: describeChange(change, where),
      failingTestEdit: true,
    });
  }
  return findings;
}

function describeChange(change: FileChange, where: string): string {
  if (change.before === null) return `added ${where}`;
  if (change.after === null) return `deleted ${where}`;
  const moved = change.oldPath && change.oldPath !== change.path ? ` (moved from ${change.oldPath})` : '';
  if (change.binary) return `changed ${where}${moved}`;
  const places = changedPlaces(change.before, change.after, change.path.endsWith('.java'));
  if (places.length === 0)
    return `changed ${where}${moved}${change.oldMode !== change.newMode ? ' (its mode)' : ' (white space only)'}`;
  const more =
    places.length > PLACES
      ? `; and ${places.length - PLACES} more change${places.length - PLACES === 1 ? '' : 's'}`
      : '';
  return `changed ${where}${moved}: ${places.slice(0, PLACES).join('; ')}${more}`;
}

/** Each run of changed lines, named by the method or type it is in (Java) or its line. */
function changedPlaces(before: string, after: string, java: boolean): string[] {
  const oldLines = before.split('\n');
  const newLines = after.split('\n');
  const key = (line: string) => line.trim().replace(/\s+/g, ' ');
  const parsedBefore = java ? parsedJava(before) : undefined;
  const parsedAfter = java ? parsedJava(after) : undefined;
  const places: string[] = [];
  for (const run of differingRuns(oldLines.map(key), newLines.map(key))) {
    const difference = describeRun(
      run.removed.map((index) => oldLines[index]!),
      run.added.map((index) => newLines[index]!),
    );
    if (!difference) continue;
    const line = run.added.length > 0 ? run.added[0]! + 1 : run.removed[0]! + 1;
    const member =
      run.added.length > 0
        ? memberAt(
            parsedAfter,
            run.added.map((index) => index + 1),
          )
        : memberAt(
            parsedBefore,
            run.removed.map((index) => index + 1),
          );
    places.push(`${member ? `in ${member}, ` : ''}line ${line}: ${difference}`);
  }
  return places;
}

/**
 * A run of changed lines in words: each removed line paired with the added line most like
 * it (its change quoted whole when short, else the part that differs), the rest added or deleted.
 */
function describeRun(removed: string[], added: string[]): string | undefined {
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
  const pairedWith = new Map<number, number>();
  removed.forEach((line, index) => {
    let best = -1;
    let score = 0.4;
    added.forEach((candidate, at) => {
      const alike = similarity(flat(line), flat(candidate));
      if (!pairedWith.has(at) && alike > score) [best, score] = [at, alike];
    });
    if (best >= 0) pairedWith.set(best, index);
  });
  const parts: string[] = [];
  added.forEach((line, at) => {
    const from = pairedWith.get(at);
    if (from === undefined) {
      if (flat(line) !== '') parts.push(`added \`${oneLine(line, 120)}\``);
      return;
    }
    const was = flat(removed[from]!);
    const now = flat(line);
    const described =
      was.length <= 80 && now.length <= 80
        ? was === now
          ? undefined
          : `\`${was}\` became \`${now}\``
        : describeDifference(was, now);
    if (described) parts.push(described);
  });
  const kept = new Set(pairedWith.values());
  removed.forEach((line, index) => {
    if (!kept.has(index) && flat(line) !== '') parts.push(`deleted \`${oneLine(line, 120)}\``);
  });
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function firstLine(change: FileChange): { line?: number } {
  if (change.before === null || change.after === null || change.binary) return {};
  const oldLines = change.before.split('\n');
  const newLines = change.after.split('\n');
  let index = 0;
  while (index < oldLines.length && index < newLines.length && oldLines[index] === newLines[index]) index++;
  return { line: index + 1 };
}
