/**
 * Which files of a change set the test-integrity check reads. Kept apart from the
 * checker (and from the Java parser it loads) so that a fix of main code alone is passed
 * without loading either.
 */
import type { ChangeSet, FileChange } from '../../patch/types.js';
import { moduleDirOf, testSideRootOf, type TestSide } from './test-side.js';

/** Test markers in a Java file's text. */
const TEST_MARKERS =
  /@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Nested)\b|\bextends\s+TestCase\b|\borg\.junit\b|\borg\.testng\b/;

/** A Java file that holds tests: under a test source folder, or with test markers. */
export function looksLikeTest(path: string, text: string): boolean {
  return /(^|\/)src\/(test|it|integration-test)\//.test(path) || TEST_MARKERS.test(text);
}

/** Build and test-runner settings that decide which tests run. */
export function isTestConfig(path: string): boolean {
  const name = path.split('/').pop() ?? '';
  return (
    name === 'pom.xml' ||
    name === 'junit-platform.properties' ||
    /(^|\/)\.mvn\/(maven|jvm)\.config$/.test(path) ||
    /(^|\/)META-INF\/services\/org\.junit\./.test(path)
  );
}

function concerns(file: FileChange, testSide: TestSide): boolean {
  const before = file.oldPath ?? file.path;
  if (isTestConfig(file.path) || isTestConfig(before)) return true;
  if (testSideRootOf(testSide, file.path) || testSideRootOf(testSide, before)) return true;
  if (namesTestSide(file, testSide)) return true;
  return before.endsWith('.java') && file.before !== null && looksLikeTest(before, file.before);
}

/**
 * A Java file whose patch adds a string literal naming a place on the test side (relative
 * to its module): main code may be reading it (rules/main-reads-test-side.ts decides).
 */
function namesTestSide(file: FileChange, testSide: TestSide): boolean {
  if (file.binary || file.after === null || !file.path.endsWith('.java')) return false;
  const dir = moduleDirOf(file.path);
  const module = dir === '' ? '' : `${dir}/`;
  const before = new Set(file.before?.match(/"[^"\n]*"/g) ?? []);
  return (file.after.match(/"[^"\n]*"/g) ?? []).some((literal) => {
    const path = `${module}${literal.slice(1, -1).replace(/^(\.\/)+/, '')}`;
    return !before.has(literal) && literal.length > 2 && testSideRootOf(testSide, `${path}/`) !== undefined;
  });
}

/**
 * Whether the check has anything to read in this change set: tests, test settings, any file on the test side, or Java
 * code that names a place on it.
 */
export function touchesTests(changeSet: ChangeSet, testSide: TestSide = { roots: [] }): boolean {
  return changeSet.files.some((file) => concerns(file, testSide));
}
