/**
 * A fixer's test as a table, on the model of ESLint's RuleTester: each row is a small
 * project (path -> text), the javac lines Maven printed for it, and the edit the fixer
 * must propose, or 'none'. Each row becomes one `it`, run the way mvnx runs a fixer: the
 * log through the real diagnosis (`diagnoseBuild`), the fixable diagnostics to a
 * `FixerRegistry` holding the fixer (`register` runs the plugin check), over the disk
 * `SourceView` of the files written to a scratch folder.
 *
 *   testFixer(missingSemicolonFixer, [
 *     { name: 'adds it', files: { [A]: 'int x = 1\n' }, log: [`[ERROR] ${PROJECT_ROOT}/${A}:[1,10] ';' expected`], edit: { [A]: 'int x = 1;\n' } },
 *   ]);
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseBuild } from '../../src/diagnose/index.js';
import type { Diagnostic } from '../../src/diagnose/types.js';
import type { FixCandidate, Fixer, FixerContext } from '../../src/plugins/contracts.js';
import { FixerRegistry } from '../../src/repair/fixers/registry.js';
import { createSourceView } from '../../src/codebase/disk-source-view.js';

/** Written in a row's log where javac prints the project's absolute root; the scratch folder replaces it. */
export const PROJECT_ROOT = '@PROJECT_ROOT@';

/** Project-relative path -> whole text; null for a file the change deletes. */
export type FileTexts = Record<string, string | null>;

export interface FixerTestRow {
  /** The `it` title: what the row shows. */
  name: string;
  /** The project's files as they are when the build fails. */
  files: Record<string, string>;
  /** Maven's log lines as printed (javac's `[ERROR] <root>/File.java:[line,col] message` and its continuations), paths under PROJECT_ROOT. */
  log: string[];
  /**
   * The files the fixer's one candidate writes, with their texts after the fix; several
   * objects for several candidates, best first; 'none' when the fixer must propose nothing.
   */
  edit: FileTexts | FileTexts[] | 'none';
  /** A substring of the (first) candidate's reason. */
  reason?: string;
  /**
   * Whether the fixer says it handles some diagnostic of the log. A refusal row is only
   * worth its name when the fixer looked and declined, so true is checked unless the row
   * says false (a diagnostic of another kind).
   */
  handled?: boolean;
  context?: FixerContext;
}

/** One `describe` named after the fixer, one `it` per row. */
export function testFixer(fixer: Fixer, rows: readonly FixerTestRow[]): void {
  describe(`fixer ${fixer.name}`, () => {
    for (const row of rows) it(row.name, () => runRow(fixer, row));
  });
}

async function runRow(fixer: Fixer, row: FixerTestRow): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-fixer-tester-'));
  try {
    for (const [file, text] of Object.entries(row.files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    const diagnostics = await diagnose(root, row.log);
    // As repair/fixer-proposer.ts does: only what a code patch can help goes to the fixers.
    const fixable = diagnostics.filter((diagnostic) => diagnostic.fixable);
    expect(fixable, `${row.name}: the log gave no fixable diagnostic, so the row tests nothing`).not.toEqual([]);
    const handled = fixable.some((diagnostic) => fixer.handles(diagnostic));
    expect(handled, `${row.name}: ${fixer.name}.handles() on ${describeDiagnostics(fixable)}`).toBe(
      row.handled ?? true,
    );
    const registry = new FixerRegistry();
    registry.register(fixer);
    const candidates = await registry.propose(fixable, createSourceView(root), row.context ?? {});
    const expected = row.edit === 'none' ? [] : Array.isArray(row.edit) ? row.edit : [row.edit];
    expect(candidates.map(afterTexts), `${row.name}: files after each candidate (${reasons(candidates)})`).toEqual(
      expected,
    );
    for (const candidate of candidates) {
      for (const file of candidate.changeSet.files)
        expect(file.before, `${row.name}: ${file.path} before the change`).toBe(row.files[file.path] ?? null);
    }
    if (row.reason !== undefined) expect(candidates[0]?.reason, `${row.name}: reason`).toContain(row.reason);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The row's log through the real diagnosis, as if the build had run in `root`. */
async function diagnose(root: string, log: string[]): Promise<Diagnostic[]> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-fixer-tester-log-'));
  try {
    const logFile = path.join(scratch, 'build.log');
    await writeFile(logFile, `${log.map((line) => line.split(PROJECT_ROOT).join(root)).join('\n')}\n`);
    return (await diagnoseBuild({ projectRoot: root, logFile, exitCode: 1 })).diagnostics;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function afterTexts(candidate: FixCandidate): FileTexts {
  return Object.fromEntries(candidate.changeSet.files.map((file) => [file.path, file.after]));
}

function reasons(candidates: FixCandidate[]): string {
  return candidates.length === 0 ? 'no candidate' : candidates.map((candidate) => `"${candidate.reason}"`).join(', ');
}

function describeDiagnostics(diagnostics: Diagnostic[]): string {
  return diagnostics
    .map((d) => `${d.kind} ${d.file ?? '?'}:${d.line ?? '?'}:${d.column ?? '?'} "${d.message}"`)
    .join('; ');
}
