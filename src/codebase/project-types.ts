/** What the project's own Java sources declare and import, read through the SourceView. */
import { scanJavaHeader, type SourceView } from '../java/index.js';
import { scopeOfPath } from './maven-layout.js';
import type { SourceScope } from './types.js';

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
    // Every file of the project: the lexical reading, since parsing each one would take seconds.
    const header = scanJavaHeader(text);
    const pkg = header.packageName ?? '';
    for (const name of header.topLevelTypes) {
      const entry = { qualifiedName: pkg ? `${pkg}.${name}` : name, file, scope: scopeOfPath(file) };
      declared.set(name, [...(declared.get(name) ?? []), entry]);
    }
    for (const entry of header.imports) {
      if (!entry.isStatic && entry.simpleName !== '*')
        importCounts.set(entry.name, (importCounts.get(entry.name) ?? 0) + 1);
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
