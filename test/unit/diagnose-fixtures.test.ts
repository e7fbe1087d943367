// Table-driven: every captured fixture log (and its reports) gives exactly the
// diagnostics in its expected.json. DIAGNOSE_UPDATE_EXPECTED=1 rewrites them for review.
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseBuild, diagnosticFingerprint, discoverModules, parseMavenLog } from '../../src/diagnose/index.js';
import { assembleDiagnosis } from '../../src/diagnose/diagnosis.js';
import type { Diagnosis } from '../../src/diagnose/index.js';
import { comparable, layOut, loadCases, PLACEHOLDER_ROOT, projectDir, type FixtureCase } from './diagnose-cases.js';

const cases = await loadCases();
const update = process.env.DIAGNOSE_UPDATE_EXPECTED === '1';

async function diagnoseCase(c: FixtureCase): Promise<Diagnosis> {
  if (c.meta.projectRoot) {
    // Windows paths, other encodings: read the checked-in bytes against the root the log names.
    return diagnoseBuild({
      projectRoot: projectDir(c.project),
      logFile: path.join(c.dir, 'console.txt'),
      logRoot: c.meta.projectRoot,
      exitCode: c.meta.exitCode ?? 1,
    });
  }
  const tree = await layOut(c);
  return diagnoseBuild({
    projectRoot: tree.root,
    logFile: tree.logFile,
    runStartedAt: tree.startedAt,
    exitCode: c.meta.exitCode ?? 1,
  });
}

async function expectedOf(c: FixtureCase, actual: unknown): Promise<unknown> {
  const file = path.join(c.dir, 'expected.json');
  if (update) await writeFile(file, JSON.stringify(actual, null, 2) + '\n');
  if (!existsSync(file)) throw new Error(`${file} is missing; run with DIAGNOSE_UPDATE_EXPECTED=1 and review it`);
  return JSON.parse(await readFile(file, 'utf8'));
}

describe('captured fixture logs', () => {
  it('covers every category the brief asks for', () => {
    expect(cases.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'compile-errors',
        'compile-errors-quiet',
        'compile-errors-color',
        'test-compile-error',
        'multi-module',
        'test-failures',
        'test-oom',
        'dependency-missing',
        'plugin-missing',
        'enforcer-rule',
        'pom-malformed',
        'unknown-lifecycle',
        'windows-compile-errors',
        'windows-multi-module',
        // -Werror, javadoc, quality gates, crashed and hung forks, reasons
        'werror',
        'werror-quiet',
        'doclint',
        'javadoc',
        'checkstyle',
        'pmd',
        'spotbugs',
        'forbiddenapis',
        'spotless',
        'fmt',
        'license',
        'format-check',
        'test-exit',
        'test-exit-quiet',
        'test-fork-timeout',
        'test-fork-timeout-quiet',
        'plugin-prefix-offline',
        // logs from elsewhere
        'ci-github-actions',
        'ci-github-web',
        'ci-jenkins-parallel',
        'windows-no-drive',
        'legacy-compiler-format',
        'lone-cr',
        'utf16-bom',
        'latin1-path',
      ]),
    );
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s gives exactly the expected diagnosis', async (_name, c) => {
    const diagnosis = await diagnoseCase(c);
    const actual = comparable(diagnosis);
    expect(actual).toEqual(await expectedOf(c, actual));
    for (const d of diagnosis.diagnostics) {
      const { fingerprint, ...rest } = d;
      expect(fingerprint).toBe(diagnosticFingerprint(rest));
    }
  });

  it.each(cases.filter((c) => !c.meta.projectRoot).map((c) => [c.name, c] as const))(
    '%s: the pure log parser with projectRoot /__ROOT__ finds the same compile, quality and build failures',
    async (_name, c) => {
      const log = parseMavenLog(c.console.split('\n'), { projectRoot: PLACEHOLDER_ROOT });
      const expected = (await expectedOf(c, comparable(await diagnoseCase(c)))) as {
        diagnostics: Array<{ kind: string; category: string }>;
      };
      // No files at all: reports and dump files are the file side's, so cases that need them are compared without.
      const assembled = assembleDiagnosis({
        log,
        testDiagnostics: [],
        moduleFolders: await discoverModules(projectDir(c.project)),
        exitCode: 1,
      });
      const fromLog = assembled.diagnostics
        .filter((d) => d.kind !== 'test')
        .map(({ fingerprint: _fp, ...rest }) => rest);
      const expectedHere = expected.diagnostics.filter((d) => d.kind !== 'test');
      if (existsSync(path.join(c.dir, 'reports')) && expectedHere.some((d) => d.kind === 'quality')) {
        // Quality reports are read by the file side: the log alone still names every failed gate.
        const tools = (ds: Array<{ kind: string; tool?: string }>) =>
          [...new Set(ds.filter((d) => d.kind === 'quality').map((d) => d.tool))].sort();
        expect(tools(fromLog)).toEqual(tools(expectedHere as Array<{ kind: string; tool?: string }>));
      } else {
        expect(fromLog).toEqual(expectedHere);
      }
    },
  );
});
