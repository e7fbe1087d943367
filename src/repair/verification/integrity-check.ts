/**
 * The loop's test-integrity port: the test side read once per repair (the poms), the
 * tests that failed (the user's build and any later diagnosis worked on) and the files
 * with a compile error of their own, handed to repair/integrity/ with the patch.
 */
import type { Diagnosis } from '../../diagnose/types.js';
import type { ChangeSet } from '../../patch/types.js';
import type { IntegrityRule } from '../../plugins/contracts.js';
import type { IntegrityOutcome } from '../loop/ports.js';
import { changesMainJava, readFailingTestSources } from '../integrity/oracle-inputs.js';
import { touchesTests } from '../integrity/scope.js';
import { readTestSide } from '../integrity/test-side-read.js';
import { testSideRootOf, type TestSide } from '../integrity/test-side.js';
import { failingTests } from './verifier.js';

/** The original tree, read-only: where the failing tests' sources are read for the special-casing check. */
type OriginalTree = Parameters<typeof readFailingTestSources>[1];

export function createIntegrityCheck(input: {
  projectRoot: string;
  original: OriginalTree;
  userFailures: readonly string[];
  allowFailingTestEdits: boolean;
  /** Plugins' rules, run after mvnx's own on every fix (they may only add findings). */
  pluginRules?: readonly IntegrityRule[];
}) {
  const pluginRules = input.pluginRules ?? [];
  let testSide: Promise<TestSide> | undefined;
  let resources: Promise<{ test: string[]; main: string[] }> | undefined;
  let classes: Promise<{ test: string[]; main: string[] }> | undefined;
  return async (fix: ChangeSet, diagnosis: Diagnosis): Promise<IntegrityOutcome> => {
    const side = await (testSide ??= readTestSide(input.projectRoot));
    const failing = [...new Set([...input.userFailures, ...failingTests(diagnosis)])];
    // Main code can encode a failing test's oracle (test-special-casing) only when tests failed.
    const oracleAtStake = failing.length > 0 && changesMainJava(fix);
    // A plugin's rule may look at any fix, so with plugin rules every fix is checked.
    const testsTouched = touchesTests(fix, side) || pluginRules.length > 0;
    if (!testsTouched && !oracleAtStake) return { failingTestEdits: [] };
    // Loaded only for a fix that touches the test side or test settings, or main code in a repair of failing tests: the
    // Java parser takes a while to start.
    const integrity = await import('../integrity/index.js');
    const verdict = testsTouched
      ? integrity.checkTestIntegrity({
          changeSet: fix,
          failingTests: failing.map(integrity.failingTestRef),
          policy: { allowFailingTestEdits: input.allowFailingTestEdits },
          testSide: side,
          compileErrorFiles: new Set(
            diagnosis.diagnostics.flatMap((d) => (d.kind === 'compile' && d.file ? [d.file] : [])),
          ),
          ...(pluginRules.length > 0 ? { rules: pluginRules } : {}),
        })
      : { blocking: [], allowedFailingTestEdits: [] };
    const failingTestEdits = verdict.allowedFailingTestEdits.map((finding) => finding.message);
    if (verdict.blocking.length > 0)
      return { refused: integrity.testWeakeningReason(verdict.blocking), failingTestEdits };
    const specialCasing = oracleAtStake
      ? integrity.specialCasingFindings({
          changes: fix.files,
          tests: await readFailingTestSources(failing, input.original),
          resources: await (resources ??= resourcePaths(input.original)),
          classes: await (classes ??= classNames(input.original, integrity.classNameOfSource)),
        })
      : [];
    return {
      ...(specialCasing.length > 0 ? { refused: integrity.testSpecialCasingReason(specialCasing) } : {}),
      failingTestEdits,
    };
  };
}

/**
 * For the prompt, when tests fail: which shown files are on the test side (shown read-only,
 * with a note that a patch to them is refused). A file with a compile error of its own stays editable.
 */
export async function testSideOfPrompt(
  diagnosis: Diagnosis,
  projectRoot: string,
): Promise<{ testSide?: (path: string) => boolean }> {
  if (failingTests(diagnosis).length === 0) return {};
  const side = await readTestSide(projectRoot);
  const compileErrorFiles = new Set(
    diagnosis.diagnostics.flatMap((d) => (d.kind === 'compile' && d.file ? [d.file] : [])),
  );
  return { testSide: (path) => !compileErrorFiles.has(path) && testSideRootOf(side, path) !== undefined };
}

/** The project's resource files, relative to their `src/{test,main}/resources` folder (read once per repair). */
async function resourcePaths(original: OriginalTree): Promise<{ test: string[]; main: string[] }> {
  const under = async (kind: 'test' | 'main') =>
    (await original.list(`**/src/${kind}/resources/**`)).map((file) =>
      file.replace(/^(.*\/)?src\/(test|main)\/resources\//, ''),
    );
  return { test: await under('test'), main: await under('main') };
}

/** The project's class names by side, from its source files (read once per repair). */
async function classNames(
  original: OriginalTree,
  nameOf: (file: string) => string | undefined,
): Promise<{ test: string[]; main: string[] }> {
  const under = async (kind: 'test' | 'main') =>
    (await original.list(`**/src/${kind}/java/**/*.java`)).flatMap((file) => nameOf(file) ?? []);
  return { test: await under('test'), main: await under('main') };
}
