/**
 * A failing test after a dependency update (a behaviour change, no compile error): which of
 * the dependency's classes the test's code uses (its imports, the project classes it names,
 * its stack), and what the model is shown for them: the change of each class's public API,
 * the Javadoc of the members the code calls where the two versions' sources jars differ, their
 * `@deprecated` text, and the new version's changelog for the versions in between.
 */
import path from 'node:path';
import type { Diagnostic } from '../../diagnose/types.js';
import { scanJavaHeader } from '../../java/index.js';
import { changelogBetween, classSource, memberNotesIn } from '../../maven/artifact-notes.js';
import { simpleName } from '../../maven/class-file.js';
import type { JarApi } from '../../maven/jar-api.js';
import { binaryNameIn } from './api-diff.js';
import type { DetectedChange } from './detect.js';
import { typeDifference } from './type-difference.js';

type Read = (file: string) => Promise<string | undefined>;

export interface TestUse {
  /** The dependency's classes the test's code uses, as imported. */
  classes: string[];
  /** The text of the files that use them (the test, its project classes). */
  texts: string[];
}

const MAX_NOTE = 240;
const quote = (text: string) => `"${text.length > MAX_NOTE ? `${text.slice(0, MAX_NOTE - 1)}…` : text}"`;

/** The dependency's classes a failing test's code imports (the test and the project frames of its stack). */
export async function testUsesDependency(
  diagnostic: Diagnostic,
  read: Read,
  apis: (JarApi | undefined)[],
): Promise<TestUse> {
  const inJar = (name: string) => apis.some((api) => binaryNameIn(api, name) !== undefined);
  const files = [
    ...new Set(
      [diagnostic.file, ...(diagnostic.testFailure?.frames ?? []).map((frame) => frame.file)].filter(
        (file): file is string => Boolean(file),
      ),
    ),
  ];
  const used = new Set<string>();
  const texts: string[] = [];
  const take = (text: string) => {
    let any = false;
    for (const entry of scanJavaHeader(text).imports) {
      if (entry.isStatic) continue;
      if (
        entry.simpleName === '*' ? apis.some((api) => api?.packages.has(entry.name.slice(0, -2))) : inJar(entry.name)
      ) {
        used.add(entry.name);
        any = true;
      }
    }
    if (any) texts.push(text);
  };
  for (const file of files) {
    const text = await read(file);
    if (text) take(text);
  }
  // The project classes the test names (same package, main sources): a behaviour change shows through them.
  for (const file of files.filter((f) => f.includes('src/test/java/'))) {
    const text = (await read(file)) ?? '';
    const folder = path.posix.dirname(file).replace('src/test/java/', 'src/main/java/');
    for (const name of new Set([...text.matchAll(/\b([A-Z][\w$]*)\b/g)].map((m) => m[1]!))) {
      const source = await read(`${folder}/${name}.java`);
      if (source) take(source);
    }
  }
  for (const match of (diagnostic.testFailure?.stackTrace ?? '').matchAll(/at ([\w.$]+)\.[\w$<>]+\(/g)) {
    const owner = match[1]!.replace(/\$.*$/, '');
    if (inJar(owner)) used.add(owner);
  }
  return { classes: [...used], texts };
}

/** Members of `binary` the texts call or read as `Simple.member` or `.member(`. */
function membersUsed(binary: string, api: JarApi, texts: string[]): string[] {
  const info = api.classes.get(binary);
  if (!info) return [];
  const simple = simpleName(binary).replace(/^.*\$/, '');
  const names = new Set(info.members.filter((m) => m.kind !== 'constructor').map((m) => m.name));
  return [...names].filter((name) =>
    texts.some((text) =>
      new RegExp(`(?:\\b${simple}\\s*\\.\\s*|\\.\\s*)${name.replace(/\$/g, '\\$')}\\s*\\(`).test(text),
    ),
  );
}

/** Javadoc and `@deprecated` lines of the members the code uses, where the two versions' sources say something new. */
async function memberNoteLines(
  binary: string,
  members: string[],
  change: DetectedChange,
  localRepository: string,
): Promise<string[]> {
  const coordinates = { groupId: change.groupId, artifactId: change.artifactId };
  const [before, after] = await Promise.all([
    classSource(localRepository, { ...coordinates, version: change.from }, binary),
    classSource(localRepository, { ...coordinates, version: change.to }, binary),
  ]);
  if (!after) return [];
  const lines: string[] = [];
  const owner = simpleName(binary);
  for (const member of members) {
    const old = before ? memberNotesIn(before, member) : {};
    const now = memberNotesIn(after, member);
    if (now.deprecated) lines.push(`! deprecated in ${change.to}: ${owner}.${member}: ${quote(now.deprecated)}`);
    else if (old.deprecated) lines.push(`! deprecated in ${change.from}: ${owner}.${member}: ${quote(old.deprecated)}`);
    if (now.javadoc && now.javadoc !== old.javadoc)
      lines.push(
        `~ doc of ${owner}.${member}: ${change.from}: ${old.javadoc ? quote(old.javadoc) : '(none)'}; ${change.to}: ${quote(now.javadoc)}`,
      );
  }
  return lines;
}

/** What the prompt and record say of one failing test: the API change, member notes, the changelog in between. */
export async function testDifference(input: {
  diagnostic: Diagnostic;
  use: TestUse;
  oldApi: JarApi | undefined;
  newApi: JarApi;
  change: DetectedChange;
  localRepository: string;
}): Promise<{ site: string; lines: string[] }> {
  const { diagnostic, use, oldApi, newApi, change } = input;
  const lines: string[] = [];
  for (const name of use.classes) {
    const binary = binaryNameIn(newApi, name);
    const changed = binary ? typeDifference(binary, oldApi, newApi) : [];
    const notes = binary
      ? await memberNoteLines(binary, membersUsed(binary, newApi, use.texts), change, input.localRepository)
      : [];
    lines.push(
      changed.length > 0 ? `${name}:` : `${name}: no change in its public API (the behaviour changed)`,
      ...changed.map((line) => `  ${line}`),
      ...notes.map((line) => `  ${line}`),
    );
  }
  const changelog = await changelogBetween(
    input.localRepository,
    { groupId: change.groupId, artifactId: change.artifactId, version: change.to },
    change.from,
  ).catch(() => undefined);
  if (changelog)
    lines.push(
      `changelog (${changelog.file} of ${change.artifactId} ${change.to}, after ${change.from}):`,
      ...changelog.lines.map((line) => `  | ${line}`),
    );
  return { site: diagnostic.test ?? `${diagnostic.file ?? ''}:${diagnostic.line ?? ''}`, lines };
}
