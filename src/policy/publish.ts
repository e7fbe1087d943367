/**
 * Publishing a verified fix as a pull/merge request under tier auto in CI (issue 27): the
 * config section `publish`, the per-rule `publish.merge` switch (so a module earns the
 * forge's auto-merge through `mvnx runs --advise`), and the pure decisions of what may be
 * published and merged. The two config shapes are zod schemas in publish-schema.ts, which
 * schema.ts reads without these decisions. The forge calls are in report/publish/.
 */
import { matchingRules, normalizePath, type PathPolicy } from './paths.js';
import type { MergeMode, PublishConfig } from './publish-schema.js';
import type { Risk } from './schema.js';

export { MERGE_MODES, publishSchema, rulePublishSchema, type MergeMode, type PublishConfig } from './publish-schema.js';
export type PublishPolicy = PathPolicy & { publish: PublishConfig; auto: { maxRisk: Risk } };

export interface PublishFacts {
  tier: string;
  status: string;
  action?: string;
  risk?: Risk;
  /** What the fix changed in the failing tests (a test-side edit), in words. */
  failingTestEdits?: readonly string[];
  /** Paths the fix changes, relative to the project root. */
  files: readonly string[];
  modules: readonly string[];
}

export interface PublishDecision {
  /** The run's own end (tier auto in CI) may publish it. */
  publishAutomatically: boolean;
  merge: MergeMode;
  /** Why merge is off, or why not published automatically, in words for the record and the console. */
  reasons: string[];
}

const RISKS: readonly Risk[] = ['low', 'medium', 'high'];

/**
 * The merge mode for these files: the last matching rule with publish.merge per path, else the config's; off wins
 * across paths.
 */
export function mergeModeFor(
  files: readonly string[],
  modules: readonly string[],
  policy: PublishPolicy,
): { merge: MergeMode; setBy?: string } {
  let merge: MergeMode | undefined;
  let setBy: string | undefined;
  for (const file of files) {
    let pathMode: MergeMode = policy.publish.merge;
    let pathSetBy: string | undefined;
    for (const { rule, index } of matchingRules(file, modules, policy)) {
      const ruleMerge = rule.publish?.merge;
      if (ruleMerge) [pathMode, pathSetBy] = [ruleMerge, `rules[${index}] for ${normalizePath(file)}`];
    }
    if (merge === undefined || pathMode === 'off') [merge, setBy] = [pathMode, pathSetBy ?? setBy];
  }
  return { merge: merge ?? policy.publish.merge, ...(setBy ? { setBy } : {}) };
}

/**
 * What may happen to a verified fix: published automatically only under tier auto with an
 * applied verdict; merged by the forge only when the merge mode allows it and nothing
 * speaks against it (a test-side edit, a risk above auto.maxRisk, a verdict that was not auto's).
 */
export function decidePublication(facts: PublishFacts, policy: PublishPolicy): PublishDecision {
  const reasons: string[] = [];
  const against: string[] = [];
  if (facts.status !== 'fixed') against.push(`the run has no verified fix (status ${facts.status})`);
  if ((facts.failingTestEdits ?? []).length > 0)
    against.push(`the fix edits the failing test (${facts.failingTestEdits!.join('; ')}): only a person may take it`);
  if (facts.risk && RISKS.indexOf(facts.risk) > RISKS.indexOf(policy.auto.maxRisk))
    against.push(`risk ${facts.risk} is above auto.maxRisk (${policy.auto.maxRisk})`);
  if (facts.tier !== 'auto' || facts.action !== 'apply')
    against.push(`the policy did not let auto take the fix (tier ${facts.tier}, action ${facts.action ?? 'none'})`);
  const publishAutomatically = policy.publish.auto && against.length === 0;
  if (!policy.publish.auto) reasons.push('publish.auto is off');
  reasons.push(...against);
  const mode = mergeModeFor(facts.files, facts.modules, policy);
  if (against.length > 0) return { publishAutomatically, merge: 'off', reasons };
  if (mode.merge === 'off')
    reasons.push(`publish.merge is off${mode.setBy ? ` (${mode.setBy})` : ''}: the request waits for a person`);
  return { publishAutomatically, merge: mode.merge, reasons };
}
