/**
 * What happens to a patch that built and passed in the workspace: record it (monitor),
 * suggest it (assist), or apply it to the real tree (auto, or assist for low risk when
 * `assist.autoApplyLowRisk`). Pure; the reasons go into the run record.
 */
import type { ChangeSet, ChangeType } from '../patch/types.js';
import { matchingRules, protectionOf, tierForPaths, type PathPolicy } from './paths.js';
import { assessRisk } from './risk.js';
import type { ParsedConfig, Risk, Tier } from './schema.js';

export interface VerifiedDecision {
  action: 'record' | 'suggest' | 'apply';
  /** The tier that decided, after path rules and coverage gating. */
  tier: Tier;
  risk: Risk;
  reasons: string[];
  /** True when a suggestion should be offered with a prompt (assist on a TTY). */
  prompt: boolean;
}

export type VerifiedPolicy = PathPolicy & Pick<ParsedConfig, 'risk' | 'assist' | 'auto'>;

export interface VerifiedInput {
  config: VerifiedPolicy;
  changeSet: ChangeSet;
  changeTypes: readonly ChangeType[];
  /** artifactIds of the modules the patch touches. */
  modules: readonly string[];
  /** JaCoCo line coverage per module (percent); undefined when the module has no report. */
  coverage?: Record<string, number | undefined>;
  interactive: boolean;
  /** What the fix changed in the tests that failed (allowed by tests.allowFailingTestEdits), in words. */
  failingTestEdits?: readonly string[];
  /** How the verification builds ran; absent means isolated (callers that never verify, tests of other rules). */
  isolation?: Isolation;
  /**
   * The verdict build's scope (`affected`: some modules' tests were taken from the user's build); absent means full.
   */
  verdictScope?: 'affected' | 'full';
}

export interface Isolation {
  isolated: boolean;
  /** Why not, in words. */
  reason?: string;
  /** The config file that set sandbox.mode none: the team declared the environment itself the sandbox. */
  optedOutIn?: string;
}

/**
 * Whether a verdict may be applied without a human: only when verification ran isolated,
 * or when a config file (not a flag or variable someone typed) says `sandbox.mode: none`.
 */
export function isolationOptOut(sandboxModeSource: string | undefined, mode: string): string | undefined {
  if (mode !== 'none' || !sandboxModeSource) return undefined;
  if (sandboxModeSource === 'default' || sandboxModeSource.startsWith('env ') || sandboxModeSource.startsWith('flag '))
    return undefined;
  return sandboxModeSource;
}

function untrustedIsolation(isolation: Isolation | undefined): string | undefined {
  if (!isolation || isolation.isolated || isolation.optedOutIn) return undefined;
  return `verification ran without isolation (${isolation.reason ?? 'no sandbox'}), so its verdict is not applied without you; write sandbox.mode: none in the team's config only where the environment itself is the sandbox`;
}

const RISK_ORDER: readonly Risk[] = ['low', 'medium', 'high'];

export function decideVerified(input: VerifiedInput): VerifiedDecision {
  const { config, changeSet, changeTypes, modules } = input;
  const paths = changeSet.files.flatMap((file) =>
    file.oldPath && file.oldPath !== file.path ? [file.oldPath, file.path] : [file.path],
  );
  const editsFailingTest = (input.failingTestEdits ?? []).length > 0;
  // A fix that changes the test that failed may be right, but only a person can say so.
  const assessment = editsFailingTest
    ? {
        risk: 'high' as const,
        reasons: [
          `the fix edits the failing test (tests.allowFailingTestEdits): ${input.failingTestEdits!.join('; ')}`,
        ],
      }
    : assessRisk(changeSet, changeTypes, config);
  const reasons = [`risk ${assessment.risk}: ${assessment.reasons.join('; ')}`];
  const decide = (action: VerifiedDecision['action'], tier: Tier, ...more: string[]): VerifiedDecision => ({
    action,
    tier,
    risk: assessment.risk,
    reasons: [...reasons, ...more],
    prompt: action === 'suggest' && input.interactive && config.assist.promptOnTty,
  });

  const pathTier = tierForPaths(paths, modules, config);
  reasons.push(...pathTier.reasons);
  let tier = pathTier.tier;
  if (input.isolation?.optedOutIn && !input.isolation.isolated)
    reasons.push(
      `verification ran without isolation; ${input.isolation.optedOutIn} sets sandbox.mode none (the environment is the sandbox)`,
    );

  // The patch stage enforces the global lists; module-scoped rules are only visible here.
  const forbidden = [
    ...paths.flatMap((path) => {
      const protection = protectionOf(path, modules, config);
      return protection.protected ? [protection.reason!] : [];
    }),
    ...ruleForbiddenChanges(paths, modules, changeTypes, config),
  ];
  if (forbidden.length > 0)
    return decide('record', tier, ...forbidden, 'recorded only: the policy does not allow this patch');

  if (tier === 'auto') {
    const blocked = [
      ...(editsFailingTest ? ['the fix edits the failing test, so it is never applied automatically'] : []),
      ...autoBlockers(input, assessment.risk),
    ];
    if (blocked.length > 0) {
      reasons.push(...blocked.map((reason) => `${reason}: tier drops to assist`));
      tier = 'assist';
    }
  }

  switch (tier) {
    case 'off':
    case 'monitor':
      return decide('record', tier, `tier ${tier}: the fix is recorded, not shown or applied`);
    case 'assist':
      if (assessment.risk === 'low' && config.assist.autoApplyLowRisk) {
        const untrusted = untrustedIsolation(input.isolation);
        if (untrusted)
          return decide(
            'suggest',
            tier,
            `assist.autoApplyLowRisk does not apply: ${untrusted}`,
            'tier assist: the fix is suggested',
          );
        return decide('apply', tier, 'tier assist with assist.autoApplyLowRisk: low-risk fix applied');
      }
      return decide(
        'suggest',
        tier,
        `tier assist: the fix is suggested${assessment.risk === 'low' ? ' (assist.autoApplyLowRisk is off)' : ''}`,
      );
    case 'auto':
      return decide('apply', tier, 'tier auto: the verified fix is to be applied');
  }
}

function autoBlockers(input: VerifiedInput, risk: Risk): string[] {
  const { config, modules } = input;
  const blockers: string[] = [];
  const untrusted = untrustedIsolation(input.isolation);
  if (untrusted) blockers.push(untrusted);
  if (config.auto.requireFullVerification && input.verdictScope === 'affected')
    blockers.push(
      'the fix was verified on the affected modules only and auto.requireFullVerification asks for the whole build',
    );
  if (RISK_ORDER.indexOf(risk) > RISK_ORDER.indexOf(config.auto.maxRisk))
    blockers.push(`risk ${risk} is above auto.maxRisk (${config.auto.maxRisk})`);
  const required = config.auto.requireCoverage;
  if (required === undefined) return blockers;
  if (modules.length === 0) blockers.push(`auto.requireCoverage is ${required}% but the patch's module is unknown`);
  for (const module of modules) {
    const coverage = input.coverage?.[module];
    if (coverage === undefined)
      blockers.push(
        `module ${module} has no jacoco report (target/site/jacoco/jacoco.xml), auto.requireCoverage is ${required}%`,
      );
    else if (coverage < required)
      blockers.push(
        `module ${module} line coverage ${coverage.toFixed(1)}% is below auto.requireCoverage ${required}%`,
      );
  }
  return blockers;
}

function ruleForbiddenChanges(
  paths: readonly string[],
  modules: readonly string[],
  changeTypes: readonly ChangeType[],
  config: PathPolicy,
): string[] {
  const problems: string[] = [];
  for (const path of paths) {
    for (const { rule, index } of matchingRules(path, modules, config)) {
      if (!rule.allowedChanges) continue;
      const disallowed = changeTypes.filter((type) => !rule.allowedChanges!.includes(type));
      if (disallowed.length > 0)
        problems.push(`${path}: change types ${disallowed.join(', ')} not allowed by rules[${index}].allowedChanges`);
    }
  }
  return problems;
}
