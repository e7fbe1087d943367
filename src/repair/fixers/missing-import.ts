/**
 * "cannot find symbol ... class X" (or `variable X` for a capitalised X used as a type,
 * as in `List.of`): import X from the project, the JDK or the module's jars.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import type { FileChange } from '../../patch/types.js';
import { byFile, isPlacedCompileError, missingSymbol } from './support/diagnostic-text.js';
import { insertImport } from './support/insert-import.js';
import { readJavaHeader } from '../../java/index.js';
import { createTypeIndex, projectTypes, scopeOfPath, type ProjectTypes } from '../../codebase/index.js';
import { packageRank } from './support/package-preference.js';
import type { FixCandidate, Fixer, FixerContext, SourceView, TypeIndex } from '../../plugins/contracts.js';

const NAME = 'missing-import';

export interface ImportChoice {
  qualifiedName: string;
  confidence: number;
  why: string;
}

interface Origin {
  qualifiedName: string;
  fromProject: boolean;
  importedElsewhere: number;
}

function looksLikeType(name: string): boolean {
  return /^[A-Z][\w$]*$/.test(name) && !/^[A-Z0-9_]+$/.test(name);
}

function handles(diagnostic: Diagnostic): boolean {
  if (!isPlacedCompileError(diagnostic) || diagnostic.message !== 'cannot find symbol') return false;
  const symbol = missingSymbol(diagnostic);
  return (
    symbol !== undefined && (symbol.kind === 'class' || (symbol.kind === 'variable' && looksLikeType(symbol.name)))
  );
}

function compareOrigins(a: Origin, b: Origin): number {
  return (
    b.importedElsewhere - a.importedElsewhere ||
    Number(b.fromProject) - Number(a.fromProject) ||
    packageRank(a.qualifiedName) - packageRank(b.qualifiedName) ||
    (a.qualifiedName < b.qualifiedName ? -1 : 1)
  );
}

/** Ranked import choices for `simpleName` used in `file`: best first, with how sure each is. */
export async function rankImportChoices(
  simpleName: string,
  file: string,
  filePackage: string,
  project: ProjectTypes,
  types: TypeIndex,
): Promise<ImportChoice[]> {
  const scope = scopeOfPath(file) ?? 'main';
  const names = new Map<string, Origin>();
  const add = (qualifiedName: string, fromProject: boolean) => {
    const pkg = qualifiedName.slice(0, qualifiedName.lastIndexOf('.'));
    if (pkg === '' || pkg === filePackage || pkg === 'java.lang') return;
    const known = names.get(qualifiedName);
    names.set(qualifiedName, {
      qualifiedName,
      fromProject: fromProject || Boolean(known?.fromProject),
      importedElsewhere: project.importCounts.get(qualifiedName) ?? 0,
    });
  };
  // Main code cannot see test sources, so their classes are no candidates there.
  for (const declared of project.declared.get(simpleName) ?? [])
    if (scope === 'test' || declared.scope !== 'test') add(declared.qualifiedName, true);
  for (const name of await types.jdkClasses(simpleName)) add(name, false);
  for (const name of await types.classpathClasses(simpleName, file, scope)) add(name, false);

  const ranked = [...names.values()].sort(compareOrigins);
  if (ranked.length === 0) return [];
  const [best, second] = ranked as [Origin, ...Origin[]];
  const decided = second === undefined ? 0.9 : compareOriginsDecisively(best, second) ? 0.75 : 0.5;
  return ranked.map((origin, i) => ({
    qualifiedName: origin.qualifiedName,
    confidence: i === 0 ? decided : Math.max(0.1, 0.35 - 0.05 * (i - 1)),
    why:
      origin.importedElsewhere > 0
        ? 'imported elsewhere in the project'
        : origin.fromProject
          ? 'declared in the project'
          : 'on the classpath or in the JDK',
  }));
}

function compareOriginsDecisively(best: Origin, second: Origin): boolean {
  return (
    best.importedElsewhere > second.importedElsewhere ||
    (best.fromProject && !second.fromProject) ||
    packageRank(best.qualifiedName) < packageRank(second.qualifiedName)
  );
}

interface Need {
  file: string;
  text: string;
  simpleName: string;
  /** Never empty: needs without a choice are dropped. */
  choices: [ImportChoice, ...ImportChoice[]];
}

function applyPicks(needs: Need[], pick: (need: Need) => ImportChoice): FileChange[] {
  const files = new Map<string, { before: string; after: string }>();
  for (const need of needs) {
    const current = files.get(need.file) ?? { before: need.text, after: need.text };
    current.after = insertImport(current.after, pick(need).qualifiedName);
    files.set(need.file, current);
  }
  return [...files].map(([path, change]) => ({ path, ...change }));
}

async function propose(diagnostics: Diagnostic[], view: SourceView, context: FixerContext): Promise<FixCandidate[]> {
  const placed = diagnostics.filter(handles).filter(isPlacedCompileError);
  if (placed.length === 0) return [];
  const types =
    context.types ??
    createTypeIndex({
      projectRoot: view.root,
      javaHome: context.javaHome,
      classpath: context.classpath,
      testClasspath: context.testClasspath,
      localRepository: context.localRepository,
      cacheDir: context.cacheDir,
    });
  const project = await projectTypes(view);
  const needs: Need[] = [];
  for (const [file, group] of byFile(placed)) {
    const text = await view.read(file);
    if (text === undefined) continue;
    const header = readJavaHeader(text);
    const imports = header.imports;
    const onImportLine = (line: number) => imports.some((entry) => entry.line <= line && line <= entry.endLine);
    const filePackage = header.packageName ?? '';
    for (const simpleName of new Set(group.filter((d) => !onImportLine(d.line)).map((d) => missingSymbol(d)!.name))) {
      // A file that already imports this simple name has a different problem than a missing import.
      if (imports.some((entry) => entry.simpleName === simpleName)) continue;
      const choices = await rankImportChoices(simpleName, file, filePackage, project, types);
      const [first, ...others] = choices;
      if (first) needs.push({ file, text, simpleName, choices: [first, ...others] });
    }
  }
  if (needs.length === 0) return [];

  const describe = (need: Need, choice: ImportChoice) =>
    `import ${choice.qualifiedName} in ${need.file} (${choice.why})`;
  const candidates: FixCandidate[] = [
    {
      fixer: NAME,
      changeSet: { files: applyPicks(needs, (need) => need.choices[0]) },
      confidence: Math.min(...needs.map((need) => need.choices[0].confidence)),
      reason: `cannot find symbol: ${needs.map((need) => describe(need, need.choices[0])).join('; ')}`,
    },
  ];
  for (const alternativeFor of needs) {
    for (const alternative of alternativeFor.choices.slice(1, 4)) {
      candidates.push({
        fixer: NAME,
        changeSet: { files: applyPicks(needs, (need) => (need === alternativeFor ? alternative : need.choices[0])) },
        confidence: alternative.confidence,
        reason: `cannot find symbol ${alternativeFor.simpleName}: alternative ${describe(alternativeFor, alternative)}`,
      });
    }
  }
  return candidates;
}

export const missingImportFixer: Fixer = { name: NAME, handles, propose };
