/**
 * Whether mvnx should try to repair a failed build at all, and under which tier.
 * Pure: the reasons it returns go into the run record as they are.
 */
import type { Diagnosis, Diagnostic } from '../diagnose/types.js';
import { protectionOf, tierForPaths, type PathPolicy } from './paths.js';
import type { ParsedConfig, Tier } from './schema.js';
import { mavenGoals } from '../maven/args.js';

/** The phases and goals on a Maven command line: the one reader (maven/args.ts). */
export { mavenGoals };

export interface AttemptDecision {
  action: 'skip' | 'attempt';
  tier: Tier;
  reasons: string[];
  /** Diagnostics the repair should work on (fixable, of a triggered kind). */
  targets: Diagnostic[];
  /** A rule's cap on attempts for the diagnosed files, when lower than the budget's. */
  maxAttempts?: number;
}

export type AttemptPolicy = PathPolicy & Pick<ParsedConfig, 'triggers'>;

export interface AttemptInput {
  diagnosis: Diagnosis;
  config: AttemptPolicy & { sources?: Record<string, string> };
  mavenArgs: readonly string[];
}

export function decideAttempt({ diagnosis, config, mavenArgs }: AttemptInput): AttemptDecision {
  const skip = (tier: Tier, ...reasons: string[]): AttemptDecision => ({ action: 'skip', tier, reasons, targets: [] });
  const tierSource = config.sources?.tier;
  if (config.tier === 'off') return skip('off', `tier is off${tierSource ? ` (set by ${tierSource})` : ''}`);

  if (!diagnosis.fixable) {
    return skip(
      config.tier,
      `not fixable: ${diagnosis.reason ?? firstReason(diagnosis.diagnostics) ?? 'no compile or test failure was diagnosed'}`,
    );
  }

  const fixable = diagnosis.diagnostics.filter((diagnostic) => diagnostic.fixable);
  const targets = fixable.filter((diagnostic) => (config.triggers.kinds as string[]).includes(diagnostic.kind));
  if (targets.length === 0) {
    const kinds = [...new Set(fixable.map((diagnostic) => diagnostic.kind))].join(', ') || 'none';
    return skip(
      config.tier,
      `failure kinds (${kinds}) are not in triggers.kinds (${config.triggers.kinds.join(', ')})`,
    );
  }

  if (config.triggers.goals) {
    const goals = mavenGoals(mavenArgs);
    if (!goals.some((goal) => config.triggers.goals!.includes(goal))) {
      return skip(
        config.tier,
        `Maven goals (${goals.join(' ') || 'none'}) are not in triggers.goals (${config.triggers.goals.join(', ')})`,
      );
    }
  }

  const modules = [...new Set(targets.flatMap((diagnostic) => (diagnostic.module ? [diagnostic.module] : [])))];
  const files = [...new Set(targets.flatMap((diagnostic) => (diagnostic.file ? [diagnostic.file] : [])))];
  const reasons: string[] = [];
  if (files.length > 0) {
    const protections = files.map((file) => protectionOf(file, modules, config));
    if (protections.every((protection) => protection.protected)) {
      return skip(
        config.tier,
        `every diagnosed file is protected: ${protections.map((protection) => protection.reason).join('; ')}`,
      );
    }
    reasons.push(
      ...protections.flatMap((protection) =>
        protection.protected ? [`${protection.reason}; it will not be patched`] : [],
      ),
    );
  }

  const editable = files.filter((file) => !protectionOf(file, modules, config).protected);
  const pathTier = tierForPaths(editable, modules, config);
  reasons.push(...pathTier.reasons);
  if (pathTier.tier === 'off') return skip('off', ...reasons, 'tier is off for the diagnosed files');

  reasons.push(
    `${targets.length} fixable ${targets.length === 1 ? 'diagnostic' : 'diagnostics'} (${[...new Set(targets.map((t) => t.kind))].join(', ')}) under tier ${pathTier.tier}`,
  );
  const decision: AttemptDecision = { action: 'attempt', tier: pathTier.tier, reasons, targets };
  if (pathTier.maxAttempts !== undefined) decision.maxAttempts = pathTier.maxAttempts;
  return decision;
}

function firstReason(diagnostics: readonly Diagnostic[]): string | undefined {
  return diagnostics.find((diagnostic) => diagnostic.reason)?.reason;
}
