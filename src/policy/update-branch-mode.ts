/**
 * Where a verified fix of a dependency bot's pull request goes (`publish.updateBranch`, issue 43): the mode for the
 * fix's files (per rule, like publish.merge: for one path the last matching rule wins; across paths the most careful
 * mode), and whether a branch is a bot's (`publish.botBranches`). Pure.
 */
import { matchesGlob, matchingRules, normalizePath } from './paths.js';
import type { PublishPolicy } from './publish.js';
import { UPDATE_BRANCH_MODES, type UpdateBranchMode } from './publish-schema.js';

export { UPDATE_BRANCH_MODES, type UpdateBranchMode } from './publish-schema.js';

/** off < pull-request < commit, by how much mvnx does on the bot's branch on its own. */
const carefulOf = (a: UpdateBranchMode, b: UpdateBranchMode): UpdateBranchMode =>
  UPDATE_BRANCH_MODES.indexOf(a) <= UPDATE_BRANCH_MODES.indexOf(b) ? a : b;

export function updateBranchModeFor(
  files: readonly string[],
  modules: readonly string[],
  policy: PublishPolicy,
): { mode: UpdateBranchMode; setBy?: string } {
  let mode: UpdateBranchMode | undefined;
  let setBy: string | undefined;
  for (const file of files) {
    let pathMode: UpdateBranchMode = policy.publish.updateBranch;
    let pathSetBy: string | undefined;
    for (const { rule, index } of matchingRules(file, modules, policy)) {
      const ruleMode = rule.publish?.updateBranch;
      if (ruleMode) [pathMode, pathSetBy] = [ruleMode, `rules[${index}] for ${normalizePath(file)}`];
    }
    const next = mode === undefined ? pathMode : carefulOf(mode, pathMode);
    if (next !== mode) [mode, setBy] = [next, pathSetBy];
  }
  return { mode: mode ?? policy.publish.updateBranch, ...(setBy ? { setBy } : {}) };
}

export type BotName = 'dependabot' | 'renovate' | 'configured';

/** The bot whose branch this is, by `publish.botBranches`; undefined for a person's branch. */
export function botOfBranch(branch: string, patterns: readonly string[]): BotName | undefined {
  const pattern = patterns.find((glob) => matchesGlob(branch, glob));
  if (!pattern) return undefined;
  if (branch.startsWith('dependabot/')) return 'dependabot';
  if (branch.startsWith('renovate/')) return 'renovate';
  return 'configured';
}
