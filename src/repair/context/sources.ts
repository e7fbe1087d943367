/**
 * The project's Java sources as the prompt context reads them: which file declares a
 * qualified type (by the Maven layout, `src/{main,test}/java/<package>/<Type>.java`),
 * each file parsed once, and a type's supertypes followed through the project, the JDK
 * and the module's jars.
 */
import {
  allTypes,
  qualifyTypeName,
  superTypesOf,
  rawTypeName,
  viewJavaFile,
  type JavaSourceFile,
  type JavaType,
  type SourceView,
} from '../../java/index.js';
import type { LibraryType, SourceScope, TypeIndex } from '../../plugins/contracts.js';

/** The tree as the current attempt sees it: a SourceView (its root is not needed here). */
export type SourceAccess = Pick<SourceView, 'read' | 'list'>;

export interface ProjectType {
  path: string;
  file: JavaSourceFile;
  type: JavaType;
  /** Binary name: `com.acme.Outer$Inner`. */
  name: string;
}

/** A type met while walking a hierarchy: the project's own, or one from the JDK or a jar. */
export type HierarchyType = { project: ProjectType } | { library: LibraryType };

const LAYOUT = /(?:^|\/)src\/(main|test)\/java\/(.+)\.java$/;

export function scopeOf(path: string): SourceScope | undefined {
  const match = LAYOUT.exec(path);
  return match ? (match[1] as SourceScope) : undefined;
}

export class ProjectSources {
  private index: Promise<Map<string, string>> | undefined;
  private readonly parsed = new Map<string, Promise<JavaSourceFile | undefined>>();

  constructor(
    readonly access: SourceAccess,
    readonly types?: TypeIndex,
  ) {}

  /** Top-level qualified name -> path, main sources before test sources. */
  files(): Promise<Map<string, string>> {
    this.index ??= this.access.list('**/src/{main,test}/java/**/*.java').then((paths) => {
      const map = new Map<string, string>();
      // The scope read once per path, not twice per comparison: a project lists thousands.
      const isTest = new Map(paths.map((path) => [path, scopeOf(path) === 'test']));
      const sorted = [...paths].sort((a, b) => Number(isTest.get(a)) - Number(isTest.get(b)) || a.localeCompare(b));
      for (const path of sorted) {
        const match = LAYOUT.exec(path);
        const name = match?.[2]?.replace(/\//g, '.');
        if (name && !map.has(name)) map.set(name, path);
      }
      return map;
    });
    return this.index;
  }

  /** The parsed file, or undefined when it is missing or does not parse (a syntax error). */
  parse(path: string): Promise<JavaSourceFile | undefined> {
    let file = this.parsed.get(path);
    if (!file) {
      // Through the view's parse, shared with the fixers and tools that read the same view.
      file = viewJavaFile(this.access, path).then((viewed) => (viewed?.parsed.ok ? viewed.parsed.file : undefined));
      this.parsed.set(path, file);
    }
    return file;
  }

  async exists(qualifiedName: string): Promise<boolean> {
    return (await this.files()).has(qualifiedName.split('$')[0]!);
  }

  /** The project type with this binary (or dotted nested) name. */
  async type(name: string): Promise<ProjectType | undefined> {
    const files = await this.files();
    const parts = name.split(/[.$]/);
    // `com.acme.Outer.Inner` and `com.acme.Outer$Inner`: find the longest prefix that is a file.
    for (let cut = parts.length; cut > 0; cut--) {
      const top = parts.slice(0, cut).join('.');
      const path = files.get(top);
      if (!path) continue;
      const file = await this.parse(path);
      const binary = [top, ...parts.slice(cut)].join('$');
      const type = file && allTypes(file).find((candidate) => candidate.binaryName === binary);
      return type && file ? { path, file, type, name: binary } : undefined;
    }
    return undefined;
  }

  /** Qualifies a type name written in `file`, against the project's own types. */
  async qualify(written: string, file: JavaSourceFile): Promise<string | undefined> {
    const files = await this.files();
    return qualifyTypeName(written, file, (name) => files.has(name));
  }

  /**
   * The named type and its supertypes, nearest first, each once: project types read from
   * source, others from the JDK or the jars `path` compiles against (when an index is there).
   */
  async hierarchy(start: HierarchyType, path: string, limit = 12): Promise<HierarchyType[]> {
    const out: HierarchyType[] = [];
    const seen = new Set<string>();
    const queue: HierarchyType[] = [start];
    while (queue.length > 0 && out.length < limit) {
      const current = queue.shift()!;
      const name = 'project' in current ? current.project.name : current.library.name;
      if (seen.has(name)) continue;
      seen.add(name);
      out.push(current);
      for (const next of await this.supertypes(current, path)) queue.push(next);
    }
    return out;
  }

  private async supertypes(current: HierarchyType, path: string): Promise<HierarchyType[]> {
    const out: HierarchyType[] = [];
    if ('project' in current) {
      const { superclass, interfaces } = superTypesOf(current.project.type);
      for (const written of [...(superclass ? [superclass] : []), ...interfaces]) {
        const qualified = await this.qualify(written, current.project.file);
        const project = qualified ? await this.type(qualified) : undefined;
        if (project) out.push({ project });
        else {
          const library = await this.library(await this.libraryName(written, current.project.file, path), path);
          if (library) out.push({ library });
        }
      }
    } else {
      for (const written of [
        ...(current.library.superclass ? [current.library.superclass] : []),
        ...current.library.interfaces,
      ]) {
        const name = rawTypeName(written);
        const project = await this.type(name);
        if (project) out.push({ project });
        else {
          const library = await this.library(name, path);
          if (library) out.push({ library });
        }
      }
    }
    return out;
  }

  /** A JDK or library type's members, through the type index. */
  async library(name: string | undefined, path: string): Promise<LibraryType | undefined> {
    if (!name || !this.types?.typeMembers || name === 'java.lang.Object') return undefined;
    return this.types.typeMembers(name, path, scopeOf(path) ?? 'main').catch(() => undefined);
  }

  /**
   * The binary name of a non-project type written in `file`: its import, java.lang, or a unique match in the JDK or the
   * jars.
   */
  async libraryName(written: string, file: JavaSourceFile, path: string): Promise<string | undefined> {
    const name = rawTypeName(written);
    const [first, ...rest] = name.split('.');
    if (rest.length > 0 && /^[a-z]/.test(first!)) return name;
    const imported = file.imports.find((entry) => !entry.startsWith('static ') && entry.endsWith(`.${first}`));
    if (imported) return [imported, ...rest].join('$');
    if (!this.types) return undefined;
    const scope = scopeOf(path) ?? 'main';
    const candidates = [
      ...(await this.types.jdkClasses(first!).catch(() => [])),
      ...(await this.types.classpathClasses(first!, path, scope).catch(() => [])),
    ];
    const wildcard = file.imports.filter((entry) => entry.endsWith('.*')).map((entry) => entry.slice(0, -2));
    const visible = candidates.filter((candidate) => {
      const pkg = candidate.slice(0, candidate.lastIndexOf('.'));
      return pkg === 'java.lang' || wildcard.includes(pkg) || pkg === file.packageName;
    });
    return visible.length === 1 ? [visible[0], ...rest].join('$') : undefined;
  }
}
