/**
 * A fix per update: the edit an earlier attempt made at one site of a dependency update
 * (dependency-update/patterns.ts) written at every other site javac still reports, as
 * one quick-fix candidate, before the model is asked again. Runs only while the run's
 * failure is a dependency update and the attempt's tree differs from the original.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { fingerprintChangeSet } from '../../patch/index.js';
import type { FixCandidate, Fixer, SourceView } from '../../plugins/contracts.js';
import { applyPatterns, patternsOf } from '../dependency-update/patterns.js';
import type { BuiltInFixerContext } from './support/built-in-context.js';
import { byFile, isPlacedCompileError } from './support/diagnostic-text.js';

export const DEPENDENCY_PATTERN_FIXER = 'dependency-pattern';

/** Proposes nothing when the context carries no dependency update (the failure is not one). */
export const dependencyPatternFixer: Fixer = {
  name: DEPENDENCY_PATTERN_FIXER,
  handles: (diagnostic) => isPlacedCompileError(diagnostic),
  async propose(diagnostics: Diagnostic[], view: SourceView, context: BuiltInFixerContext): Promise<FixCandidate[]> {
    const run = context.dependencyUpdate;
    const update = run?.analysis();
    if (!run || !update) return [];
    // Files the update touched: where an edit of the attempt's tree may hold a pattern.
    const files = new Set([
      ...update.errors.map((error) => error.diagnostic.file!),
      ...diagnostics.map((d) => d.file).filter((f): f is string => Boolean(f)),
    ]);
    const edited: { before: string; after: string }[] = [];
    for (const file of files) {
      const [before, after] = await Promise.all([run.readOriginal(file), view.read(file)]);
      if (before !== undefined && after !== undefined && before !== after) edited.push({ before, after });
    }
    if (edited.length === 0) return [];
    const patterns = patternsOf(edited);
    if (patterns.length === 0) return [];
    const changed: { path: string; before: string; after: string }[] = [];
    const sites: string[] = [];
    const used = new Set<string>();
    for (const [path, group] of byFile(diagnostics.filter(isPlacedCompileError))) {
      const before = await view.read(path);
      if (before === undefined) continue;
      const lines = before.split('\n');
      for (const line of [...new Set(group.map((d) => d.line))]) {
        const written = applyPatterns(lines[line - 1] ?? '', patterns);
        if (!written) continue;
        lines[line - 1] = written.line;
        sites.push(`${path}:${line}`);
        used.add(`${written.pattern.from} -> ${written.pattern.to}`);
      }
      const after = lines.join('\n');
      if (after !== before) changed.push({ path, before, after });
    }
    if (changed.length === 0) return [];
    const changeSet = { files: changed };
    const [first] = [...used];
    const [from, to] = (first ?? ' -> ').split(' -> ');
    run.log.set(fingerprintChangeSet(changeSet), { from: from!, to: to!, sites });
    return [
      {
        fixer: DEPENDENCY_PATTERN_FIXER,
        changeSet,
        confidence: 0.85,
        reason: `the fix of an earlier site of ${update.change.artifactId} ${update.change.from} -> ${update.change.to} (${[...used].join('; ')}) written at ${sites.join(', ')}`,
      },
    ];
  },
};
