/** What the project's own Java sources declare and import, read through the SourceView. */
import { findImports, findPackage, maskCommentsAndLiterals, scopeOfPath, splitLines, topLevelTypeNames } from './java-source.js';
import type { SourceScope, SourceView } from './types.js';

export interface ProjectType {
  qualifiedName: string;
  file: string;
  scope: SourceScope | undefined;
}

export interface ProjectTypes {
  /** Simple name -> the project's top-level types with that name. */
  declared: Map<string, ProjectType[]>;
  /** Fully qualified name -> how many project files import it by single-type import. */
  importCounts: Map<string, number>;
}

const scanned = new WeakMap<SourceView, Promise<ProjectTypes>>();

async function scan(view: SourceView): Promise<ProjectTypes> {
  const declared = new Map<string, ProjectType[]>();
  const importCounts = new Map<string, number>();
  for (const file of await view.list('**/*.java')) {
    const text = await view.read(file);
    if (text === undefined) continue;
    const masked = maskCommentsAndLiterals(text);
    const lines = splitLines(masked).lines;
    const pkg = findPackage(lines)?.name ?? '';
    for (const name of topLevelTypeNames(masked)) {
      const entry = { qualifiedName: pkg ? `${pkg}.${name}` : name, file, scope: scopeOfPath(file) };
      declared.set(name, [...(declared.get(name) ?? []), entry]);
    }
    for (const entry of findImports(lines)) {
      if (!entry.isStatic && entry.simpleName !== '*') importCounts.set(entry.name, (importCounts.get(entry.name) ?? 0) + 1);
    }
  }
  return { declared, importCounts };
}

/** Scans the project once per view; later fixers in the same step reuse the result. */
export function projectTypes(view: SourceView): Promise<ProjectTypes> {
  let result = scanned.get(view);
  if (!result) {
    result = scan(view);
    scanned.set(view, result);
  }
  return result;
}
