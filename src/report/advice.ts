/**
 * `mvnx runs --advise`: per module, does the evidence support moving it up a tier, and
 * which config rule does that. Pure: run records and thresholds (`rollout.promote`) in,
 * advice out; the same records always give the same advice.
 */
import type { PromoteConfig, Tier } from '../policy/schema.js';
import {
  GroupFold,
  NewestCoverage,
  NO_MODULE,
  runModule,
  runRepository,
  type GroupKey,
  type GroupStats,
} from './groups.js';
import type { RunRecord } from './run-record.js';
import { foldedRun, type FoldedRun } from './stats-fold.js';

export interface AdviceCheck {
  /** What is measured: `taken (applied or adopted)`. */
  name: string;
  /** The threshold: `>= 70%`. */
  need: string;
  ok: boolean;
  /** The measured value, as read. */
  value: string;
}

export interface ModuleAdvice {
  repository: string;
  module: string;
  /** The tier of the module's newest run. */
  tier: Tier;
  verdict: 'promote' | 'hold' | 'demote';
  /** The tier the advice moves to (promote, demote). */
  to?: Tier;
  checks: AdviceCheck[];
  /** One line: the verdict and what decided it. */
  summary: string;
  /** YAML to add after the rules already in the repository's config. */
  rule?: string;
  /** The numbers of the runs at the current tier. */
  stats: GroupStats;
}

export interface AdviceInput {
  records: readonly RunRecord[];
  promote: PromoteConfig;
  /** auto.requireCoverage of the config in force, when set: it beats promote.assistToAuto.minCoverage. */
  requireCoverage?: number;
  /** Start of the evidence window (default: promote.windowDays before `now`). */
  since?: Date;
  now?: Date;
}

const pct = (share: number | null) => (share === null ? '-' : `${Math.round(share * 100)}%`);
const atLeast = (name: string, value: number, min: number, unit = '', shown = String(value)): AdviceCheck => ({
  name,
  need: `>= ${min}${unit}`,
  ok: value >= min,
  value: shown,
});
const atMost = (name: string, value: number, max: number): AdviceCheck => ({
  name,
  need: `<= ${max}`,
  ok: value <= max,
  value: String(value),
});
const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);

function ruleYaml(module: string, tier: Tier, because: string, day: string): string {
  const lines = [
    'rules:',
    `  - description: ${JSON.stringify(`${module === NO_MODULE ? 'this project' : module} earned ${tier}: ${because} (mvnx runs --advise, ${day})`)}`,
    "    paths: ['**']",
    ...(module === NO_MODULE ? [] : [`    modules: [${module}]`]),
    `    tier: ${tier}`,
  ];
  return lines.join('\n');
}

function monitorChecks(stats: GroupStats, promote: PromoteConfig): AdviceCheck[] {
  const rule = promote.monitorToAssist;
  const unavailable = share(stats.providerUnavailable, stats.runs);
  return [
    atLeast('runs at monitor', stats.runs, rule.minRuns),
    atLeast(
      'fix rate',
      (stats.fixRate ?? 0) * 100,
      rule.minFixRate,
      '%',
      `${pct(stats.fixRate)} (${stats.fixed} of ${stats.repaired})`,
    ),
    atMost('regressions', stats.regressions, rule.maxRegressions),
    {
      name: 'provider-unavailable stops',
      need: `<= ${rule.maxProviderUnavailable}%`,
      ok: (unavailable ?? 0) * 100 <= rule.maxProviderUnavailable,
      value: `${pct(unavailable)} (${stats.providerUnavailable} of ${stats.runs})`,
    },
  ];
}

function assistChecks(
  stats: GroupStats,
  promote: PromoteConfig,
  coverage: number | undefined,
  requiredCoverage: number,
): AdviceCheck[] {
  const rule = promote.assistToAuto;
  return [
    atLeast('suggested verified fixes', stats.suggested, rule.minSuggested),
    atLeast(
      'taken (applied or adopted)',
      (stats.takenShare ?? 0) * 100,
      rule.minTaken,
      '%',
      `${pct(stats.takenShare)} (${stats.suggestionsTaken} of ${stats.suggested})`,
    ),
    atMost('reverted', stats.reverted, rule.maxReverted),
    atMost('regressions', stats.regressions, rule.maxRegressions),
    {
      name: 'line coverage',
      need: `>= ${requiredCoverage}%`,
      ok: coverage !== undefined && coverage >= requiredCoverage,
      value: coverage === undefined ? 'unknown (no jacoco.xml in the runs)' : `${coverage.toFixed(1)}%`,
    },
  ];
}

/** A module's runs in the evidence window, folded: its newest run, coverage, and one group per tier. */
interface ModuleEvidence {
  newest: RunRecord['startedAt'];
  key: GroupKey;
  coverage: NewestCoverage;
  tiers: Map<Tier, GroupFold>;
}

/**
 * `mvnx runs --advise` folded a record at a time (the whole fleet's records are never all
 * in memory): per repository and module, the tier of its newest run and the numbers at each
 * tier; the advice is decided at the end from those.
 */
export class AdviceFold {
  private readonly modules = new Map<string, ModuleEvidence>();
  private readonly sinceMs: number;
  private readonly now: Date;

  constructor(private readonly settings: Omit<AdviceInput, 'records'>) {
    this.now = settings.now ?? new Date();
    this.sinceMs = (
      settings.since ?? new Date(this.now.getTime() - settings.promote.windowDays * 86_400_000)
    ).getTime();
  }

  add(record: RunRecord, run?: FoldedRun): void {
    if (!(Date.parse(record.startedAt) >= this.sinceMs)) return;
    const repository = runRepository(record);
    const module = runModule(record);
    const id = `${repository}\u0000${module}`;
    let evidence = this.modules.get(id);
    if (!evidence) {
      evidence = {
        newest: record.startedAt,
        key: { repository, module, tier: record.tier },
        coverage: new NewestCoverage(module),
        tiers: new Map(),
      };
      this.modules.set(id, evidence);
    } else if (record.startedAt.localeCompare(evidence.newest) > 0) {
      evidence.newest = record.startedAt;
      evidence.key = { repository, module, tier: record.tier };
    }
    evidence.coverage.add(record);
    let group = evidence.tiers.get(record.tier);
    if (!group) evidence.tiers.set(record.tier, (group = new GroupFold({ repository, module, tier: record.tier })));
    group.add(run ?? foldedRun(record));
  }

  result(): ModuleAdvice[] {
    const day = this.now.toISOString().slice(0, 10);
    const requiredCoverage = this.settings.requireCoverage ?? this.settings.promote.assistToAuto.minCoverage;
    const advice: ModuleAdvice[] = [];
    for (const evidence of this.modules.values()) {
      const { key } = evidence;
      const stats = evidence.tiers.get(key.tier)!.result();
      advice.push({
        ...key,
        ...verdictOf(key, stats, evidence.coverage.value, this.settings.promote, requiredCoverage, day),
        stats,
      });
    }
    return advice.sort((a, b) => a.repository.localeCompare(b.repository) || a.module.localeCompare(b.module));
  }
}

/** One piece of advice per repository and module, in the order repository, module. */
export function adviseModules(input: AdviceInput): ModuleAdvice[] {
  const fold = new AdviceFold(input);
  for (const record of input.records) fold.add(record);
  return fold.result();
}

function verdictOf(
  key: GroupKey,
  stats: GroupStats,
  coverage: number | undefined,
  promote: PromoteConfig,
  requiredCoverage: number,
  day: string,
): Omit<ModuleAdvice, 'stats' | 'repository' | 'module' | 'tier'> {
  const subject = key.module === NO_MODULE ? key.repository : `${key.repository} ${key.module}`;
  if (key.tier === 'monitor' || key.tier === 'assist') {
    const checks =
      key.tier === 'monitor' ? monitorChecks(stats, promote) : assistChecks(stats, promote, coverage, requiredCoverage);
    const to: Tier = key.tier === 'monitor' ? 'assist' : 'auto';
    const failing = checks.filter((check) => !check.ok);
    if (failing.length === 0) {
      const because = checks.map((check) => `${check.name} ${check.value}`).join(', ');
      return {
        verdict: 'promote',
        to,
        checks,
        summary: `${subject}: ${key.tier} -> ${to}: ${because}`,
        rule: ruleYaml(key.module, to, because, day),
      };
    }
    return {
      verdict: 'hold',
      checks,
      summary: `${subject}: stays at ${key.tier}: ${failing.map((check) => `${check.name} ${check.value} (needs ${check.need})`).join('; ')}`,
    };
  }
  if (key.tier === 'auto') {
    const max = promote.assistToAuto.maxReverted;
    const checks = [atMost('reverted', stats.reverted, max)];
    return checks[0]!.ok
      ? { verdict: 'hold', checks, summary: `${subject}: stays at auto: ${stats.reverted} reverted` }
      : {
          verdict: 'demote',
          to: 'assist',
          checks,
          summary: `${subject}: auto -> assist: ${stats.reverted} auto-applied fix(es) reverted`,
          rule: ruleYaml(key.module, 'assist', `${stats.reverted} reverted at auto`, day).replace(
            ' earned assist:',
            ' back to assist:',
          ),
        };
  }
  return { verdict: 'hold', checks: [], summary: `${subject}: tier off: no evidence is collected` };
}

/** `mvnx runs --advise` as text: one block per module, the rule to add under a promotion. */
export function formatAdvice(advice: readonly ModuleAdvice[]): string {
  if (advice.length === 0) return 'No runs in the evidence window: nothing to advise.';
  const blocks = advice.map((entry) => {
    const lines = [
      `${entry.verdict === 'promote' ? 'PROMOTE' : entry.verdict === 'demote' ? 'DEMOTE' : 'hold'}  ${entry.summary}`,
    ];
    for (const check of entry.checks)
      lines.push(`  ${check.ok ? 'ok' : 'no'}  ${check.name} ${check.need}: ${check.value}`);
    const { appliedByAuto, appliedByPerson, merged, suggestedOnly } = entry.stats;
    lines.push(
      `  fixes at ${entry.tier}: ${appliedByAuto} applied by auto, ${appliedByPerson} applied by a person, ${merged} merged through a request, ${suggestedOnly} suggested only`,
    );
    if (entry.rule) {
      lines.push(
        `  add to ${entry.repository === '(unknown)' ? 'the repository' : entry.repository}'s .mvnxrc.yaml, after the rules already there:`,
      );
      lines.push(...entry.rule.split('\n').map((line) => `    ${line}`));
    }
    return lines.join('\n');
  });
  return blocks.join('\n\n');
}
