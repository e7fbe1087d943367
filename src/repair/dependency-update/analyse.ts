/**
 * A failed build read as a dependency update: for each dependency whose version changed
 * (detect.ts), the errors that touch its classes, and for each error the failing line,
 * its method and the API difference of the symbols it names (api-diff.ts) — what the
 * run record's `dependencyUpdate`, the prompt and the quick-fix use. A test failure whose
 * code uses the changed dependency counts too (a behaviour change has no API difference
 * to show, but the prompt names the update).
 */
import type { Diagnostic, Diagnosis } from '../../diagnose/types.js';
import { methodAt, parseJava, scanJavaHeader, type JavaImport } from '../../java/index.js';
import { deprecatedText, readArtifactApi, type JarApi } from '../../maven/jar-api.js';
import { testDifference, testUsesDependency, type TestUse } from './behaviour-change.js';
import { touchedSymbols } from './touched-symbols.js';

export { touchedSymbols } from './touched-symbols.js';
import { simpleName } from '../../maven/class-file.js';
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
  /** The update whose API the error uses (several bumps in one change: each error its own). */
  change?: DetectedChange;
}

export interface DependencyUpdateAnalysis {
  change: DetectedChange;
  oldApi?: JarApi;
  newApi: JarApi;
  errors: ErrorDifference[];
  /** Test failures whose code uses the dependency (a behaviour change). */
  tests: ErrorDifference[];
  branchHint?: string;
  /** Every update that broke a place, the lead (`change`) first; absent in analyses built by hand. */
  updates?: UpdateApis[];
  /** Every changed dependency whose jar is local: what a later module's errors are read against. */
  everyUpdate?: UpdateApis[];
}

type Read = (file: string) => Promise<string | undefined>;

function inJar(api: JarApi | undefined, name: string): boolean {
  return binaryNameIn(api, name) !== undefined;
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

/** One changed dependency with both jars' APIs (the old one when it is local). */
export interface UpdateApis {
  change: DetectedChange;
  oldApi?: JarApi;
  newApi: JarApi;
}

/** The changed dependencies whose new jar is local, each with its APIs. */
export async function updateApis(changes: DetectedChange[], localRepository: string): Promise<UpdateApis[]> {
  const out: UpdateApis[] = [];
  for (const change of changes) {
    const coordinates = { groupId: change.groupId, artifactId: change.artifactId };
    const newApi = await readArtifactApi(localRepository, { ...coordinates, version: change.to }).catch(
      () => undefined,
    );
    if (!newApi) continue;
    const oldApi = await readArtifactApi(localRepository, { ...coordinates, version: change.from }).catch(
      () => undefined,
    );
    out.push({ change, newApi, ...(oldApi ? { oldApi } : {}) });
  }
  return out;
}

/** The symbols of a compile error that belong to one update's jars. */
function symbolsOf(update: UpdateApis, diagnostic: Diagnostic, lineText: string, imports: readonly JavaImport[]) {
  const { oldApi, newApi } = update;
  return touchedSymbols(diagnostic, lineText, imports, [oldApi, newApi]).filter(
    (symbol) =>
      inJar(oldApi, symbol.owner) ||
      inJar(newApi, symbol.owner) ||
      (symbol.kind === 'class' && (oldApi?.bySimpleName.has(simpleName(symbol.owner)) ?? false)),
  );
}

/**
 * One compile error read against the updates: it belongs to the update whose jars hold the symbols it names (the one
 * whose old jar has them first: the code was written against it), with that update's API difference.
 */
export async function compileErrorDifference(
  diagnostic: Diagnostic,
  updates: UpdateApis[],
  read: Read,
  localRepository: string,
): Promise<ErrorDifference | undefined> {
  if (diagnostic.kind !== 'compile' || !diagnostic.file || !diagnostic.line) return undefined;
  const text = await read(diagnostic.file);
  if (text === undefined) return undefined;
  const lineText = text.split('\n')[diagnostic.line - 1] ?? '';
  const imports = scanJavaHeader(text).imports;
  const matches = updates
    .map((update) => ({ update, symbols: symbolsOf(update, diagnostic, lineText, imports) }))
    .filter((match) => match.symbols.length > 0);
  const chosen =
    matches.find((match) => match.symbols.some((symbol) => inJar(match.update.oldApi, symbol.owner))) ?? matches[0];
  if (!chosen) return undefined;
  const { update, symbols } = chosen;
  const { oldApi, newApi, change } = update;
  const notes = await notesFor(symbols, oldApi, change, localRepository);
  const differences = symbols.map((symbol) =>
    symbol.kind === 'method' && /does not override abstract/.test(diagnostic.message)
      ? { lines: typeDifference(binaryNameIn(newApi, symbol.owner) ?? symbol.owner, oldApi, newApi), candidates: [] }
      : symbolDifference(symbol, oldApi, newApi, notes),
  );
  const method = methodNameAt(text, diagnostic.line);
  const replacement = differences.find((difference) => 'replacement' in difference && difference.replacement) as
    { replacement?: Replacement } | undefined;
  return {
    diagnostic,
    change,
    site: `${diagnostic.file}:${diagnostic.line}`,
    failingLine: lineText.trim(),
    ...(method ? { method } : {}),
    symbols,
    lines: [...new Set(differences.flatMap((difference) => difference.lines))],
    ...(replacement?.replacement ? { replacement: replacement.replacement } : {}),
  };
}

/** A failing test read against the updates: the one whose classes its code uses most, with that update's notes. */
async function testErrorDifference(
  diagnostic: Diagnostic,
  updates: UpdateApis[],
  read: Read,
  localRepository: string,
): Promise<ErrorDifference | undefined> {
  let best: { update: UpdateApis; use: TestUse } | undefined;
  for (const update of updates) {
    const use = await testUsesDependency(diagnostic, read, [update.oldApi, update.newApi]);
    if (use.classes.length > (best?.use.classes.length ?? 0)) best = { update, use };
  }
  if (!best) return undefined;
  const { site, lines } = await testDifference({
    diagnostic,
    use: best.use,
    oldApi: best.update.oldApi,
    newApi: best.update.newApi,
    change: best.update.change,
    localRepository,
  });
  return { diagnostic, change: best.update.change, site, symbols: [], lines };
}

/** Same coordinates: the update an error was attributed to. */
export const sameChange = (a: DetectedChange, b: DetectedChange) =>
  a.groupId === b.groupId && a.artifactId === b.artifactId;

/** The updates some error uses, most errors first (the lead, when given, stays first). */
export function brokenUpdates(
  analysis: Pick<DependencyUpdateAnalysis, 'errors' | 'tests'>,
  updates: UpdateApis[],
  lead?: DetectedChange,
): UpdateApis[] {
  const count = (update: UpdateApis) =>
    [...analysis.errors, ...analysis.tests].filter((error) => error.change && sameChange(error.change, update.change))
      .length;
  const rank = (update: UpdateApis) => (lead && sameChange(lead, update.change) ? Infinity : count(update));
  return updates.filter((update) => count(update) > 0).sort((a, b) => rank(b) - rank(a));
}

/**
 * The analysis of a failure against every changed dependency: each error (and failing test) attributed to the update
 * whose API it uses; the update with the most errors leads (`change`). Undefined when no error touches one.
 */
export async function analyseDependencyUpdate(input: {
  diagnosis: Diagnosis;
  changes: DetectedChange[];
  localRepository: string;
  read: Read;
  branchHint?: string;
}): Promise<DependencyUpdateAnalysis | undefined> {
  const updates = await updateApis(input.changes, input.localRepository);
  if (updates.length === 0) return undefined;
  const errors: ErrorDifference[] = [];
  const tests: ErrorDifference[] = [];
  for (const diagnostic of input.diagnosis.diagnostics.filter((d) => d.fixable)) {
    if (diagnostic.kind === 'test') {
      const found = await testErrorDifference(diagnostic, updates, input.read, input.localRepository);
      if (found) tests.push(found);
      continue;
    }
    const found = await compileErrorDifference(diagnostic, updates, input.read, input.localRepository);
    if (found) errors.push(found);
  }
  const broken = brokenUpdates({ errors, tests }, updates);
  const lead = broken[0];
  if (!lead) return undefined;
  return {
    everyUpdate: updates,
    change: lead.change,
    newApi: lead.newApi,
    ...(lead.oldApi ? { oldApi: lead.oldApi } : {}),
    errors,
    tests,
    updates: broken,
    ...(input.branchHint ? { branchHint: input.branchHint } : {}),
  };
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
