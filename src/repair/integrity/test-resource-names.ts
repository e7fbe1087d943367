/**
 * Main code that names a test resource (issue 45): a string the fix adds to main code that
 * is the path of a file under a test resources folder (`/expected-banner.txt`, or relative
 * to the class's package) and of no main resource. On the class path only while the tests
 * run, such a file is what the tests expect; main code that reads it passes them and
 * fails everywhere else. Pure: the resource paths are handed in (relative to their
 * resources folder).
 */
import { maskCommentsAndLiterals } from '../../java/index.js';
import type { FileChange } from '../../patch/types.js';

export interface ResourcePaths {
  /** Paths under the test resources folders, relative to those folders. */
  test: readonly string[];
  /** The same for main resources. */
  main: readonly string[];
}

export interface TestResourceName {
  rule: 'test-resource';
  file: string;
  line: number;
  message: string;
}

export function testResourceNames(change: FileChange, resources: ResourcePaths | undefined): TestResourceName[] {
  if (!resources || resources.test.length === 0) return [];
  const file = change.path;
  const after = change.after ?? '';
  const before = change.before ?? '';
  const main = new Set(resources.main);
  const already = new Set(stringsIn(before).map((found) => found.text));
  const out: TestResourceName[] = [];
  for (const found of stringsIn(after)) {
    const name = found.text.replace(/^\/+/, '');
    if (already.has(found.text) || name === '' || !name.includes('.')) continue;
    const resource = resources.test.find((path) => path === name || path.endsWith(`/${name}`));
    if (!resource || main.has(resource) || resources.main.some((path) => path.endsWith(`/${name}`) || path === name))
      continue;
    const line = after.slice(0, found.offset).split('\n').length;
    out.push({
      rule: 'test-resource',
      file,
      line,
      message: `${file}: now names the test resource ${resource} ("${found.text}", line ${line}), which is on the class path only while the tests run; main code may not read what the tests expect`,
    });
  }
  return out;
}

/** Each string literal of a Java text, with its offset (comments skipped). */
export function stringsIn(text: string): { text: string; offset: number }[] {
  const masked = maskCommentsAndLiterals(text);
  return [...masked.matchAll(/"( *)"/g)].map((match) => ({
    text: text.slice(match.index + 1, match.index + match[0].length - 1),
    offset: match.index,
  }));
}
