/**
 * The behavioural probe's run (its Java side: behaviour-probe-source.ts): compiled once per
 * machine into mvnx's cache folder (javac is a JVM start, about a second), copied into the
 * workspace with the original classes (a sandbox sees only the workspace), then started
 * with the workspace's `java` under the same isolation as a verification stage. IO at the
 * edge; what to call and what the answers mean are the caller's (repair/integrity/).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { searchPath } from '../shared/path-search.js';
import { PROBE_CLASS_NAME, PROBE_SOURCE } from './behaviour-probe-source.js';
import { runCommandInWorkspace } from './command.js';
import type { SandboxInfo } from './sandbox.js';

/** A method both sides are asked: parameter types as the harness names them (`int`, `String`, ...). */
export interface ProbeTarget {
  className: string;
  name: string;
  isStatic: boolean;
  types: string[];
}

export interface ProbeCall {
  /** Index into the targets. */
  target: number;
  /** Canonical constant values (`n:12`, `s:text`, `c:x`, `b:true`, `null`). */
  args: string[];
}

/** One side's answers to a call: the first call, the same call again on the same receiver, and in reverse order. */
export interface ProbeAnswer {
  first: string;
  again: string;
  reversed: string;
}

export interface ProbeRun {
  /** Per call, per side (`original`, `patched`); a side absent when the run ended before it. */
  answers: Map<number, Partial<Record<'original' | 'patched', ProbeAnswer>>>;
  end: 'complete' | 'budget' | 'timeout' | 'failed';
  /** Why it failed (javac or java missing, a crash). */
  why?: string;
  durationMs: number;
}

export interface ProbeInput {
  workspaceRoot: string;
  scratchDir: string;
  cacheDir: string;
  env: NodeJS.ProcessEnv;
  pass: readonly string[];
  sandbox: SandboxInfo;
  /** Class path entries of the original side and of the patched side; those outside the workspace are copied in. */
  original: string[];
  patched: string[];
  targets: ProbeTarget[];
  calls: ProbeCall[];
  budgetMs: number;
  signal?: AbortSignal;
}

/** What a harness JVM needs of its caller: the workspace, its sandbox and the harness's own time budget. */
export type HarnessRunInput = Pick<
  ProbeInput,
  'workspaceRoot' | 'scratchDir' | 'env' | 'pass' | 'sandbox' | 'budgetMs' | 'signal'
>;

/** A harness JVM (the probe's or the test repetition's), started in the workspace's sandbox. */
export function runHarnessJvm(
  input: HarnessRunInput,
  java: string,
  jvmArgs: readonly string[],
  classPath: readonly string[],
  mainClass: string,
  specFile: string,
) {
  return runCommandInWorkspace({
    argv: [
      java,
      '-Xshare:auto',
      '-XX:TieredStopAtLevel=1',
      ...jvmArgs,
      '-cp',
      classPath.join(path.delimiter),
      mainClass,
      specFile,
    ],
    cwd: input.workspaceRoot,
    scratchDir: input.scratchDir,
    env: input.env,
    pass: input.pass,
    sandbox: input.sandbox,
    // The harness keeps its own budget; this is the JVM's start and end on top of it.
    timeoutMs: input.budgetMs + 30_000,
    ...(input.signal ? { signal: input.signal } : {}),
  });
}

/** Where the probe's files go inside the workspace (removed with the rest when the workspace is reset). */
export const PROBE_DIR = '.mvnx-probe';

export async function runBehaviourProbe(input: ProbeInput): Promise<ProbeRun> {
  const started = Date.now();
  const failed = (why: string): ProbeRun => ({
    answers: new Map(),
    end: 'failed',
    why,
    durationMs: Date.now() - started,
  });
  const harness = await compiledHarness(input.cacheDir, input.env, 'behaviour-probe', PROBE_CLASS_NAME, PROBE_SOURCE);
  if ('why' in harness) return failed(harness.why);
  const java = javaOf(input.env);
  if (!java) return failed('no java was found (JAVA_HOME, PATH)');
  const dir = path.join(input.workspaceRoot, PROBE_DIR);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await cp(harness.classes, path.join(dir, 'harness'), { recursive: true });
  // A sandbox sees the workspace and the local repository: class folders from elsewhere come in as copies.
  const inside = async (entries: string[], side: string) => {
    const out: string[] = [];
    for (const [index, entry] of entries.entries()) {
      if (!existsSync(entry)) continue;
      if (isInside(entry, input.workspaceRoot) || entry.endsWith('.jar')) {
        out.push(entry);
        continue;
      }
      const copy = path.join(dir, side, String(index));
      await cp(entry, copy, { recursive: true });
      out.push(copy);
    }
    return out.join(path.delimiter);
  };
  const spec = [
    `budget\t${input.budgetMs}`,
    `side\toriginal\t${await inside(input.original, 'original')}`,
    `side\tpatched\t${await inside(input.patched, 'patched')}`,
    ...input.targets.map(
      (target) =>
        `method\t${target.className}\t${target.name}\t${target.isStatic ? 'static' : 'instance'}\t${target.types.join(',')}`,
    ),
    ...input.calls.map((call) => ['call', String(call.target), ...call.args.map(escapeArg)].join('\t')),
  ];
  const specFile = path.join(dir, 'spec.tsv');
  await writeFile(specFile, `${spec.join('\n')}\n`);
  const run = await runHarnessJvm(input, java, [], [path.join(dir, 'harness')], PROBE_CLASS_NAME, specFile);
  await rm(dir, { recursive: true, force: true });
  const parsed = parseProbeOutput(run.stdout);
  if (parsed.end === undefined)
    return failed(run.timedOut ? 'the probe did not end in time' : `the probe stopped: ${run.stderr.split('\n')[0]}`);
  return { answers: parsed.answers, end: parsed.end, durationMs: Date.now() - started };
}

/** The harness's output lines: answers per call and side, and how the run ended. */
export function parseProbeOutput(stdout: string): Pick<ProbeRun, 'answers'> & { end?: ProbeRun['end'] } {
  const answers: ProbeRun['answers'] = new Map();
  let end: ProbeRun['end'] | undefined;
  for (const line of stdout.split('\n')) {
    const fields = line.split('\t');
    if (fields[0] === 'end') end = fields[1] === 'budget' || fields[1] === 'timeout' ? fields[1] : 'complete';
    if (fields[0] !== 'r' || fields.length < 6) continue;
    const side = fields[2];
    if (side !== 'original' && side !== 'patched') continue;
    const call = Number(fields[1]);
    const entry = answers.get(call) ?? {};
    entry[side] = { first: fields[3]!, again: fields[4]!, reversed: fields[5]! };
    answers.set(call, entry);
  }
  return end === undefined ? { answers } : { answers, end };
}

function escapeArg(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** A one-class Java harness compiled once per machine into `<cacheDir>/<folder>/<hash of its source>/`. */
export async function compiledHarness(
  cacheDir: string,
  env: NodeJS.ProcessEnv,
  folder: string,
  className: string,
  sourceText: string,
): Promise<{ classes: string } | { why: string }> {
  const key = createHash('sha256').update(sourceText).digest('hex').slice(0, 24);
  const classes = path.join(cacheDir, folder, key);
  const file = path.join(classes, `${className.replace(/\./g, '/')}.class`);
  if (existsSync(file)) return { classes };
  const javac = jdkTool('javac', env);
  if (!javac) return { why: 'no javac was found (JAVA_HOME, PATH)' };
  await mkdir(path.dirname(classes), { recursive: true });
  const scratch = await mkdtemp(`${classes}.tmp-`);
  try {
    const source = path.join(scratch, 'src', `${className.replace(/\./g, '/')}.java`);
    await mkdir(path.dirname(source), { recursive: true });
    await writeFile(source, sourceText);
    const out = path.join(scratch, 'classes');
    const run = await execa(javac, ['--release', '11', '-nowarn', '-encoding', 'UTF-8', '-d', out, source], {
      reject: false,
      env,
      extendEnv: false,
      timeout: 120_000,
    });
    if (run.exitCode !== 0)
      return { why: `javac could not compile ${className}: ${(run.stderr || run.stdout).split('\n')[0]}` };
    // Renamed into place whole: a concurrent run sees the folder complete or not at all.
    await rename(out, classes).catch(() => undefined);
    return existsSync(file) ? { classes } : { why: `the compiled ${className} could not be kept in ${classes}` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export function javaOf(env: NodeJS.ProcessEnv): string | undefined {
  return jdkTool('java', env);
}

export function jdkTool(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const bundled = env.JAVA_HOME
    ? path.join(env.JAVA_HOME, 'bin', process.platform === 'win32' ? `${name}.exe` : name)
    : undefined;
  return bundled && existsSync(bundled) ? bundled : searchPath(name, env);
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || !(relative.startsWith('..') || path.isAbsolute(relative));
}
