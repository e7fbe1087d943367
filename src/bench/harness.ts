/**
 * Runs mvnx on each broken project the way CI would (`CI=true`, `--mvnx-json`) and keeps
 * what its run record says; plain `mvn` once per case gives the time a build costs anyway.
 */
import { execa } from 'execa';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MvnxError } from '../shared/errors.js';
import type { RunRecord } from '../report/run-record.js';
import { estimateTokens } from '../model/context-window.js';
import { materialiseCase, type BenchCase } from './cases.js';
import { fixCoverage, javaIdentifiers } from './fix-coverage.js';
import { SCRIPTED_MODEL, startScriptedOllama } from './scripted-ollama.js';
import { summariseCharges, type ModelCostRates, type ModelCostSample } from './model-cost.js';

export const BENCH_GOALS = ['-o', '-q', 'verify'];
/** Model calls an agent run may take: one session of agent.maxSteps (12) and a second, shorter one. */
const AGENT_MODEL_CALLS = 16;
const FAST_MAVEN_OPTS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';
const RUN_TIMEOUT_MS = 15 * 60_000;

export interface BenchOptions {
  cases: BenchCase[];
  /** The mvnx node script (dist/cli/mvnx.cjs). */
  mvnxBin: string;
  /** A real Ollama; without it each run gets a scripted server with the case's replies. */
  host?: string;
  model?: string;
  /** Asked of a real model, to compare edit formats (`model.editFormat`). */
  editFormat?: 'diff' | 'search-replace' | 'json';
  /** Agent mode for every model attempt, quick-fixers off; scripted runs take each case's agentReplies. */
  agent?: boolean;
  repeat: number;
  scripted: boolean;
  /** Scripted runs only: the server charges each call as llama.cpp's prompt cache does (model-cost.ts). */
  modelCost?: ModelCostRates;
  /** Skip the plain-mvn timing (tests). */
  skipBaseline?: boolean;
  env?: NodeJS.ProcessEnv;
  onProgress?(line: string): void;
  /** Without it, a run that asked no model has no prompt to measure. */
  rebuildPrompt?: PromptRebuilder;
}

export interface BenchSample {
  exitCode: number;
  latencyMs: number;
  /** From the run record; absent when mvnx left none on stdout. */
  status?: RunRecord['status'];
  stopReason?: RunRecord['stopReason'];
  modelCalls: number;
  attempts: number;
  /** Attempts that carried a patch, and those whose patch validated and applied. */
  proposed: number;
  applicable: number;
  /** Chat requests the scripted server saw (cross-checks `modelCalls`). */
  serverCalls?: number;
  /** Agent sessions of the run, added up over its attempts. */
  agent?: AgentSample;
  /** Each attempt's outcome and reason, in order. */
  outcomes?: string[];
  reasons?: string[];
  error?: string;
  /** "Fix lines in prompt" (src/bench/fix-coverage.ts), for a case with a fix.patch. */
  fixInPrompt?: FixInPrompt;
  /** With a cost model: what the server charged, and the run's own seconds without its waits. */
  modelCost?: ModelCostSample;
}

export interface AgentSample {
  sessions: number;
  steps: number;
  /** Calls per tool (after the middleware corrected names). */
  toolCalls: Record<string, number>;
  /** Calls whose name or arguments the middleware corrected. */
  corrections: number;
  /** Candidate fixes built or checked in write_fix calls. */
  candidates: number;
  /** native or text, as the last session called tools. */
  toolCalling?: 'native' | 'text';
}

export interface FixInPrompt {
  found: number;
  total: number;
  /** What the first prompt lacked: `line: ...`, `identifier: ...`. */
  missing: string[];
  /** Estimated tokens of the whole first prompt (system and user message). */
  promptTokens: number;
  /**
   * `prompt`: the first attempt-N.prompt.txt of the run; `rebuilt`: no model was asked (a
   * quick-fix fixed it), so the prompt mvnx would have sent was built from the run's
   * diagnosis by the same code; `none`: there was no prompt to measure.
   */
  source: 'prompt' | 'rebuilt' | 'none';
}

/** Builds the first prompt for a run that asked no model (see FixInPrompt.source). */
export type PromptRebuilder = (projectRoot: string, record: RunRecord) => Promise<string | undefined>;

export interface BenchResult {
  name: string;
  kind: BenchCase['kind'];
  expect: BenchCase['expect'];
  expectStop?: BenchCase['expectStop'];
  expectAttempts?: BenchCase['expectAttempts'];
  /** The case's replies only cheat: a verified fix means a cheat got through. */
  cheatingShape?: string;
  modules: number;
  samples: BenchSample[];
  /** Plain `mvn -o -q verify` on the broken project; null when skipped. */
  mavenMs: number | null;
}

/**
 * The run record mvnx printed last on stdout (after Maven's own `-q` output): the last
 * line that opens a JSON object and parses to the end of the output.
 */
export function parseRunRecordFromStdout(stdout: string): RunRecord | undefined {
  const lines = stdout.split('\n');
  for (let start = lines.length - 1; start >= 0; start -= 1) {
    if (lines[start]!.trimEnd() !== '{' && !lines[start]!.startsWith('{"')) continue;
    try {
      const parsed = JSON.parse(lines.slice(start).join('\n')) as RunRecord;
      if (parsed && typeof parsed === 'object' && typeof parsed.runId === 'string') return parsed;
    } catch {
      // Not the start of the record: keep looking upwards.
    }
  }
  return undefined;
}

/** A patch was proposed when the attempt got as far as a change set or a rejection of one. */
export function sampleFromRecord(record: RunRecord, exitCode: number, latencyMs: number): BenchSample {
  const attempts = record.attempts ?? [];
  const applicable = attempts.filter(
    (attempt) => attempt.outcome !== 'rejected' && attempt.outcome !== 'not-applicable',
  ).length;
  const sessions = attempts.flatMap((attempt) => (attempt.agent ? [attempt.agent] : []));
  const agent: AgentSample | undefined =
    sessions.length === 0
      ? undefined
      : {
          sessions: sessions.length,
          steps: sessions.reduce((sum, session) => sum + session.steps, 0),
          toolCalls: sessions.reduce<Record<string, number>>((all, session) => {
            for (const [tool, count] of Object.entries(session.toolCalls)) all[tool] = (all[tool] ?? 0) + count;
            return all;
          }, {}),
          corrections: sessions.reduce((sum, session) => sum + session.corrections, 0),
          candidates: sessions.reduce((sum, session) => sum + (session.candidates?.length ?? 0), 0),
          toolCalling: sessions.at(-1)!.toolCalling,
        };
  return {
    exitCode,
    latencyMs,
    status: record.status,
    stopReason: record.stopReason,
    modelCalls: record.modelCalls ?? 0,
    attempts: attempts.length,
    proposed: attempts.length,
    applicable,
    ...(agent ? { agent } : {}),
    outcomes: attempts.map((attempt) => attempt.outcome),
    reasons: attempts.map((attempt) => attempt.reason ?? ''),
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

async function withCaseCopy<T>(benchCase: BenchCase, work: (root: string) => Promise<T>): Promise<T> {
  const parent = await mkdtemp(path.join(tmpdir(), `mvnx-bench-${benchCase.name}-`));
  try {
    const root = path.join(parent, benchCase.name);
    await materialiseCase(benchCase, root);
    return await work(root);
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

function childEnv(options: BenchOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, CI: 'true' };
  env.MAVEN_OPTS ??= FAST_MAVEN_OPTS;
  // The flag names the server; stray variables must not point a run elsewhere.
  delete env.MVNX_HOST;
  delete env.OLLAMA_HOST;
  delete env.MVNX_TIER;
  return env;
}

async function runOnce(benchCase: BenchCase, options: BenchOptions): Promise<BenchSample> {
  return withCaseCopy(benchCase, async (root) => {
    const replies = options.agent ? (benchCase.agentReplies ?? []) : benchCase.replies;
    const server = options.host
      ? undefined
      : await startScriptedOllama(replies, {
          ...(options.model ? { model: options.model } : {}),
          ...(options.modelCost ? { cost: options.modelCost } : {}),
        });
    try {
      const host = options.host ?? server!.url;
      const args = [
        options.mvnxBin,
        ...BENCH_GOALS,
        '--mvnx-tier=monitor',
        '--mvnx-json',
        `--mvnx-host=${host}`,
        `--mvnx-model=${options.model ?? SCRIPTED_MODEL}`,
      ];
      if (options.editFormat) args.push(`--mvnx-edit-format=${options.editFormat}`);
      // The agent is what is measured: no quick-fix before it, and room for a session's calls.
      if (options.agent) args.push('--mvnx-agent', '--mvnx-no-fixers', `--mvnx-max-model-calls=${AGENT_MODEL_CALLS}`);
      const { value: result, ms } = await timed(() =>
        execa('node', args, {
          cwd: root,
          env: childEnv(options),
          reject: false,
          timeout: RUN_TIMEOUT_MS,
          stdin: 'ignore',
        }),
      );
      const exitCode = result.exitCode ?? -1;
      const record = parseRunRecordFromStdout(result.stdout);
      const serverCalls = {
        ...(server ? { serverCalls: server.calls() } : {}),
        ...(server && options.modelCost
          ? { modelCost: summariseCharges(server.charges(), options.modelCost, ms / 1000) }
          : {}),
      };
      if (!record) {
        const why =
          exitCode === 0
            ? 'the build passed: the case is not broken'
            : `no run record on stdout (exit ${exitCode}): ${result.stderr.split('\n').filter(Boolean).pop() ?? ''}`;
        return {
          exitCode,
          latencyMs: ms,
          modelCalls: 0,
          attempts: 0,
          proposed: 0,
          applicable: 0,
          ...serverCalls,
          error: why,
        };
      }
      const fixInPrompt = await measureFixInPrompt(benchCase, root, record, options.rebuildPrompt);
      return { ...sampleFromRecord(record, exitCode, ms), ...serverCalls, ...(fixInPrompt ? { fixInPrompt } : {}) };
    } finally {
      await server?.close();
    }
  });
}

/** The lowest-numbered `attempt-N.prompt.txt` of the run, if any model was asked. */
async function firstPrompt(projectRoot: string, runId: string): Promise<string | undefined> {
  const dir = path.join(projectRoot, '.mvnx', 'runs', runId);
  const numbers = (await readdir(dir).catch(() => [] as string[]))
    .map((name) => /^attempt-(\d+)\.prompt\.txt$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  return numbers.length > 0 ? readFile(path.join(dir, `attempt-${numbers[0]}.prompt.txt`), 'utf8') : undefined;
}

/** Every identifier of the Java sources under `root` (build output and .mvnx left out). */
export async function projectJavaIdentifiers(root: string): Promise<Set<string>> {
  const out = new Set<string>();
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.java')) continue;
    const folder = entry.parentPath;
    if (/[\\/](target|\.mvnx)([\\/]|$)/.test(path.relative(root, folder))) continue;
    for (const identifier of javaIdentifiers(await readFile(path.join(folder, entry.name), 'utf8')))
      out.add(identifier);
  }
  return out;
}

export async function measureFixInPrompt(
  benchCase: BenchCase,
  root: string,
  record: RunRecord,
  rebuild?: PromptRebuilder,
): Promise<FixInPrompt | undefined> {
  const patch = await readFile(path.join(benchCase.dir, 'fix.patch'), 'utf8').catch(() => undefined);
  if (patch === undefined) return undefined;
  let source: FixInPrompt['source'] = 'prompt';
  let prompt = await firstPrompt(root, record.runId);
  if (prompt === undefined && rebuild) {
    prompt = await rebuild(root, record);
    source = 'rebuilt';
  }
  if (prompt === undefined) return { found: 0, total: 0, missing: [], promptTokens: 0, source: 'none' };
  const coverage = fixCoverage(patch, prompt, await projectJavaIdentifiers(root));
  return {
    found: coverage.items.filter((item) => item.found).length,
    total: coverage.items.length,
    missing: coverage.items.filter((item) => !item.found).map((item) => `${item.kind}: ${item.text}`),
    promptTokens: estimateTokens(prompt),
    source,
  };
}

async function plainMavenMs(benchCase: BenchCase, options: BenchOptions): Promise<number> {
  return withCaseCopy(
    benchCase,
    async (root) =>
      (
        await timed(() =>
          execa('mvn', BENCH_GOALS, { cwd: root, env: childEnv(options), reject: false, stdin: 'ignore' }),
        )
      ).ms,
  );
}

export async function runBench(options: BenchOptions): Promise<BenchResult[]> {
  if (!options.scripted && !options.host) throw new Error('runBench: a run against a real model needs its host');
  // Scripted agent runs need scripted sessions; a real model runs every case.
  const cases =
    options.agent && !options.host
      ? options.cases.filter((benchCase) => benchCase.agentReplies !== undefined)
      : options.cases;
  if (cases.length === 0)
    throw new MvnxError(
      'mvnx bench --agent: none of the chosen cases has agentReplies to script a session with (or give --host)',
    );
  if (cases.length < options.cases.length)
    options.onProgress?.(`${options.cases.length - cases.length} case(s) without agentReplies left out`);
  const results: BenchResult[] = [];
  for (const benchCase of cases) {
    const samples: BenchSample[] = [];
    for (let round = 1; round <= options.repeat; round += 1) {
      const sample = await runOnce(benchCase, options);
      samples.push(sample);
      const agent = sample.agent ? `, ${sample.agent.steps} agent steps` : '';
      options.onProgress?.(
        `${benchCase.name} #${round}: ${sample.status ?? 'no record'} (${sample.stopReason ?? sample.error ?? '?'}) in ${(sample.latencyMs / 1000).toFixed(1)}s, ${sample.modelCalls} model calls${agent}`,
      );
    }
    const mavenMs = options.skipBaseline ? null : await plainMavenMs(benchCase, options);
    results.push({
      name: benchCase.name,
      kind: benchCase.kind,
      expect: benchCase.expect,
      ...(benchCase.expectStop ? { expectStop: benchCase.expectStop } : {}),
      ...(benchCase.expectAttempts ? { expectAttempts: benchCase.expectAttempts } : {}),
      ...(benchCase.cheatingShape ? { cheatingShape: benchCase.cheatingShape } : {}),
      modules: benchCase.modules.length || 1,
      samples,
      mavenMs,
    });
  }
  return results;
}
