/**
 * Generated run records for the fleet-scale numbers (issue 28): `repositories` folders,
 * each a project root with `.mvnx/runs/<runId>/run.json`, `runsPerRepository` each, in
 * the shape and size mvnx writes them (diagnostics with messages, attempts with stages
 * and verdicts, decisions, model requests). Deterministic for a seed, so a test knows
 * what the numbers must be. Used by `npm run bench:fleet` and test/unit/report-fleet.test.ts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface FleetShape {
  repositories: number;
  runsPerRepository: number;
  seed?: number;
}

export interface FleetTruth {
  runs: number;
  fixed: number;
  stopReasons: Record<string, number>;
  bytes: number;
}

const STOPS = [
  'fixed',
  'fixed',
  'fixed',
  'budget-exhausted',
  'no-progress',
  'provider-unavailable',
  'duplicate-patch',
  'policy-skip',
] as const;
const TIERS = ['monitor', 'assist', 'assist', 'auto'] as const;

/** A small deterministic generator (mulberry32): the same seed, the same fleet. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What became of a verified fix, by the run's index (no random draw, so the runs stay those
 * of the seed): the outcomes, outcome histories, publications and coverage reconcile writes,
 * so that the fleet exercises every number of the report, not only the counts.
 */
function fixAftermath(index: number, module: string, startedAt: Date): Record<string, unknown> {
  const at = new Date(startedAt.getTime() + 3_600_000).toISOString();
  const reconciled = { reconciledAt: new Date(startedAt.getTime() + 86_400_000).toISOString() };
  const coverage = index % 5 === 0 ? { coverage: { [module]: 55 + (index % 40) } } : {};
  const publication = {
    forge: 'github',
    url: `https://github.example/acme/pulls/${index + 1}`,
    number: index + 1,
    branch: `mvnx/fix-${(index * 7919).toString(36)}`,
    autoMerge: 'off',
  };
  switch (index % 8) {
    case 0:
      return {
        ...coverage,
        ...reconciled,
        outcome: 'applied',
        outcomeHistory: [{ outcome: 'applied', at, evidence: 'mvnx apply' }],
      };
    case 1:
      return {
        ...coverage,
        ...reconciled,
        outcome: 'adopted',
        outcomeHistory: [{ outcome: 'adopted', at, evidence: 'commit 1a2b3c4 "fix calc"', commit: '1a2b3c4' }],
      };
    case 2:
      return {
        ...coverage,
        ...reconciled,
        applied: true,
        action: 'apply',
        outcome: 'reverted',
        outcomeHistory: [
          { outcome: 'applied', at, evidence: 'tier auto' },
          { outcome: 'reverted', at, evidence: 'commit 9f8e7d6 "revert"' },
        ],
      };
    case 3:
      return {
        ...coverage,
        ...reconciled,
        outcome: 'superseded',
        outcomeHistory: [{ outcome: 'superseded', at, evidence: 'the file changed otherwise' }],
      };
    case 5:
      return {
        ...coverage,
        ...reconciled,
        applied: true,
        publication,
        outcome: 'merged',
        outcomeHistory: [{ outcome: 'merged', at, evidence: `pull request #${index + 1} merged` }],
      };
    case 6:
      return { ...coverage, applied: true, publication };
    case 7:
      return {
        ...coverage,
        ...reconciled,
        applied: true,
        action: 'apply',
        outcome: 'applied',
        outcomeHistory: [{ outcome: 'applied', at, evidence: 'tier auto' }],
      };
    default:
      return coverage;
  }
}

export function fleetRecord(
  repository: string,
  index: number,
  next: () => number,
  now = Date.parse('2026-12-01T00:00:00Z'),
): Record<string, unknown> {
  const stopReason = STOPS[Math.floor(next() * STOPS.length)]!;
  const fixed = stopReason === 'fixed';
  const startedAt = new Date(now - Math.floor(next() * 60 * 86_400_000));
  const totalMs = 20_000 + Math.floor(next() * 200_000);
  const module = `module-${Math.floor(next() * 4)}`;
  const attempts = Array.from(
    { length: fixed ? 1 + Math.floor(next() * 2) : stopReason === 'policy-skip' ? 0 : 2 },
    (_, n) => ({
      n: n + 1,
      source: 'model',
      fingerprint: `${repository}-${index}-${n}`.padEnd(64, '0'),
      outcome: fixed && n === 0 ? 'verified' : 'build-failed',
      reason:
        fixed && n === 0
          ? undefined
          : 'the patched build still fails: src/main/java/com/acme/Calculator.java:12 cannot find symbol\n  symbol: variable reslt',
      filesChanged: [`${module}/src/main/java/com/acme/Calculator.java`],
      summary: 'The variable was misspelled; I renamed it back to result so the method compiles again.',
      timings: { modelMs: 8000, applyMs: 20, verifyMs: 9000 },
      stages: [
        { name: 'compile', exitCode: 0, durationMs: 4000 },
        { name: 'failing-tests', exitCode: fixed ? 0 : 1, durationMs: 5000 },
      ],
      verdict: { scope: 'affected', args: ['-o', '-B', '-q', 'verify', '-pl', module, '-am'], testsFromYourBuild: [] },
    }),
  );
  return {
    runId: `${startedAt.toISOString().replace(/[:.]/g, '-')}-${repository.replace(/\W/g, '')}-${index}`,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date(startedAt.getTime() + totalMs).toISOString(),
    mavenArgs: ['-o', '-B', '-q', 'verify'],
    mavenExitCode: 1,
    tier: TIERS[Math.floor(next() * TIERS.length)],
    status: fixed ? 'fixed' : stopReason === 'policy-skip' ? 'skipped' : 'unfixed',
    stopReason,
    diagnostics: [
      {
        kind: 'compile',
        file: `${module}/src/main/java/com/acme/Calculator.java`,
        line: 12,
        column: 16,
        message: 'cannot find symbol\n  symbol:   variable reslt\n  location: class com.acme.Calculator',
        module,
        fingerprint: `d-${index % 37}`,
      },
    ],
    attempts,
    applied: false,
    decisions: [
      'tier monitor: the default',
      'budget: 4 attempts, 8 model calls, 600 s (one compile error in one file)',
      'verify.scope affected: the fix can only reach ' + module,
    ],
    modelCalls: attempts.length,
    model: { provider: 'ollama', name: 'qwen2.5-coder:7b', host: 'http://llm-gateway:8080' },
    modelRequests: attempts.map((attempt) => ({
      attempt: attempt.n,
      host: 'http://llm-gateway:8080',
      model: 'qwen2.5-coder:7b',
      startedAt: startedAt.toISOString(),
      durationMs: 8000,
      outcome: 'answered',
      promptTokens: 2400,
      completionTokens: 180,
    })),
    sandbox: { kind: 'bwrap', isolated: true },
    timings: {
      totalMs,
      modelMs: 8000 * attempts.length,
      applyMs: 20,
      verifyMs: 9000 * attempts.length,
      diagnoseMs: 120,
    },
    repository,
    ...(fixed
      ? { fixModules: [module], action: 'suggest', risk: 'low', ...fixAftermath(index, module, startedAt) }
      : {}),
  };
}

/** What a fleet of this shape holds, without writing it (a fleet kept from an earlier run: same seed, same records). */
export function fleetTruth(shape: FleetShape): FleetTruth {
  const next = random(shape.seed ?? 28);
  const truth: FleetTruth = { runs: 0, fixed: 0, stopReasons: {}, bytes: 0 };
  for (let r = 0; r < shape.repositories; r++) {
    const repository = `acme/repo-${String(r + 1).padStart(4, '0')}`;
    for (let index = 0; index < shape.runsPerRepository; index++) {
      const record = fleetRecord(repository, index, next);
      truth.runs += 1;
      if (record.stopReason === 'fixed') truth.fixed += 1;
      truth.stopReasons[record.stopReason as string] = (truth.stopReasons[record.stopReason as string] ?? 0) + 1;
      truth.bytes += JSON.stringify(record, null, 2).length + 1;
    }
  }
  return truth;
}

/** Writes the fleet under `root` (root/repo-0001/.mvnx/runs/...) and says what it holds. */
export async function writeFleet(root: string, shape: FleetShape): Promise<FleetTruth> {
  const next = random(shape.seed ?? 28);
  const truth: FleetTruth = { runs: 0, fixed: 0, stopReasons: {}, bytes: 0 };
  for (let r = 0; r < shape.repositories; r++) {
    const repository = `acme/repo-${String(r + 1).padStart(4, '0')}`;
    const runs = path.join(root, `repo-${String(r + 1).padStart(4, '0')}`, '.mvnx', 'runs');
    const records = Array.from({ length: shape.runsPerRepository }, (_, index) => fleetRecord(repository, index, next));
    await Promise.all(
      records.map(async (record) => {
        const text = `${JSON.stringify(record, null, 2)}\n`;
        await mkdir(path.join(runs, record.runId as string), { recursive: true });
        await writeFile(path.join(runs, record.runId as string, 'run.json'), text);
        truth.bytes += text.length;
      }),
    );
    for (const record of records) {
      truth.runs += 1;
      if (record.stopReason === 'fixed') truth.fixed += 1;
      truth.stopReasons[record.stopReason as string] = (truth.stopReasons[record.stopReason as string] ?? 0) + 1;
    }
  }
  return truth;
}
