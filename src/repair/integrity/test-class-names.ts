/**
 * Main code that names a class of the test side (issue 45): a string the fix adds to main
 * code that is the binary name of a class declared only under a test sources folder
 * (`Class.forName("com.acme.CartTestSupport")`, its `com/acme/CartTestSupport.class` file,
 * a nested `$Inner` of it). Such a class is on the class path only while the tests run:
 * main code that loads it, or checks whether it can, behaves one way under test and
 * another everywhere else. Pure: the class names are handed in.
 */
import type { FileChange } from '../../patch/types.js';
import { stringsIn } from './test-resource-names.js';

export interface ClassNames {
  /** Binary names of the top-level classes under the test sources folders (`com.acme.CartTest`). */
  test: readonly string[];
  /** The same for main sources. */
  main: readonly string[];
}

export interface TestClassName {
  rule: 'test-class';
  file: string;
  line: number;
  message: string;
}

/** `src/test/java/com/acme/CartTest.java` (any module) -> `com.acme.CartTest`; undefined for other files. */
export function classNameOfSource(file: string): string | undefined {
  const match = /(?:^|\/)src\/(?:test|main)\/java\/(.+)\.java$/.exec(file);
  return match ? match[1]!.replace(/\//g, '.') : undefined;
}

export function testClassNames(change: FileChange, classes: ClassNames | undefined): TestClassName[] {
  if (!classes || classes.test.length === 0) return [];
  const test = new Set(classes.test);
  const main = new Set(classes.main);
  const file = change.path;
  const after = change.after ?? '';
  const already = new Set(stringsIn(change.before ?? '').map((found) => found.text));
  const out: TestClassName[] = [];
  for (const found of stringsIn(after)) {
    if (already.has(found.text)) continue;
    const named = found.text
      .trim()
      .replace(/^\/+/, '')
      .replace(/\.class$/, '')
      .replace(/\//g, '.')
      .replace(/\$.*$/, '');
    if (!test.has(named) || main.has(named)) continue;
    const line = after.slice(0, found.offset).split('\n').length;
    out.push({
      rule: 'test-class',
      file,
      line,
      message: `${file}: now names the test class ${named} ("${found.text}", line ${line}), which is on the class path only while the tests run; main code must not load or look for test classes`,
    });
  }
  return out;
}
