/**
 * Loads the captured fixture cases under test/fixtures/diagnose/cases and lays one out
 * as a real project tree (project sources + the reports the run wrote) in a temp dir.
 */
import { cp, readdir, readFile, writeFile, mkdir, utimes } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnosis } from '../../src/diagnose/index.js';
import { tempDir } from '../helpers/temp-dir.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/diagnose');
export const CASES_DIR = path.join(FIXTURES, 'cases');
export const PLACEHOLDER_ROOT = '/__ROOT__';
export const WINDOWS_ROOT = 'C:\\Users\\dev\\my proj';

export interface CaseMeta {
  project?: string;
  args?: string;
  exitCode?: number;
  derivedFrom?: string;
  /** The root the log's paths name, for logs that cannot be laid out here (Windows, other encodings). */
  projectRoot?: string;
  /** Written from a plugin's documented output format, not captured: what was written from what. */
  composed?: string;
  note?: string;
}

export interface FixtureCase {
  name: string;
  dir: string;
  meta: CaseMeta;
  /** The fixture project the log came from (for derived logs: that of the source case). */
  project: string;
  console: string;
}

export async function loadCases(): Promise<FixtureCase[]> {
  const names = (await readdir(CASES_DIR)).sort();
  const cases: FixtureCase[] = [];
  for (const name of names) {
    const dir = path.join(CASES_DIR, name);
    const meta = JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8')) as CaseMeta;
    let project = meta.project;
    if (!project && meta.derivedFrom) {
      const source = JSON.parse(
        await readFile(path.join(CASES_DIR, meta.derivedFrom, 'meta.json'), 'utf8'),
      ) as CaseMeta;
      project = source.project;
    }
    if (!project) throw new Error(`case ${name}: meta.json names no project`);
    cases.push({ name, dir, meta, project, console: await readFile(path.join(dir, 'console.txt'), 'utf8') });
  }
  return cases;
}

export function projectDir(project: string): string {
  return path.join(FIXTURES, 'projects', project);
}

async function copyReports(from: string, root: string): Promise<void> {
  // reports/<moduleDir>/surefire-reports/X.xml -> <root>/<moduleDir>/target/surefire-reports/X.xml
  // reports/<moduleDir>/pmd.xml -> <root>/<moduleDir>/target/pmd.xml
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(abs);
        continue;
      }
      const rel = path.relative(from, abs).split(path.sep);
      const found = rel.findIndex((p) => p === 'surefire-reports' || p === 'failsafe-reports');
      const kindAt = found === -1 ? rel.length - 1 : found;
      const dest = path.join(root, ...rel.slice(0, kindAt), 'target', ...rel.slice(kindAt));
      await mkdir(path.dirname(dest), { recursive: true });
      const xml = (await readFile(abs, 'utf8')).replaceAll(PLACEHOLDER_ROOT, root);
      await writeFile(dest, xml);
    }
  };
  if (existsSync(from)) await walk(from);
}

export interface LaidOutCase {
  root: string;
  logFile: string;
  startedAt: Date;
}

/** A real tree for `diagnoseBuild`: project copy, reports (fresh mtimes), log with real paths. */
export async function layOut(c: FixtureCase): Promise<LaidOutCase> {
  const base = await tempDir('mvnx-diagnose-');
  const root = path.join(base, 'project');
  await cp(projectDir(c.project), root, { recursive: true });
  const startedAt = new Date(Date.now() - 1_000);
  await copyReports(path.join(c.dir, 'reports'), root);
  const logFile = path.join(base, 'console.txt');
  await writeFile(logFile, c.console.replaceAll(PLACEHOLDER_ROOT, root));
  return { root, logFile, startedAt };
}

export async function setMtime(file: string, when: Date): Promise<void> {
  await utimes(file, when, when);
}

/** What the expected.json files hold: the diagnosis with fingerprints checked separately. */
export function comparable(d: Diagnosis): unknown {
  return {
    fixable: d.fixable,
    reason: d.reason,
    modules: d.modules,
    warnings: d.warnings,
    diagnostics: d.diagnostics.map(({ fingerprint: _fp, ...rest }) => rest),
  };
}
