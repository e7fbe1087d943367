/**
 * The last build that passed under mvnx, kept as `.mvnx/last-passing-build.json`: when, at which commit, and the text
 * of each POM of the reactor. A later failure whose POMs git cannot compare (no repository, no earlier commit, or no
 * version change since the compared revision) compares its dependencies' versions with this one
 * (repair/dependency-update/detect.ts). Kept only in a project that already has a `.mvnx` folder, so a passing build
 * elsewhere writes nothing.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { projectPoms } from '../maven/project-poms.js';

export const PASSING_BUILD_FILE = 'last-passing-build.json';

export interface PassingBuild {
  /** ISO time the build ended. */
  at: string;
  /** HEAD when the build ran, when the project is in git. */
  commit?: string;
  /** Project-relative POM path -> its text. */
  poms: Record<string, string>;
}

/** Writes the record of a build that passed; nothing when the project has no `.mvnx` folder. Never throws. */
export async function rememberPassingBuild(projectRoot: string, now = new Date()): Promise<boolean> {
  const folder = path.join(projectRoot, '.mvnx');
  if (!existsSync(folder)) return false;
  try {
    const read = async (file: string) => readFile(path.join(projectRoot, file), 'utf8').catch(() => undefined);
    const [files, head] = await Promise.all([
      projectPoms(read),
      execa('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: projectRoot, reject: false, timeout: 10_000 }),
    ]);
    if (files.length === 0) return false;
    const poms: Record<string, string> = {};
    for (const file of files) poms[file] = (await read(file)) ?? '';
    const record: PassingBuild = {
      at: now.toISOString(),
      ...(head.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(head.stdout.trim()) ? { commit: head.stdout.trim() } : {}),
      poms,
    };
    await mkdir(folder, { recursive: true });
    const target = path.join(folder, PASSING_BUILD_FILE);
    await writeFile(`${target}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
    await rename(`${target}.tmp`, target);
    return true;
  } catch {
    return false;
  }
}

/** The kept record, or undefined when there is none or it is not one. */
export async function readPassingBuild(projectRoot: string): Promise<PassingBuild | undefined> {
  const text = await readFile(path.join(projectRoot, '.mvnx', PASSING_BUILD_FILE), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<PassingBuild>;
    if (typeof value.at !== 'string' || !value.poms || typeof value.poms !== 'object') return undefined;
    const poms = Object.fromEntries(Object.entries(value.poms).filter(([, pom]) => typeof pom === 'string'));
    return { at: value.at, ...(typeof value.commit === 'string' ? { commit: value.commit } : {}), poms };
  } catch {
    return undefined;
  }
}
