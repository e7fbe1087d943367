/**
 * The verification benchmark's pure part (`npm run bench:verify`): what one round measures
 * for a bug, reading attempt costs from run records, ratios to the plain clean build of
 * the same round, medians over rounds and the markdown table. The IO lives in
 * `bench/verify.mjs`.
 */
import type { RunRecord } from '../report/run-record.js';
import { percentile } from './table.js';

/** The three mvnx runs a round makes for one bug, by the model's first reply. */
export const VERIFY_RUNS = ['fix', 'doesNotCompile', 'testStillFails'] as const;
export type VerifyRunName = (typeof VERIFY_RUNS)[number];

/** One round of one bug. Milliseconds; null where the run did not give the figure. */
export interface VerifyRound {
  /**
   * `mvn -o -q verify` on a fresh copy of the correct project: the mean of the round's two (before and after its mvnx
   * runs).
   */
  plainCleanMs: number;
  /** Both of them. */
  plainCleanEachMs?: number[];
  /** `mvn -o -q verify` after the fix is written into the tree the failed build left. */
  plainIncrementalMs: number | null;
  /** Apply + verification of a candidate that does not compile (attempt 1 of its run). */
  rejectCompileMs: number | null;
  /** Apply + verification of a candidate that compiles but leaves the failing test failing. */
  rejectTestMs: number | null;
  /** Apply + verification of the right fix, the model's first reply. */
  verifiedMs: number | null;
  /** The whole `mvnx` process of the run whose first reply is the fix (the user's failed build included). */
  wholeRunMs: number | null;
  /** Stage names of the rejected and verified attempts (the stage that rejected is the last). */
  stages: { rejectCompile: string[]; rejectTest: string[]; verified: string[] };
  /** The command that decided the verified attempt, as the record says. */
  verdictCommand?: string;
  /** Runs that did not end as expected. */
  problems: string[];
}

export interface AttemptCost {
  outcome: string;
  ms: number | null;
  stages: string[];
  verdictCommand?: string;
}

/** Attempt `n` of a record: apply (reset and write) plus verification, the candidate's whole cost. */
export function attemptCost(record: RunRecord | undefined, n: number): AttemptCost | undefined {
  const attempt = record?.attempts?.find((a) => a.n === n);
  if (!attempt) return undefined;
  const { applyMs, verifyMs } = attempt.timings ?? {};
  const ms = applyMs === undefined && verifyMs === undefined ? null : (applyMs ?? 0) + (verifyMs ?? 0);
  const verdict = (attempt as { verdict?: { args?: string[] } }).verdict;
  return {
    outcome: attempt.outcome,
    ms,
    stages: (attempt.stages ?? []).map((stage) => stage.name),
    ...(verdict?.args ? { verdictCommand: `mvn ${verdict.args.join(' ')}` } : {}),
  };
}

/** What a run whose first reply is `name` must show: attempt 1's outcome, then a fix. */
export function expectedFirstOutcome(name: VerifyRunName): string[] {
  return name === 'fix' ? ['verified'] : ['build-failed', 'regressed'];
}

export interface VerifySummary {
  project: string;
  bug: string;
  rounds: number;
  plainCleanMs: number | null;
  /** Medians of the per-round ratios to that round's plain clean build. */
  ratios: {
    plainIncremental: number | null;
    rejectCompile: number | null;
    rejectTest: number | null;
    verified: number | null;
    wholeRun: number | null;
  };
  stages: { rejectCompile: string; rejectTest: string; verified: string };
  verdictCommand: string;
  problems: string[];
}

const median = (values: (number | null)[]): number | null =>
  percentile(
    values.filter((value): value is number => value !== null),
    0.5,
  );
const ratio = (ms: number | null, base: number) => (ms === null || base <= 0 ? null : ms / base);

export function summariseVerify(project: string, bug: string, rounds: VerifyRound[]): VerifySummary {
  const per = (pick: (round: VerifyRound) => number | null) =>
    median(rounds.map((round) => ratio(pick(round), round.plainCleanMs)));
  const stageText = (pick: (round: VerifyRound) => string[]) =>
    [...new Set(rounds.map((round) => pick(round).join(' → ') || '-'))].join(' / ');
  return {
    project,
    bug,
    rounds: rounds.length,
    plainCleanMs: median(rounds.map((round) => round.plainCleanMs)),
    ratios: {
      plainIncremental: per((round) => round.plainIncrementalMs),
      rejectCompile: per((round) => round.rejectCompileMs),
      rejectTest: per((round) => round.rejectTestMs),
      verified: per((round) => round.verifiedMs),
      wholeRun: per((round) => round.wholeRunMs),
    },
    stages: {
      rejectCompile: stageText((round) => round.stages.rejectCompile),
      rejectTest: stageText((round) => round.stages.rejectTest),
      verified: stageText((round) => round.stages.verified),
    },
    verdictCommand: [...new Set(rounds.map((round) => round.verdictCommand ?? '-'))].join(' / '),
    problems: rounds.flatMap((round, index) => round.problems.map((problem) => `round ${index + 1}: ${problem}`)),
  };
}

export const VERIFY_TABLE_HEADER = [
  'project',
  'bug',
  'plain clean s',
  'plain incremental',
  'rejected: does not compile',
  'rejected: test still fails',
  'verified',
  'whole mvnx run',
];

const times = (value: number | null) => (value === null ? '-' : `${value.toFixed(2)}×`);

export function formatVerifyTable(summaries: VerifySummary[]): string {
  const rows = summaries.map((s) => [
    s.project,
    s.bug,
    s.plainCleanMs === null ? '-' : (s.plainCleanMs / 1000).toFixed(1),
    times(s.ratios.plainIncremental),
    times(s.ratios.rejectCompile),
    times(s.ratios.rejectTest),
    times(s.ratios.verified),
    times(s.ratios.wholeRun),
  ]);
  return [VERIFY_TABLE_HEADER, VERIFY_TABLE_HEADER.map(() => '---'), ...rows]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
}

/** Which stages ran, and which command decided the verdict, per bug. */
export function formatStagesTable(summaries: VerifySummary[]): string {
  const header = [
    'project',
    'bug',
    'rejected: does not compile',
    'rejected: test still fails',
    'verified',
    'verdict command',
  ];
  const rows = summaries.map((s) => [
    s.project,
    s.bug,
    s.stages.rejectCompile,
    s.stages.rejectTest,
    s.stages.verified,
    s.verdictCommand === '-' ? '-' : `\`${s.verdictCommand}\``,
  ]);
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** Done-when limits of issue 17, checked against the medians (the leaf-bug limit only on the multi-module project). */
export function doneWhenProblems(summaries: VerifySummary[]): string[] {
  const problems: string[] = [];
  for (const s of summaries) {
    const label = `${s.project} / ${s.bug}`;
    if (s.ratios.rejectCompile !== null && s.ratios.rejectCompile > 0.25)
      problems.push(
        `${label}: rejecting a candidate that does not compile took ${times(s.ratios.rejectCompile)} (limit 0.25×)`,
      );
    if (s.ratios.rejectTest !== null && s.ratios.rejectTest > 0.4)
      problems.push(
        `${label}: rejecting a candidate whose test still fails took ${times(s.ratios.rejectTest)} (limit 0.40×)`,
      );
    const limit = s.project.includes('single') ? 1.0 : s.bug.startsWith('leaf') ? 0.5 : undefined;
    if (limit !== undefined && s.ratios.verified !== null && s.ratios.verified > limit)
      problems.push(`${label}: verifying the fix took ${times(s.ratios.verified)} (limit ${limit.toFixed(2)}×)`);
  }
  return problems;
}
