/**
 * Where a name from code-names.ts is in the project: files by path or any ending of one,
 * types by simple, qualified or nested name, members (methods, constructors, fields) by
 * name within those types or in every type. Main and test sources of every module are
 * searched alike. Types are found from each file's header, read lexically (a few
 * microseconds a file, kept per text); only the files that can hold the answer are parsed,
 * through the view's shared parse (src/java viewJavaFile).
 */
import {
  allTypes,
  declarationLine,
  fieldsOf,
  scanJavaHeader,
  viewJavaFile,
  type JavaHeader,
  type JavaSourceFile,
  type JavaType,
} from '../../java/index.js';
import type { SourceView } from '../../plugins/contracts.js';
import { nearestFiles, nearestNames, type JavaReading } from './code-names.js';

export interface CodeSite {
  file: string;
  /** `class`, `interface`, `enum`, `record`, `annotation`, `method`, `constructor`, `field`, or `file`. */
  kind: string;
  /** Qualified name of the type, or of the type declaring the member. */
  type?: string;
  member?: string;
  /** Line of the declaration (after its annotations). */
  line: number;
  /** Lines of the whole declaration (of every overload, for a method). */
  startLine: number;
  endLine: number;
  overloads?: number;
}

/** What a designation found: the sites (one is the answer, several are candidates), or the nearest names. */
export type CodeLookup = { sites: CodeSite[] } | { missing: string; nearest: string[] };

export interface Designation {
  /** A path as written (cleaned), or undefined for a Java name. */
  path?: string;
  /** A member inside the file of `path`. */
  member?: string;
  readings: JavaReading[];
}

/** Files parsed in one member search at most: the parser takes milliseconds a file. */
const MAX_PARSED_FILES = 200;

export async function lookUpCode(view: SourceView, designation: Designation): Promise<CodeLookup> {
  if (designation.path !== undefined) {
    const files = await filesNamed(view, designation.path);
    if (files.length === 0)
      return {
        missing: `no file ${designation.path} in the project`,
        nearest: await nearestFilesTo(view, designation.path),
      };
    if (!designation.member) return { sites: files.map(fileSite) };
    const members = await membersNamed(view, designation.member, files);
    if (members.length > 0) return { sites: members };
    const elsewhere = await membersNamed(view, designation.member);
    if (elsewhere.length > 0) return { sites: elsewhere };
    return {
      missing: `no member ${designation.member} in ${files.join(', ')}`,
      nearest: nearestNames(designation.member, await declaredNames(view, files)),
    };
  }
  let missing: CodeLookup | undefined;
  for (const reading of designation.readings) {
    const types = reading.type ? await typesNamed(view, reading.type) : undefined;
    if (types && types.length === 0) {
      missing ??= {
        missing: `no class, interface, enum or record named ${reading.type} in the project`,
        nearest: await nearestTypes(view, reading.type!),
      };
      continue;
    }
    if (!reading.member) return { sites: types! };
    const members = await membersNamed(view, reading.member, types);
    if (members.length > 0) return { sites: members };
    if (!types) {
      missing ??= {
        missing: `no method, constructor or field named ${reading.member} in the project`,
        nearest: await nearestMembers(view, reading.member),
      };
      continue;
    }
    // Declared in a supertype, or the model took the test class for the class under test.
    const elsewhere = await membersNamed(view, reading.member);
    if (elsewhere.length > 0) return { sites: elsewhere };
    const files = [...new Set(types.map((type) => type.file))];
    missing ??= {
      missing: `${reading.type} has no method, constructor or field named ${reading.member}`,
      nearest: nearestNames(reading.member, await declaredNames(view, files, types)),
    };
  }
  return missing ?? { missing: 'no name to look up', nearest: [] };
}

/** The project files a path means: as given, inside the project root, or by its longest ending that names a file. */
export async function filesNamed(view: SourceView, given: string): Promise<string[]> {
  const parts = given.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..')) return [];
  const all = await view.list('**/*');
  const known = new Set(all);
  const root = view.root.replace(/\\/g, '/').replace(/\/+$/, '');
  if (given.startsWith(`${root}/`) && known.has(given.slice(root.length + 1))) return [given.slice(root.length + 1)];
  for (let skip = 0; skip < parts.length; skip++) {
    const ending = parts.slice(skip).join('/');
    if (known.has(ending)) return [ending];
    const matches = all.filter((file) => file.endsWith(`/${ending}`));
    if (matches.length > 0) return matches;
  }
  return [];
}

function fileSite(file: string): CodeSite {
  return { file, kind: 'file', line: 1, startLine: 1, endLine: 1 };
}

interface HeaderEntry {
  file: string;
  text: string;
  header: JavaHeader;
}

/** Per view (one agent session's): path -> the text last read and its lexical header. */
const headers = new WeakMap<SourceView, Map<string, HeaderEntry>>();

async function javaHeaders(view: SourceView): Promise<HeaderEntry[]> {
  let known = headers.get(view);
  if (!known) headers.set(view, (known = new Map<string, HeaderEntry>()));
  const entries: HeaderEntry[] = [];
  for (const file of await view.list('**/*.java')) {
    const text = await view.read(file);
    if (text === undefined) continue;
    let entry = known.get(file);
    if (entry?.text !== text) known.set(file, (entry = { file, text, header: scanJavaHeader(text) }));
    entries.push(entry);
  }
  return entries;
}

const qualified = (type: JavaType) => type.binaryName.replace(/\$/g, '.');

/**
 * Types named `name`: simple (`OrderService`), qualified (`com.acme.OrderService`), partly qualified or nested
 * (`Outer.Inner`).
 */
export async function typesNamed(view: SourceView, name: string): Promise<CodeSite[]> {
  const wanted = name.replace(/\$/g, '.');
  const simple = wanted.slice(wanted.lastIndexOf('.') + 1);
  const entries = await javaHeaders(view);
  const fits = (full: string) => full === wanted || full.endsWith(`.${wanted}`);
  // A top-level type is in its file's header; a nested one only in files whose text declares the simple name.
  const declares = new RegExp(String.raw`\b(?:class|interface|enum|record)\s+${escapeRegExp(simple)}\b`);
  const files = entries.filter((entry) => entry.header.topLevelTypes.includes(simple) || declares.test(entry.text));
  const sites: CodeSite[] = [];
  for (const entry of files) {
    const java = await parsed(view, entry.file);
    if (!java) {
      const full = entry.header.packageName ? `${entry.header.packageName}.${simple}` : simple;
      if (entry.header.topLevelTypes.includes(simple) && fits(full))
        sites.push({
          file: entry.file,
          kind: 'type',
          type: full,
          line: 1,
          startLine: 1,
          endLine: entry.text.split('\n').length,
        });
      continue;
    }
    for (const type of allTypes(java).filter((candidate) => candidate.name === simple && fits(qualified(candidate)))) {
      sites.push({
        file: entry.file,
        kind: type.kind,
        type: qualified(type),
        line: declarationLine(type),
        startLine: type.range.startLine,
        endLine: type.range.endLine,
      });
    }
  }
  return sites;
}

/** Methods, constructors and fields named `member`, in the types given (or every type); overloads are one site. */
export async function membersNamed(
  view: SourceView,
  member: string,
  within?: readonly (CodeSite | string)[],
): Promise<CodeSite[]> {
  const scope = within?.map((entry) => (typeof entry === 'string' ? { file: entry } : entry));
  let files: string[];
  if (scope) files = [...new Set(scope.map((entry) => entry.file))];
  else {
    const word = new RegExp(String.raw`\b${escapeRegExp(member)}\b`);
    files = (await javaHeaders(view))
      .filter((entry) => word.test(entry.text))
      .map((entry) => entry.file)
      .slice(0, MAX_PARSED_FILES);
  }
  const sites: CodeSite[] = [];
  for (const file of files) {
    const java = await parsed(view, file);
    if (!java) continue;
    const types = scope?.some((entry) => entry.file === file && 'type' in entry && entry.type)
      ? allTypes(java).filter((type) =>
          scope.some((entry) => entry.file === file && 'type' in entry && entry.type === qualified(type)),
        )
      : allTypes(java);
    for (const type of types) {
      const methods = type.methods.filter(
        (method) => method.name === member || (member === '<init>' && method.kind === 'constructor'),
      );
      if (methods.length > 0) {
        sites.push({
          file,
          kind: methods[0]!.kind,
          type: qualified(type),
          member: methods[0]!.name,
          line: declarationLine(methods[0]!),
          startLine: Math.min(...methods.map((method) => method.range.startLine)),
          endLine: Math.max(...methods.map((method) => method.range.endLine)),
          ...(methods.length > 1 ? { overloads: methods.length } : {}),
        });
        continue;
      }
      const field = fieldsOf(type).find((candidate) => candidate.name === member);
      if (field)
        sites.push({
          file,
          kind: 'field',
          type: qualified(type),
          member,
          line: field.range.startLine,
          startLine: field.range.startLine,
          endLine: field.range.endLine,
        });
    }
  }
  return sites;
}

async function parsed(view: SourceView, file: string): Promise<JavaSourceFile | undefined> {
  const viewed = await viewJavaFile(view, file);
  return viewed?.parsed.ok ? viewed.parsed.file : undefined;
}

/** Names the files (or the given types of them) declare: methods, constructors, fields and member types. */
async function declaredNames(
  view: SourceView,
  files: readonly string[],
  types?: readonly CodeSite[],
): Promise<string[]> {
  const names: string[] = [];
  for (const file of files) {
    const java = await parsed(view, file);
    for (const type of java ? allTypes(java) : []) {
      if (
        types &&
        !types.some(
          (site) =>
            site.file === file &&
            site.type !== undefined &&
            (qualified(type) === site.type || qualified(type).startsWith(`${site.type}.`)),
        )
      )
        continue;
      names.push(
        ...type.methods.map((method) => method.name),
        ...fieldsOf(type).map((field) => field.name),
        ...type.types.map((nested) => nested.name),
      );
    }
  }
  return names;
}

async function nearestTypes(view: SourceView, name: string): Promise<string[]> {
  const simple = name.slice(name.replace(/\$/g, '.').lastIndexOf('.') + 1);
  const byName = new Map<string, string>();
  for (const entry of await javaHeaders(view)) {
    for (const type of entry.header.topLevelTypes) if (!byName.has(type)) byName.set(type, `${type} (${entry.file})`);
  }
  return nearestNames(simple, byName.keys()).map((type) => byName.get(type)!);
}

const DECLARATION = /\b([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*(?:throws\s+[\w$.,\s]+)?\{/g;
const NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'synchronized', 'try', 'return', 'new', 'else']);

/** Declared method names near `member`, with a file of each: read lexically, since any file may hold one. */
async function nearestMembers(view: SourceView, member: string): Promise<string[]> {
  const byName = new Map<string, string>();
  for (const entry of await javaHeaders(view)) {
    for (const match of entry.text.matchAll(DECLARATION)) {
      const name = match[1]!;
      if (!NOT_METHODS.has(name) && !byName.has(name)) byName.set(name, `${name} (${entry.file})`);
    }
  }
  return nearestNames(member, byName.keys()).map((name) => byName.get(name)!);
}

async function nearestFilesTo(view: SourceView, given: string): Promise<string[]> {
  return nearestFiles(given.slice(given.lastIndexOf('/') + 1), await view.list('**/*'));
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether the file is in a test source root (`src/test/`), which extract_test_code prefers. */
export function isTestFile(file: string): boolean {
  return /(?:^|\/)src\/test\//.test(file);
}

/**
 * `orders/src/main/java/com/acme/orders/OrderService.java:14 (method com.acme.orders.OrderService.total, 2 overloads)`.
 */
export function describeSite(site: CodeSite): string {
  if (site.kind === 'file') return site.file;
  const what = site.member ? `${site.type}.${site.member}` : site.type;
  return `${site.file}:${site.line} (${site.kind} ${what}${site.overloads ? `, ${site.overloads} overloads` : ''})`;
}
