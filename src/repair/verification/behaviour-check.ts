/**
 * The behavioural probe of a candidate that passed (issue 45), run in its workspace right
 * after the verification build: the changed main methods the failing tests reach are
 * called on the original classes (the user's build's, copied in) and on the patched ones
 * (the workspace's), each in a class loader of its own, over the failing tests' inputs,
 * their neighbours and the other tests' literals (integrity/behaviour-plan.ts); the
 * answers are judged by integrity/behaviour-verdict.ts. Whatever cannot be probed (no
 * original classes, no report naming the test class path, parameter types the probe
 * cannot make, no java) leaves the candidate to the other checks: the probe only refuses.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChangeSet } from '../../patch/types.js';
import { runBehaviourProbe, testClassPathOf, type SandboxInfo, type Workspace } from '../../workspace/index.js';
import { changesMainJava } from '../integrity/oracle-inputs.js';
import type { FailingTestSource } from '../integrity/test-oracle.js';

/** The harness's own budget for the calls (the JVM's start comes on top, about half a second). */
export const PROBE_BUDGET_MS = 5_000;

export interface BehaviourCheck {
  refused?: string;
  /** What the probe did, for the attempt's stages. */
  stage?: { name: 'behaviour-probe'; exitCode: number; durationMs: number };
  /** Why nothing was probed. */
  why?: string;
}

export async function checkBehaviour(input: {
  workspace: Workspace;
  fix: ChangeSet;
  failing: readonly string[];
  /** Module folders of the reactor ('' for a single module). */
  modules: readonly string[];
  cacheDir: string;
  env: NodeJS.ProcessEnv;
  pass: readonly string[];
  sandbox: SandboxInfo;
  signal?: AbortSignal;
}): Promise<BehaviourCheck> {
  if (input.failing.length === 0 || !changesMainJava(input.fix))
    return { why: 'no failing test, or no main Java change' };
  const started = Date.now();
  const root = input.workspace.root;
  const modules = input.modules.length > 0 ? input.modules : [''];
  const tests: FailingTestSource[] = [];
  let classPath: string | undefined;
  for (const test of input.failing.slice(0, 20)) {
    const [className, method] = test.split('#');
    if (!className) continue;
    const outer = className.split('$')[0]!;
    for (const module of modules) {
      const file = path.join(module, 'src/test/java', `${outer.replace(/\./g, '/')}.java`);
      const text = await readFile(path.join(root, file), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      tests.push({ ref: { className, ...(method ? { method } : {}) }, path: file, text });
      const report = path.join(root, module, 'target/surefire-reports', `TEST-${outer}.xml`);
      classPath ??= testClassPathOf(await readFile(report, 'utf8').catch(() => ''));
      break;
    }
  }
  if (tests.length === 0) return { why: "the failing tests' sources were not found" };
  if (!classPath) return { why: 'no Surefire report names the test class path' };
  // Loaded only here: the plan parses Java.
  const { behaviourPlan } = await import('../integrity/behaviour-plan.js');
  const plan = behaviourPlan({ changes: input.fix.files, tests });
  if (plan.calls.length === 0) return { why: plan.skipped.join('; ') || 'no changed method the failing tests reach' };
  const entries = classPath.split(path.delimiter).filter((entry) => !/[\\/]target[\\/]test-classes[\\/]?$/.test(entry));
  const source = input.workspace.source;
  let originals = 0;
  const original = entries.map((entry) => {
    const relative = path.relative(root, entry);
    if (relative.startsWith('..') || path.isAbsolute(relative) || !/(^|[\\/])target[\\/]classes$/.test(relative))
      return entry;
    const theirs = path.join(source, relative);
    if (!existsSync(theirs)) return entry;
    originals++;
    return theirs;
  });
  if (originals === 0) return { why: "the user's build left no compiled classes to compare with" };
  const run = await runBehaviourProbe({
    workspaceRoot: root,
    scratchDir: input.workspace.scratchDir,
    cacheDir: input.cacheDir,
    env: input.env,
    pass: input.pass,
    sandbox: input.sandbox,
    original,
    patched: entries,
    targets: plan.targets,
    calls: plan.calls,
    budgetMs: PROBE_BUDGET_MS,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const stage = {
    name: 'behaviour-probe' as const,
    exitCode: run.end === 'failed' ? 1 : 0,
    durationMs: Date.now() - started,
  };
  if (run.end === 'failed') return { stage, why: run.why ?? 'the probe failed' };
  const { behaviourFindings } = await import('../integrity/behaviour-verdict.js');
  const findings = behaviourFindings({ plan, answers: run.answers, changes: input.fix.files });
  if (findings.length === 0) return { stage };
  return { stage, refused: `test-special-casing: ${findings.map((finding) => finding.message).join('; ')}` };
}
