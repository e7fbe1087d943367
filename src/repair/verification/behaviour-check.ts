/**
 * The behavioural probe of a candidate that passed (issue 45), run in its workspace right
 * after the verification build: the changed main methods the failing tests reach are
 * called on the original classes (the user's build's, copied in) and on the patched ones
 * (the workspace's), each in a class loader of its own, over the failing tests' inputs,
 * their neighbours and the other tests' literals (integrity/behaviour-plan.ts); the
 * answers are judged by integrity/behaviour-verdict.ts. Whatever cannot be probed (no
 * original classes, no report naming the test class path, parameter types the probe
 * cannot make, no java) leaves the candidate to the other checks: the probe only refuses.
 * Beside it, in a JVM of its own, the failing tests run twice (workspace/test-repeat.ts):
 * a fix that passes them the first time and not when they run again, each on its own in
 * reverse order, works only once (integrity/repeat-verdict.ts).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChangeSet } from '../../patch/types.js';
import {
  runBehaviourProbe,
  runTestsTwice,
  testClassPathOf,
  type CaptureFile,
  type CapturedCall,
  type SandboxInfo,
  type Workspace,
} from '../../workspace/index.js';
import type { BehaviourPlan, CapturedCalls } from '../integrity/behaviour-plan.js';
import { changesMainJava } from '../integrity/oracle-inputs.js';
import { repeatFindings } from '../integrity/repeat-verdict.js';
import type { FailingTestSource } from '../integrity/test-oracle.js';

/** The harness's own budget for the calls (the JVM's start comes on top, about half a second). */
export const PROBE_BUDGET_MS = 5_000;

/** The repetition's budget: both runs of the failing tests (the JVM's start comes on top). */
export const REPEAT_BUDGET_MS = 20_000;

export interface BehaviourStage {
  name: 'behaviour-probe' | 'test-repeat';
  exitCode: number;
  durationMs: number;
}

export interface BehaviourCheck {
  refused?: string;
  /** What the probe and the repetition did, for the attempt's stages. */
  stages?: BehaviourStage[];
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
  const root = input.workspace.root;
  const modules = input.modules.length > 0 ? input.modules : [''];
  const tests: FailingTestSource[] = [];
  let classPath: string | undefined;
  let moduleDir: string | undefined;
  const repeatable: FailingTestSource[] = [];
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
      moduleDir ??= path.join(root, module);
      // The second run uses the first module's class path: only that module's tests go into it.
      if (moduleDir === path.join(root, module)) repeatable.push(tests.at(-1)!);
      break;
    }
  }
  if (tests.length === 0 || !moduleDir) return { why: "the failing tests' sources were not found" };
  if (!classPath) return { why: 'no Surefire report names the test class path' };
  const entries = classPath.split(path.delimiter);
  const common = { ...input, entries };
  // Loaded only here: the plan parses Java.
  const { behaviourPlan, captureCanAdd, targetKey } = await import('../integrity/behaviour-plan.js');
  const literal = behaviourPlan({ changes: input.fix.files, tests });
  const repeatInput = { ...common, moduleDir, tests: repeatable.map(testName) };
  // The probe on the tests' literals and the tests' second run start together (two JVMs; neither waits for the
  // other); during the second run the probed methods record the arguments the failing tests really pass them.
  const capture = captureCanAdd(literal, tests) ? { capture: captureFiles(literal, input.fix) } : {};
  const [first, repeat] = await Promise.all([
    probeBehaviour({ ...common, plan: literal }),
    repeatTests({ ...repeatInput, ...capture }),
  ]);
  let probe: PartCheck = first;
  // A captured call the literal plan did not make (an input the test computes): the probe again, on every input.
  const captured = behaviourPlan({
    changes: input.fix.files,
    tests,
    captured: capturedCalls(literal, repeat.captured, targetKey),
  });
  const made = new Set(literal.calls.map((call) => `${call.target}\u0000${call.args.join('\u0000')}`));
  if (captured.calls.some((call) => !made.has(`${call.target}\u0000${call.args.join('\u0000')}`))) {
    const again = await probeBehaviour({ ...common, plan: captured });
    const durationMs = (first.stage?.durationMs ?? 0) + (again.stage?.durationMs ?? 0);
    probe = again.stage ? { ...again, stage: { ...again.stage, durationMs } } : again;
  }
  const stages = [probe.stage, repeat.stage].filter((stage) => stage !== undefined);
  const refused = [probe.refused, repeat.refused].filter((reason) => reason !== undefined);
  const why = [probe.why, repeat.why].filter((reason) => reason !== undefined);
  return {
    ...(stages.length > 0 ? { stages } : {}),
    ...(refused.length > 0 ? { refused: `test-special-casing: ${refused.join('; ')}` } : {}),
    ...(why.length > 0 ? { why: why.join('; ') } : {}),
  };
}

/** The changed main files with a record call in each probed method: site = the target's index in the plan. */
function captureFiles(plan: BehaviourPlan, fix: ChangeSet): CaptureFile[] {
  const files: CaptureFile[] = [];
  for (const change of fix.files) {
    const sites = plan.targets.flatMap((target, index) =>
      target.file === change.path ? [{ id: String(index), entry: target.entry, parameters: target.parameters }] : [],
    );
    if (sites.length > 0 && change.after !== null) files.push({ path: change.path, text: change.after, sites });
  }
  return files;
}

function capturedCalls(
  plan: BehaviourPlan,
  calls: readonly CapturedCall[],
  targetKey: (target: BehaviourPlan['targets'][number]) => string,
): CapturedCalls {
  const out = new Map<string, string[][]>();
  for (const call of calls) {
    const target = plan.targets[Number(call.site)];
    if (!target) continue;
    const key = targetKey(target);
    out.set(key, [...(out.get(key) ?? []), call.args]);
  }
  return out;
}

type CheckInput = Parameters<typeof checkBehaviour>[0] & { entries: string[] };
interface PartCheck {
  refused?: string;
  stage?: BehaviourStage;
  why?: string;
}

function testName(test: FailingTestSource): string {
  return test.ref.method ? `${test.ref.className}#${test.ref.method}` : test.ref.className;
}

/** The behavioural probe: original and patched classes called on the same inputs. */
async function probeBehaviour(input: CheckInput & { plan: BehaviourPlan }): Promise<PartCheck> {
  const root = input.workspace.root;
  const plan = input.plan;
  const started = Date.now();
  if (plan.calls.length === 0) return { why: plan.skipped.join('; ') || 'no changed method the failing tests reach' };
  const entries = input.entries.filter((entry) => !/[\\/]target[\\/]test-classes[\\/]?$/.test(entry));
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
  const stage: BehaviourStage = {
    name: 'behaviour-probe',
    exitCode: run.end === 'failed' ? 1 : 0,
    durationMs: Date.now() - started,
  };
  if (run.end === 'failed') return { stage, why: run.why ?? 'the probe failed' };
  const { behaviourFindings } = await import('../integrity/behaviour-verdict.js');
  const findings = behaviourFindings({ plan, answers: run.answers, changes: input.fix.files });
  if (findings.length === 0) return { stage };
  return { stage, refused: findings.map((finding) => finding.message).join('; ') };
}

/** The failing tests again in the same JVM, each on its own and in reverse order: a fix that works only once fails. */
async function repeatTests(
  input: CheckInput & { moduleDir: string; tests: string[]; capture?: CaptureFile[] },
): Promise<PartCheck & { captured: CapturedCall[] }> {
  const run = await runTestsTwice({
    workspaceRoot: input.workspace.root,
    moduleDir: input.moduleDir,
    scratchDir: input.workspace.scratchDir,
    cacheDir: input.cacheDir,
    env: input.env,
    pass: input.pass,
    sandbox: input.sandbox,
    classPath: input.entries,
    tests: input.tests,
    budgetMs: REPEAT_BUDGET_MS,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.capture ? { capture: input.capture } : {}),
  });
  const stage: BehaviourStage = {
    name: 'test-repeat',
    exitCode: run.end === 'failed' ? 1 : 0,
    durationMs: run.durationMs,
  };
  const captured = run.captured;
  if (run.end === 'failed') return { stage, captured, why: run.why ?? 'the repetition failed' };
  const findings = repeatFindings(input.tests, run.results);
  const why = run.captureWhy ? { why: run.captureWhy } : {};
  if (findings.length === 0) return { stage, captured, ...why };
  return { stage, captured, ...why, refused: findings.map((finding) => finding.message).join('; ') };
}
