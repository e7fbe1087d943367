/**
 * What the test-special-casing check needs, without loading the Java parser: whether a
 * fix changes main Java code at all (only then can it encode a test's oracle), and the
 * failing tests' files as they are in the original tree, read through the repair's view.
 */
import type { ChangeSet, FileChange } from '../../patch/types.js';
import { looksLikeTest } from './scope.js';
import type { FailingTestSource } from './test-oracle.js';

/** Failing tests read at most: the oracle of a handful is enough to judge a fix. */
const MAX_TESTS = 20;

/**
 * A Java file of main code: under `src/main/`, or anywhere without test markers (a test-detecting string does not make
 * a main class a test).
 */
export function isMainJava(change: FileChange): boolean {
  if (change.binary || change.after === null || !change.path.endsWith('.java')) return false;
  return /(^|\/)src\/main\//.test(change.path) || !looksLikeTest(change.path, change.before ?? change.after);
}

/** Whether the fix changes main Java code: the only place special-casing can be. */
export function changesMainJava(changeSet: ChangeSet): boolean {
  return changeSet.files.some(isMainJava);
}

/**
 * `com.acme.FooTest#method` -> the file declaring `com.acme.FooTest` (a test source root
 * first) and its text; tests whose file is not found are left out.
 */
export async function readFailingTestSources(
  tests: readonly string[],
  files: { read(path: string): Promise<string | undefined>; list(glob: string): Promise<string[]> },
): Promise<FailingTestSource[]> {
  const sources: FailingTestSource[] = [];
  for (const test of tests.slice(0, MAX_TESTS)) {
    const [className, method] = test.split('#');
    if (!className) continue;
    const relative = `${className.split('$')[0]!.replace(/\./g, '/')}.java`;
    const candidates = await files.list(`**/${relative}`);
    const path =
      candidates.find((candidate) => /(^|\/)src\/test\//.test(candidate)) ??
      candidates.find((candidate) => candidate === relative || candidate.endsWith(`/${relative}`));
    const text = path === undefined ? undefined : await files.read(path);
    if (path !== undefined && text !== undefined)
      sources.push({ ref: { className, ...(method ? { method } : {}) }, path, text });
  }
  return sources;
}
