/**
 * A formatting or license-header check failed (spotless:check, fmt:check, formatter:validate,
 * license:check): run the project's own formatter goal (spotless:apply, fmt:format,
 * formatter:format, license:format) in a scratch copy and propose what it changed. No
 * model, no guessing: the diff is the formatter's, and verification then runs the check.
 *
 * Only files the failure named are proposed; a failure that named none (-q hid them)
 * proposes every source file of the module that the formatter changed.
 */
import { fixGoalFor } from '../../diagnose/quality/tools.js';
import type { Diagnostic } from '../../diagnose/types.js';
import type { FileChange } from '../../patch/types.js';
import type { FixCandidate, Fixer } from '../../plugins/contracts.js';

const SOURCE_FILES = /\.(?:java|kt|groovy|scala|xml|properties|ya?ml|json|md|sql|js|ts|css|html)$/;
const MAX_UNNAMED_FILES = 2_000;

/** The module folder of a root-relative source file: what precedes its `src/` (Maven's layout). */
function moduleDirOf(file: string | undefined): string {
  if (!file || file.startsWith('src/')) return '';
  const at = file.lastIndexOf('/src/');
  return at > 0 ? file.slice(0, at) : '';
}

export const formatterGoalFixer: Fixer = {
  name: 'formatter-goal',
  handles: (diagnostic) => diagnostic.kind === 'quality' && fixGoalFor(diagnostic.goal, diagnostic.tool) !== undefined,
  async propose(diagnostics, view, context) {
    if (!context.runGoal) return [];
    const byGoal = new Map<string, Diagnostic[]>();
    for (const d of diagnostics) {
      const goal = fixGoalFor(d.goal, d.tool)!;
      byGoal.set(goal, [...(byGoal.get(goal) ?? []), d]);
    }
    const candidates: FixCandidate[] = [];
    for (const [goal, group] of byGoal) {
      const named = [...new Set(group.flatMap((d) => (d.file ? [d.file] : [])))];
      const moduleDirs = [...new Set(group.map((d) => moduleDirOf(d.file)))];
      const run = await context.runGoal(
        goal,
        moduleDirs.filter((dir) => dir !== ''),
      );
      if (run.exitCode !== 0)
        throw new Error(`the formatter goal ${goal} failed in the workspace (exit code ${run.exitCode})`);
      const files =
        named.length > 0
          ? named
          : (await view.list('**/src/**'))
              .concat(await view.list('src/**'))
              .filter((f) => SOURCE_FILES.test(f))
              .slice(0, MAX_UNNAMED_FILES);
      const changes: FileChange[] = [];
      for (const file of [...new Set(files)]) {
        const before = await view.read(file);
        const after = await run.read(file);
        if (before !== undefined && after !== undefined && after !== before)
          changes.push({ path: file, before, after });
      }
      if (changes.length === 0) continue;
      const tool = group[0]!.tool ?? 'the formatter';
      candidates.push({
        fixer: 'formatter-goal',
        changeSet: { files: changes },
        confidence: 0.95,
        reason: `${tool} failed its check; ran the project's own ${goal.split(':').slice(1, 2)[0]}:${goal.split(':').pop()} in a workspace and proposes what it changed (${changes.length} file(s))`,
      });
    }
    return candidates;
  },
};
