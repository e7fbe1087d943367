/**
 * Which tier and protections apply to which files. Rules are read in order and, for one
 * path, a later matching rule overrides an earlier one (a project's own rules come after
 * those of its bases). Across several paths the strictest tier wins.
 */
import { canonicalPath, matchPathGlob } from '../patch/canonical-path.js';
import type { RuleConfig, Tier } from './schema.js';
import { TIERS } from './schema.js';

/** The slice of the config these decisions read, so that tests can pass plain data. */
export interface PathPolicy {
  tier: Tier;
  rules: RuleConfig[];
  protectedPaths: string[];
}

export interface TierForPaths {
  tier: Tier;
  reasons: string[];
  /** The smallest `maxAttempts` among rules matching any path, when one sets it. */
  maxAttempts?: number;
}

/**
 * Whether a path matches a rule's glob: in canonical form (so `src/./billing/x` cannot
 * slip past `src/billing/**`), and also when only a case or Unicode variant of it does
 * (on macOS and Windows `Billing/` is `billing/`).
 */
export function matchesGlob(filePath: string, glob: string): boolean {
  return matchPathGlob(normalizePath(filePath), glob) !== undefined;
}

/** The patch layer's one canonical form, for paths that have one (diagnostics may not). */
export function normalizePath(filePath: string): string {
  const canonical = canonicalPath(filePath);
  return 'path' in canonical ? canonical.path : filePath.replaceAll('\\', '/').replace(/^\.\//, '');
}

/** off < monitor < assist < auto, by how much mvnx may do on its own. */
export function stricterTier(a: Tier, b: Tier): Tier {
  return TIERS.indexOf(a) <= TIERS.indexOf(b) ? a : b;
}

function ruleMatches(rule: RuleConfig, filePath: string, modules: readonly string[]): boolean {
  if (rule.modules && !rule.modules.some((module) => modules.includes(module))) return false;
  return rule.paths.some((glob) => matchesGlob(filePath, glob));
}

function describeRule(rule: RuleConfig, index: number): string {
  return `rules[${index}]${rule.description ? ` (${rule.description})` : ` (paths ${rule.paths.join(', ')})`}`;
}

/** Rules matching `filePath`, with their index, in order. */
export function matchingRules(
  filePath: string,
  modules: readonly string[],
  policy: PathPolicy,
): { rule: RuleConfig; index: number }[] {
  return policy.rules.flatMap((rule, index) => (ruleMatches(rule, filePath, modules) ? [{ rule, index }] : []));
}

export function tierForPaths(paths: readonly string[], modules: readonly string[], policy: PathPolicy): TierForPaths {
  let tier: Tier | undefined;
  let maxAttempts: number | undefined;
  const reasons: string[] = [];
  for (const filePath of paths) {
    let pathTier = policy.tier;
    let setBy: string | undefined;
    for (const { rule, index } of matchingRules(filePath, modules, policy)) {
      if (rule.tier) {
        pathTier = rule.tier;
        setBy = describeRule(rule, index);
      }
      if (rule.maxAttempts !== undefined) maxAttempts = Math.min(maxAttempts ?? Infinity, rule.maxAttempts);
    }
    if (setBy) reasons.push(`${normalizePath(filePath)}: tier ${pathTier} from ${setBy}`);
    tier = tier === undefined ? pathTier : stricterTier(tier, pathTier);
  }
  const result: TierForPaths = { tier: tier ?? policy.tier, reasons };
  if (paths.length > 1 && reasons.length > 0) reasons.push(`strictest tier over ${paths.length} files: ${result.tier}`);
  if (maxAttempts !== undefined) result.maxAttempts = maxAttempts;
  return result;
}

export interface Protection {
  protected: boolean;
  reason?: string;
}

/**
 * protectedPaths, less globs that a rule lifts with `protected: false` (the same glob
 * string), plus the globs of module-independent `protected: true` rules. The patch stage
 * enforces this list, so protectionOf reads the same one.
 */
export function effectiveProtectedGlobs(policy: Pick<PathPolicy, 'rules' | 'protectedPaths'>): string[] {
  const lifted = new Set(policy.rules.filter((rule) => rule.protected === false).flatMap((rule) => rule.paths));
  const added = policy.rules.filter((rule) => rule.protected === true && !rule.modules).flatMap((rule) => rule.paths);
  return [...new Set([...policy.protectedPaths.filter((glob) => !lifted.has(glob)), ...added])];
}

/** Whether a patch may touch `filePath`, and which glob or rule forbids it. */
export function protectionOf(filePath: string, modules: readonly string[], policy: PathPolicy): Protection {
  const glob = effectiveProtectedGlobs(policy).find((candidate) => matchesGlob(filePath, candidate));
  if (glob) return { protected: true, reason: `${normalizePath(filePath)} is protected ("${glob}")` };
  const moduleRule = matchingRules(filePath, modules, policy).find(({ rule }) => rule.protected === true);
  if (moduleRule)
    return {
      protected: true,
      reason: `${normalizePath(filePath)} is protected by ${describeRule(moduleRule.rule, moduleRule.index)}`,
    };
  return { protected: false };
}
