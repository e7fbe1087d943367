/**
 * The failing tests' real inputs, captured at the call (issue 45): the changed main files
 * are compiled once more with a call to `mvnx.RepeatRun.record(<site>, new Object[] {<parameters>})`
 * at the start of each probed method, and the class files go first on the class path of the
 * tests' repetition run (test-repeat.ts), so a test that computes its input (`hundreds(19)`,
 * a loop, a fixture) still names the value it passed in. The compiler runs under the same
 * isolation as a verification stage; a file it cannot compile (an annotation processor the
 * project needs, a newer language level than this JDK's) only means nothing is captured.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { jdkTool, type HarnessRunInput } from './behaviour-probe.js';
import { runCommandInWorkspace } from './command.js';
import { REPEAT_CLASS_NAME } from './test-repeat-source.js';

/** Where a probed method's body starts in its file's patched text, and what to record there. */
export interface CaptureSite {
  /** The name its captured calls are reported under. */
  id: string;
  /** Offset just inside the body's `{`. */
  entry: number;
  parameters: readonly string[];
}

export interface CaptureFile {
  /** Relative to the workspace root. */
  path: string;
  text: string;
  sites: readonly CaptureSite[];
}

/** The file's text with a record call at the start of each site's body (last site first, so offsets hold). */
export function instrumentedSource(text: string, sites: readonly CaptureSite[]): string {
  let out = text;
  for (const site of [...sites].sort((a, b) => b.entry - a.entry)) {
    const call = ` ${REPEAT_CLASS_NAME}.record(${JSON.stringify(site.id)}, new Object[] {${site.parameters.join(', ')}});`;
    out = out.slice(0, site.entry) + call + out.slice(site.entry);
  }
  return out;
}

/**
 * Compiles the instrumented files into `outDir` against the workspace's class path and the
 * harness (which declares `record`). Undefined when it worked, else why not.
 */
export async function compileCaptureClasses(
  input: HarnessRunInput & {
    files: readonly CaptureFile[];
    /** Holds the harness's classes; the instrumented sources and classes go beside them. */
    dir: string;
    harnessClasses: string;
    classPath: readonly string[];
  },
): Promise<{ classes: string } | { why: string }> {
  const javac = jdkTool('javac', input.env);
  if (!javac) return { why: 'no javac was found (JAVA_HOME, PATH)' };
  const sources: string[] = [];
  for (const file of input.files) {
    const source = path.join(input.dir, 'capture-src', file.path);
    await mkdir(path.dirname(source), { recursive: true });
    await writeFile(source, instrumentedSource(file.text, file.sites));
    sources.push(source);
  }
  const classes = path.join(input.dir, 'capture-classes');
  await mkdir(classes, { recursive: true });
  const run = await runCommandInWorkspace({
    argv: [
      javac,
      '-nowarn',
      '-proc:none',
      '-implicit:none',
      '-encoding',
      'UTF-8',
      '-d',
      classes,
      '-cp',
      [input.harnessClasses, ...input.classPath].join(path.delimiter),
      ...sources,
    ],
    cwd: input.workspaceRoot,
    scratchDir: input.scratchDir,
    env: input.env,
    pass: input.pass,
    sandbox: input.sandbox,
    timeoutMs: 60_000,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  if (run.exitCode !== 0)
    return {
      why: `the probed files could not be compiled to capture their calls: ${firstLine(run.stderr || run.stdout)}`,
    };
  return { classes };
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '') ?? 'no output';
}
