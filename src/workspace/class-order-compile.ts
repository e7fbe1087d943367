/**
 * The class orderer (class-order.ts) compiled once per junit-jupiter-api jar and kept in
 * mvnx's cache folder: javac is a JVM start (about a second), paid by the first verification
 * on a machine, not by every candidate. IO at the edge.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { searchPath } from '../shared/path-search.js';
import { CLASS_ORDER_NAME, CLASS_ORDER_SOURCE } from './class-order.js';

/** The orderer's class file path relative to a class folder. */
export const CLASS_ORDER_FILE = `${CLASS_ORDER_NAME.replace(/\./g, '/')}.class`;

/**
 * A folder holding the compiled orderer (at CLASS_ORDER_FILE), or why there is none: no
 * javac, or javac refused (a jar too old or unreadable). Never throws.
 */
export async function compiledClassOrder(input: {
  jupiterApiJar: string;
  cacheDir: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ classes: string } | { why: string }> {
  const jar = await stat(input.jupiterApiJar).catch(() => undefined);
  if (!jar) return { why: `${input.jupiterApiJar} cannot be read` };
  const key = createHash('sha256')
    .update(`${CLASS_ORDER_SOURCE}\0${input.jupiterApiJar}\0${jar.size}\0${jar.mtimeMs}`)
    .digest('hex')
    .slice(0, 24);
  const classes = path.join(input.cacheDir, 'class-order', key);
  if (existsSync(path.join(classes, CLASS_ORDER_FILE))) return { classes };

  const javac = javacOf(input.env);
  if (!javac) return { why: 'no javac was found (JAVA_HOME, PATH)' };
  await mkdir(path.dirname(classes), { recursive: true });
  const scratch = await mkdtemp(`${classes}.tmp-`);
  try {
    const source = path.join(scratch, 'src', `${CLASS_ORDER_NAME.replace(/\./g, '/')}.java`);
    await mkdir(path.dirname(source), { recursive: true });
    await writeFile(source, CLASS_ORDER_SOURCE);
    const out = path.join(scratch, 'classes');
    const run = await execa(
      javac,
      ['--release', '8', '-nowarn', '-encoding', 'UTF-8', '-cp', input.jupiterApiJar, '-d', out, source],
      { reject: false, env: input.env, extendEnv: false, timeout: 120_000 },
    );
    if (run.exitCode !== 0)
      return {
        why: `javac could not compile the orderer against ${path.basename(input.jupiterApiJar)}: ${(run.stderr || run.stdout).split('\n')[0]}`,
      };
    // Renamed into place whole: a concurrent run sees the folder complete or not at all.
    await rename(out, classes).catch(() => undefined);
    return existsSync(path.join(classes, CLASS_ORDER_FILE))
      ? { classes }
      : { why: `the compiled orderer could not be kept in ${classes}` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function javacOf(env: NodeJS.ProcessEnv): string | undefined {
  const bundled = env.JAVA_HOME
    ? path.join(env.JAVA_HOME, 'bin', process.platform === 'win32' ? 'javac.exe' : 'javac')
    : undefined;
  return bundled && existsSync(bundled) ? bundled : searchPath('javac', env);
}
