/**
 * A tiny spotless-style formatter plugin (check + apply) that works offline. The real
 * spotless-maven-plugin is not in the offline repository and maven-plugin-plugin is not
 * either, so the plugin is compiled here with javac and jar against maven-plugin-api and
 * installed into the local repository as dev.mvnx.fixtures:spotless-maven-plugin:1.0.0,
 * with a hand-written descriptor (test/fixtures/maven-plugins/tiny-format).
 *
 * Idempotent: a hash of its sources sits beside the jar, and the install is skipped when
 * it matches. Files are written to a temp name and renamed, so parallel test files never
 * see half a jar.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { repoRoot } from './repair-project.js';

export const TINY_FORMAT = {
  groupId: 'dev.mvnx.fixtures',
  artifactId: 'spotless-maven-plugin',
  version: '1.0.0',
} as const;
const SOURCE = path.join(repoRoot, 'test/fixtures/maven-plugins/tiny-format');

function localRepository(): string {
  return path.join(os.homedir(), '.m2', 'repository');
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else out.push(full);
  }
  return out.sort();
}

async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await listFiles(SOURCE))
    hash
      .update(path.relative(SOURCE, file))
      .update('\0')
      .update(await readFile(file));
  return hash.digest('hex');
}

/** The maven-plugin-api jar to compile against (the API of AbstractMojo has not changed since 3.0). */
function pluginApiJar(): string {
  for (const version of ['3.2.5', '3.1.0', '3.0']) {
    const jar = path.join(
      localRepository(),
      'org/apache/maven/maven-plugin-api',
      version,
      `maven-plugin-api-${version}.jar`,
    );
    if (existsSync(jar)) return jar;
  }
  throw new Error('no maven-plugin-api jar in the local repository to compile the tiny formatter plugin against');
}

export async function ensureTinyFormatPlugin(): Promise<void> {
  const dir = path.join(
    localRepository(),
    ...TINY_FORMAT.groupId.split('.'),
    TINY_FORMAT.artifactId,
    TINY_FORMAT.version,
  );
  const base = `${TINY_FORMAT.artifactId}-${TINY_FORMAT.version}`;
  const hash = await sourceHash();
  const stamp = path.join(dir, `${base}.source-sha256`);
  if (existsSync(path.join(dir, `${base}.jar`)) && existsSync(stamp) && (await readFile(stamp, 'utf8')).trim() === hash)
    return;

  const work = await mkdtemp(path.join(os.tmpdir(), 'mvnx-tiny-format-'));
  try {
    const classes = path.join(work, 'classes');
    await mkdir(classes, { recursive: true });
    const sources = (await listFiles(path.join(SOURCE, 'src/main/java'))).filter((file) => file.endsWith('.java'));
    await execa('javac', ['--release', '8', '-nowarn', '-cp', pluginApiJar(), '-d', classes, ...sources]);
    await mkdir(path.join(classes, 'META-INF/maven'), { recursive: true });
    await copyFile(
      path.join(SOURCE, 'src/main/resources/META-INF/maven/plugin.xml'),
      path.join(classes, 'META-INF/maven/plugin.xml'),
    );
    const jar = path.join(work, `${base}.jar`);
    await execa('jar', ['--create', '--file', jar, '-C', classes, '.']);

    await mkdir(dir, { recursive: true });
    const unique = `${process.pid}-${Date.now()}`;
    for (const [from, name] of [
      [jar, `${base}.jar`],
      [path.join(SOURCE, 'pom.xml'), `${base}.pom`],
    ] as const) {
      const temp = path.join(dir, `${name}.${unique}.tmp`);
      await copyFile(from, temp);
      await rename(temp, path.join(dir, name));
    }
    const tempStamp = `${stamp}.${unique}.tmp`;
    await writeFile(tempStamp, `${hash}\n`);
    await rename(tempStamp, stamp);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
