/**
 * Runs integrity rules one after the other, each seeing what the ones before it found.
 * mvnx's own rules and a plugin's take this one path; a rule can add findings only (it is
 * handed copies of the earlier ones), and a finding must carry a name its rule declares.
 */
import type { IntegrityFinding, IntegrityRule, IntegrityRuleInput } from './types.js';

export function ruleNames(rule: IntegrityRule): readonly string[] {
  return rule.reports ?? [rule.id];
}

export function runIntegrityRules(
  rules: readonly IntegrityRule[],
  input: Omit<IntegrityRuleInput, 'earlier'>,
): IntegrityFinding[] {
  const owners = new Map<string, string>();
  for (const rule of rules) {
    for (const name of new Set([rule.id, ...ruleNames(rule)])) {
      const owner = owners.get(name);
      if (owner !== undefined)
        throw new TypeError(
          `integrity rule ${rule.id}: the name "${name}" is already taken by integrity rule ${owner}`,
        );
      owners.set(name, rule.id);
    }
  }
  const findings: IntegrityFinding[] = [];
  for (const rule of rules) {
    const names = ruleNames(rule);
    for (const finding of rule.check({ ...input, earlier: findings.map((earlier) => ({ ...earlier })) })) {
      if (!names.includes(finding.rule))
        throw new TypeError(
          `integrity rule ${rule.id}: a finding is named "${finding.rule}", not one of ${names.join(', ')}`,
        );
      findings.push(finding);
    }
  }
  return findings;
}
