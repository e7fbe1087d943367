/** Shared by the fixer tests: a fixture's real Maven log turned into Diagnostics by the real parser. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagnoseBuild } from '../../src/diagnose/index.js';
import type { Diagnostic } from '../../src/diagnose/types.js';

export const FIXERS_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/fixers');

/** The placeholder regenerate.sh writes in place of the fixture's absolute project root. */
export const ROOT_PLACEHOLDER = '@PROJECT_ROOT@';

export interface LoadedFixture {
  name: string;
  /** Absolute folder of the Maven project. */
  root: string;
  diagnostics: Diagnostic[];
}

/**
 * Diagnoses `<name>/build.log` with the real diagnosis stage, as if the build had run in
 * `projectRoot` (the checked-in project by default).
 */
export async function loadFixture(
  name: string,
  projectRoot = path.join(FIXERS_FIXTURES, name, 'project'),
): Promise<LoadedFixture> {
  const log = await readFile(path.join(FIXERS_FIXTURES, name, 'build.log'), 'utf8');
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-fixer-log-'));
  try {
    const logFile = path.join(scratch, 'build.log');
    await writeFile(logFile, log.split(ROOT_PLACEHOLDER).join(projectRoot));
    const diagnosis = await diagnoseBuild({ projectRoot, logFile, runStartedAt: new Date(), exitCode: 1 });
    return { name, root: projectRoot, diagnostics: diagnosis.diagnostics };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function readExpected(name: string, file: string): Promise<string> {
  return readFile(path.join(FIXERS_FIXTURES, name, 'expected', file), 'utf8');
}

/** Fixtures with exactly one mechanical break, the fixer that must fix it and the files it changes. */
export const MECHANICAL_FIXTURES: { name: string; fixer: string; files: string[] }[] = [
  { name: 'import-jdk-ambiguous', fixer: 'missing-import', files: ['src/main/java/com/acme/roster/Roster.java'] },
  { name: 'import-jdk-static-call', fixer: 'missing-import', files: ['src/main/java/com/acme/timer/Timeouts.java'] },
  { name: 'import-project-class', fixer: 'missing-import', files: ['src/main/java/com/acme/shop/Cart.java'] },
  { name: 'import-test-dependency', fixer: 'missing-import', files: ['src/test/java/com/acme/calc/AdderTest.java'] },
  { name: 'import-sorted-crlf', fixer: 'missing-import', files: ['src/main/java/com/acme/index/WordIndex.java'] },
  { name: 'semicolon-declaration', fixer: 'missing-semicolon', files: ['src/main/java/com/acme/stats/Counter.java'] },
  {
    name: 'semicolon-trailing-comment',
    fixer: 'missing-semicolon',
    files: ['src/main/java/com/acme/queue/Inbox.java'],
  },
  { name: 'bad-unused-import', fixer: 'bad-import', files: ['src/main/java/com/acme/report/Summary.java'] },
  { name: 'conflicting-import', fixer: 'bad-import', files: ['src/main/java/com/acme/menu/Menu.java'] },
  { name: 'unreported-private', fixer: 'missing-throws', files: ['src/main/java/com/acme/config/ConfigLoader.java'] },
  { name: 'wrong-package', fixer: 'wrong-package', files: ['src/main/java/com/acme/util/Slugs.java'] },
  { name: 'literal-return', fixer: 'literal-return', files: ['src/main/java/com/acme/net/RetryPolicy.java'] },
  {
    name: 'renamed-superclass-method',
    fixer: 'renamed-member',
    files: ['src/main/java/com/acme/json/OptionalIntReader.java'],
  },
  { name: 'renamed-jdk-member', fixer: 'renamed-member', files: ['src/main/java/com/acme/window/Window.java'] },
];

/** Fixtures whose failure is not mechanical: no fixer may propose anything. */
export const OTHER_FIXTURES = [
  'other-logic-bug',
  'other-public-unreported',
  'other-lossy-return',
  'other-unknown-method',
  'other-ambiguous-member',
];
