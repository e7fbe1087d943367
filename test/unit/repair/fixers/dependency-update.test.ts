/**
 * The two dependency-update quick-fixes are ordinary built-in fixers: listed in
 * BUILT_IN_FIXERS, asked by the registry like the others, and fed the run's update through
 * their FixerContext (`dependencyUpdate`). Without it they propose nothing, so a failure
 * that is not a dependency update costs them nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../../src/diagnose/types.js';
import type { SourceView } from '../../../../src/java/index.js';
import type { DependencyUpdateAnalysis } from '../../../../src/repair/dependency-update/analyse.js';
import type { DependencyUpdateFixerData, PatternLog } from '../../../../src/repair/dependency-update/update-repair.js';
import { BUILT_IN_FIXERS, FixerRegistry } from '../../../../src/repair/fixers/index.js';

const USE = 'src/main/java/app/Use.java';
const OTHER = 'src/main/java/app/Other.java';
const useSource = 'package app;\n\nimport a.util.TextUtils;\n\nclass Use {\n  String s = TextUtils.shout("x");\n}\n';

function compileError(file: string, line: number, message: string): Diagnostic {
  return { kind: 'compile', category: 'compile', fixable: true, message, file, line, fingerprint: `${file}:${line}` };
}

function viewOf(files: Record<string, string>): SourceView {
  return { root: '/project', read: async (file) => files[file], list: async () => Object.keys(files) };
}

/** The registry as the engine builds it, holding only the dependency fixers of the one map. */
function dependencyFixers(): FixerRegistry {
  const registry = new FixerRegistry();
  for (const fixer of BUILT_IN_FIXERS.filter((fixer) => fixer.name.startsWith('dependency-'))) registry.register(fixer);
  return registry;
}

function update(errors: DependencyUpdateAnalysis['errors']): DependencyUpdateAnalysis {
  const api = { jar: 'lib.jar', classes: new Map(), bySimpleName: new Map(), packages: new Set<string>() };
  return {
    change: { groupId: 'a', artifactId: 'util', from: '1.0', to: '2.0', source: 'pom.xml', comparedWith: 'HEAD' },
    newApi: api,
    errors,
    tests: [],
  };
}

function runData(
  analysis: DependencyUpdateAnalysis | undefined,
  originals: Record<string, string> = {},
): DependencyUpdateFixerData {
  return { analysis: () => analysis, log: new Map() as PatternLog, readOriginal: async (file) => originals[file] };
}

describe('the dependency-update fixers, registered through BUILT_IN_FIXERS', () => {
  const moved = compileError(USE, 3, 'package a.util does not exist');

  it('both are in the one map', () => {
    expect(
      dependencyFixers()
        .list()
        .map((fixer) => fixer.name),
    ).toEqual(['dependency-update', 'dependency-pattern']);
  });

  it('write the replacement the update names, and log its sites for the run record', async () => {
    const run = runData(
      update([
        {
          diagnostic: moved,
          site: `${USE}:3`,
          symbols: [],
          lines: [],
          replacement: { shape: 'moved-class', from: 'a.util.TextUtils', to: 'a.text.TextUtils' },
        },
      ]),
    );
    const [candidate, ...rest] = await dependencyFixers().propose([moved], viewOf({ [USE]: useSource }), {
      dependencyUpdate: run,
    });
    expect(rest).toEqual([]);
    expect(candidate?.fixer).toBe('dependency-update');
    expect(candidate?.changeSet.files).toEqual([
      { path: USE, before: useSource, after: useSource.replace('a.util.TextUtils', 'a.text.TextUtils') },
    ]);
    expect([...run.log.values()]).toEqual([{ from: 'a.util.TextUtils', to: 'a.text.TextUtils', sites: [`${USE}:3`] }]);
  });

  it('carry an edit an earlier attempt made at one site to another site javac still reports', async () => {
    const before = '    return Formatter.format("%d", count);';
    const edited = '    return Formatter.format(count, java.util.Locale.ROOT, "%d");';
    const first = compileError(USE, 1, 'no suitable method found for format(String,int)');
    const second = compileError(OTHER, 1, 'no suitable method found for format(String,int)');
    const run = runData(update([{ diagnostic: first, site: `${USE}:1`, symbols: [], lines: [] }]), {
      [USE]: before,
      [OTHER]: '    return Formatter.format("%d items", total);',
    });
    const candidates = await dependencyFixers().propose(
      [second],
      viewOf({ [USE]: edited, [OTHER]: '    return Formatter.format("%d items", total);' }),
      { dependencyUpdate: run },
    );
    expect(
      candidates.map((candidate) => [candidate.fixer, candidate.changeSet.files.map((file) => file.after)]),
    ).toEqual([['dependency-pattern', ['    return Formatter.format(total, java.util.Locale.ROOT, "%d items");']]]);
    expect([...run.log.values()].map((entry) => entry.sites)).toEqual([[`${OTHER}:1`]]);
  });

  it('propose nothing when the context carries no update, or an update not found', async () => {
    const view = viewOf({ [USE]: useSource });
    expect(await dependencyFixers().propose([moved], view, {})).toEqual([]);
    expect(await dependencyFixers().propose([moved], view, { dependencyUpdate: runData(undefined) })).toEqual([]);
  });
});
