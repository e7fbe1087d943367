/**
 * A failed build read as a dependency update: for each dependency whose version changed
 * (detect.ts), the errors that touch its classes, and for each error the failing line,
 * its method and the API difference of the symbols it names (api-diff.ts) — what the
 * run record's `dependencyUpdate`, the prompt and the quick-fix use. A test failure whose
 * code uses the changed dependency counts too (a behaviour change has no API difference
 * to show, but the prompt names the update).
 */
import path from 'node:path';
import type { Diagnostic, Diagnosis } from '../../diagnose/types.js';
import { methodAt, parseJava, scanJavaHeader, type JavaImport } from '../../java/index.js';
import { deprecatedText, readArtifactApi, type JarApi } from '../../maven/jar-api.js';
import { simpleName } from '../../maven/class-file.js';
import { locationOf, symbolOf } from '../context/symbols.js';
import { methodLabel } from '../context/pieces.js';
import {
  binaryNameIn,
  noteKey,
  symbolDifference,
  typeDifference,
  type DeprecationNotes,
  type Replacement,
  type TouchedSymbol,
} from './api-diff.js';
import type { DetectedChange } from './detect.js';

export interface ErrorDifference {
  diagnostic: Diagnostic;
  /** `src/main/java/A.java:12`. */
  site: string;
  failingLine?: string;
  method?: string;
  symbols: TouchedSymbol[];
  lines: string[];
  replacement?: Replacement;
}

export interface DependencyUpdateAnalysis {
  change: DetectedChange;
  oldApi?: JarApi;
  newApi: JarApi;
  errors: ErrorDifference[];
  /** Test failures whose code uses the dependency (a behaviour change). */
  tests: ErrorDifference[];
  branchHint?: string;
}

type Read = (file: string) => Promise<string | undefined>;

function inJar(api: JarApi | undefined, name: string): boolean {
  return binaryNameIn(api, name) !== undefined;
}

/** A simple or dotted name as the file means it: through its imports, else as written. */
function qualify(name: string, imports: readonly JavaImport[], apis: (JarApi | undefined)[]): string {
  const clean = name.replace(/<.*$/, '').trim();
  if (clean.includes('.') && apis.some((api) => inJar(api, clean))) return clean;
  const head = clean.split('.')[0]!;
  const single = imports.find((entry) => !entry.isStatic && entry.simpleName === head);
  if (single) return `${single.name}${clean.slice(head.length)}`;
  for (const entry of imports.filter((entry) => entry.simpleName === '*' && !entry.isStatic)) {
    const candidate = `${entry.name.slice(0, -2)}.${clean}`;
    if (apis.some((api) => inJar(api, candidate))) return candidate;
  }
  return clean;
}

/** The symbols a compile error names, with owners as binary names where they are known. */
export function touchedSymbols(
  diagnostic: Diagnostic,
  lineText: string,
  imports: readonly JavaImport[],
  apis: (JarApi | undefined)[],
): TouchedSymbol[] {
  const message = diagnostic.message;
  const q = (name: string) => qualify(name, imports, apis);
  const missingPackage = /^package ([\w.]+) does not exist/.exec(message);
  if (missingPackage) {
    const used = new RegExp(`${missingPackage[1]!.replace(/\./g, '\\.')}\\.([A-Z][\\w$]*)`).exec(lineText);
    return used ? [{ owner: `${missingPackage[1]}.${used[1]}`, kind: 'class' }] : [];
  }
  const symbol = symbolOf(diagnostic);
  const location = locationOf(diagnostic);
  if (message.startsWith('cannot find symbol') && symbol) {
    if (symbol.kind === 'class' || symbol.kind === 'interface')
      return [
        {
          owner: q(
            location &&
              location.kind !== 'variable' &&
              /\.[A-Z]/.test(location.type) &&
              lineText.includes(`.${symbol.name}`)
              ? `${location.type}.${symbol.name}`
              : symbol.name,
          ),
          kind: 'class',
        },
      ];
    if (location) {
      const kind = symbol.kind === 'method' ? 'method' : symbol.kind === 'constructor' ? 'constructor' : 'field';
      return [
        {
          owner: q(location.type),
          member: symbol.name,
          kind,
          ...(symbol.argumentTypes ? { argumentTypes: symbol.argumentTypes } : {}),
        },
      ];
    }
  }
  const constructor = /^constructor ([\w$]+) in (?:class|enum) ([\w.$<>]+) cannot be applied/.exec(message);
  if (constructor) return [{ owner: q(constructor[2]!), kind: 'constructor' }];
  const access = /^([\w$]+)\((.*)\) (?:has (?:private|protected) access in|is not public in) ([\w.$]+)/.exec(message);
  if (access) {
    const argumentTypes = access[2]!.trim() === '' ? [] : access[2]!.split(',').map((type) => type.trim());
    return [
      {
        owner: q(access[3]!),
        argumentTypes,
        ...(simpleName(q(access[3]!)) === access[1]
          ? { kind: 'constructor' as const }
          : { member: access[1]!, kind: 'method' as const }),
      },
    ];
  }
  const field = /^([\w$]+) (?:has (?:private|protected) access in|is not public in) ([\w.$]+)/.exec(message);
  if (field) return [{ owner: q(field[2]!), member: field[1]!, kind: 'field' }];
  const method = /^method ([\w$]+) in (?:class|interface|enum) ([\w.$<>, ]+?) cannot be applied/.exec(message);
  if (method) return [{ owner: q(method[2]!), member: method[1]!, kind: 'method' }];
  const suitable = /^no suitable (method|constructor) found for ([\w$]+)\(/.exec(message);
  if (suitable) {
    const owner = (diagnostic.details ?? [])
      .map((line) => /(?:method|constructor) ([\w.$]+)\.[\w$<>]+\(/.exec(line)?.[1])
      .find(Boolean);
    if (owner)
      return [
        {
          owner: q(owner),
          ...(suitable[1] === 'constructor'
            ? { kind: 'constructor' as const }
            : { member: suitable[2]!, kind: 'method' as const }),
        },
      ];
  }
  const abstract = /does not override abstract method ([\w$]+)\(.*\) in ([\w.$]+)/.exec(message);
  if (abstract) return [{ owner: q(abstract[2]!), member: abstract[1]!, kind: 'method' }];
  // Anything else (incompatible types, ...): the dependency's classes the line names, and the member used on each.
  const out: TouchedSymbol[] = [];
  for (const match of lineText.matchAll(/(?<![\w$.])([A-Z][\w$]*)(?:\s*\.\s*([a-zA-Z_$][\w$]*))?/g)) {
    const owner = q(match[1]!);
    if (!apis.some((api) => inJar(api, owner))) continue;
    out.push({ owner, ...(match[2] ? { member: match[2], kind: 'any' as const } : { kind: 'class' as const }) });
  }
  return out;
}

async function notesFor(
  symbols: TouchedSymbol[],
  oldApi: JarApi | undefined,
  change: DetectedChange,
  localRepository: string,
): Promise<DeprecationNotes> {
  const notes: DeprecationNotes = new Map();
  if (!oldApi) return notes;
  for (const symbol of symbols) {
    const owner = binaryNameIn(oldApi, symbol.owner);
    if (!owner) continue;
    const info = oldApi.classes.get(owner)!;
    const deprecated = info.members.filter(
      (member) =>
        member.deprecated &&
        (symbol.kind === 'constructor' ? member.kind === 'constructor' : member.name === symbol.member),
    );
    for (const member of deprecated) {
      const text = await deprecatedText(
        localRepository,
        { groupId: change.groupId, artifactId: change.artifactId, version: change.from },
        owner,
        member.name,
      );
      if (text) notes.set(noteKey(owner, member.name), text);
    }
  }
  return notes;
}

/**
 * The analysis of the change with the most errors that belong to it; undefined when no error touches a changed
 * dependency.
 */
export async function analyseDependencyUpdate(input: {
  diagnosis: Diagnosis;
  changes: DetectedChange[];
  localRepository: string;
  read: Read;
  branchHint?: string;
}): Promise<DependencyUpdateAnalysis | undefined> {
  let best: DependencyUpdateAnalysis | undefined;
  for (const change of input.changes) {
    const coordinates = { groupId: change.groupId, artifactId: change.artifactId };
    const newApi = await readArtifactApi(input.localRepository, { ...coordinates, version: change.to }).catch(
      () => undefined,
    );
    if (!newApi) continue;
    const oldApi = await readArtifactApi(input.localRepository, { ...coordinates, version: change.from }).catch(
      () => undefined,
    );
    const analysis: DependencyUpdateAnalysis = {
      change,
      newApi,
      ...(oldApi ? { oldApi } : {}),
      errors: [],
      tests: [],
      ...(input.branchHint ? { branchHint: input.branchHint } : {}),
    };
    for (const diagnostic of input.diagnosis.diagnostics.filter((d) => d.fixable)) {
      if (diagnostic.kind === 'test') {
        const uses = await testUsesDependency(diagnostic, input.read, [oldApi, newApi]);
        if (uses.length > 0) analysis.tests.push(testDifference(diagnostic, uses, oldApi, newApi));
        continue;
      }
      if (diagnostic.kind !== 'compile' || !diagnostic.file || !diagnostic.line) continue;
      const text = await input.read(diagnostic.file);
      if (text === undefined) continue;
      const lineText = text.split('\n')[diagnostic.line - 1] ?? '';
      const imports = scanJavaHeader(text).imports;
      const symbols = touchedSymbols(diagnostic, lineText, imports, [oldApi, newApi]).filter(
        (symbol) =>
          inJar(oldApi, symbol.owner) ||
          inJar(newApi, symbol.owner) ||
          (symbol.kind === 'class' && (oldApi?.bySimpleName.has(simpleName(symbol.owner)) ?? false)),
      );
      if (symbols.length === 0) continue;
      const notes = await notesFor(symbols, oldApi, change, input.localRepository);
      const differences = symbols.map((symbol) =>
        symbol.kind === 'method' && /does not override abstract/.test(diagnostic.message)
          ? {
              lines: typeDifference(binaryNameIn(newApi, symbol.owner) ?? symbol.owner, oldApi, newApi),
              candidates: [],
            }
          : symbolDifference(symbol, oldApi, newApi, notes),
      );
      const method = methodNameAt(text, diagnostic.line);
      const replacement = differences.find((difference) => 'replacement' in difference && difference.replacement) as
        { replacement?: Replacement } | undefined;
      analysis.errors.push({
        diagnostic,
        site: `${diagnostic.file}:${diagnostic.line}`,
        failingLine: lineText.trim(),
        ...(method ? { method } : {}),
        symbols,
        lines: [...new Set(differences.flatMap((difference) => difference.lines))],
        ...(replacement?.replacement ? { replacement: replacement.replacement } : {}),
      });
    }
    const size = analysis.errors.length + analysis.tests.length;
    if (size > 0 && (!best || size > best.errors.length + best.tests.length)) best = analysis;
  }
  return best;
}

function methodNameAt(text: string, line: number): string | undefined {
  try {
    const parsed = parseJava(text);
    if (!parsed.ok) return undefined;
    const found = methodAt(parsed.file, { line });
    return found ? methodLabel(found.method) : undefined;
  } catch {
    return undefined;
  }
}

/** The dependency's classes a failing test's code imports (the test and the project frames of its stack). */
async function testUsesDependency(diagnostic: Diagnostic, read: Read, apis: (JarApi | undefined)[]): Promise<string[]> {
  const files = [
    ...new Set(
      [diagnostic.file, ...(diagnostic.testFailure?.frames ?? []).map((frame) => frame.file)].filter(
        (file): file is string => Boolean(file),
      ),
    ),
  ];
  const used = new Set<string>();
  for (const file of files) {
    const text = await read(file);
    if (!text) continue;
    for (const entry of scanJavaHeader(text).imports) {
      if (entry.isStatic) continue;
      if (
        entry.simpleName === '*'
          ? apis.some((api) => api?.packages.has(entry.name.slice(0, -2)))
          : apis.some((api) => inJar(api, entry.name))
      )
        used.add(entry.name);
    }
  }
  // The project classes the test names (same package, main sources): a behaviour change shows through them.
  for (const file of files.filter((f) => f.includes('src/test/java/'))) {
    const text = (await read(file)) ?? '';
    const folder = path.posix.dirname(file).replace('src/test/java/', 'src/main/java/');
    for (const name of new Set([...text.matchAll(/\b([A-Z][\w$]*)\b/g)].map((m) => m[1]!))) {
      const source = await read(`${folder}/${name}.java`);
      if (!source) continue;
      for (const entry of scanJavaHeader(source).imports)
        if (!entry.isStatic && apis.some((api) => inJar(api, entry.name))) used.add(entry.name);
    }
  }
  for (const match of (diagnostic.testFailure?.stackTrace ?? '').matchAll(/at ([\w.$]+)\.[\w$<>]+\(/g)) {
    const owner = match[1]!.replace(/\$.*$/, '');
    if (apis.some((api) => inJar(api, owner))) used.add(owner);
  }
  return [...used];
}

function testDifference(
  diagnostic: Diagnostic,
  used: string[],
  oldApi: JarApi | undefined,
  newApi: JarApi,
): ErrorDifference {
  const lines: string[] = [];
  for (const name of used) {
    const binary = binaryNameIn(newApi, name);
    const changed = binary ? typeDifference(binary, oldApi, newApi) : [];
    lines.push(
      changed.length > 0 ? `${name}:` : `${name}: no change in its public API (the behaviour changed)`,
      ...changed.map((line) => `  ${line}`),
    );
  }
  return {
    diagnostic,
    site: diagnostic.test ?? `${diagnostic.file ?? ''}:${diagnostic.line ?? ''}`,
    symbols: [],
    lines,
  };
}
