/**
 * The second way a module's `target/` is taken (reuse-outputs.ts): as the user's build left
 * it. A build without `clean` compiles only the Java sources that changed (jsoup says so
 * itself: `useIncrementalCompilation=false`), so the other classes, the jar and the status
 * lists keep older times and fail the "every output newer than every input" rule, although
 * they are exactly what the user's build ran its tests on, and what their next `mvn` would
 * use. They are taken when the outputs can only differ from a fresh build's the way Maven's
 * own incremental build does:
 *
 * - the user's build started after every input of the module last changed (it saw this tree);
 * - since the oldest output was written, only Java sources under `src/main/java` or
 *   `src/test/java` changed: no pom, `.mvn/`, resource, other file, nor any module it needs;
 * - each of those sources has its class, written after the source (the user's build compiled it);
 * - what is older than the newest of those sources is a class, a resource copy or Maven's
 *   status under `classes/`, `test-classes/`, `maven-status/`, `maven-archiver/`; an
 *   archive at the top of `target/` is left out (the build packages again); anything
 *   else (generated sources, javadoc...) means doubt, and nothing is taken.
 *
 * Classes that use a changed class without being compiled again stay as the user's build had
 * them, with its baseline results: the verdict build is then the user's command again in the
 * same state, and the fix's own changes are recompiled with their dependents by narrow.ts.
 */

export interface OutputFile {
  /** Relative to `target/`, forward slashes. */
  rel: string;
  mtimeMs: number;
}

export interface AsLeftInput {
  /** Every file under the module's `target/` (reports excluded). */
  outputs: readonly OutputFile[];
  /** The module's Java sources with their times; `rel` relative to the module folder. */
  javaSources: readonly OutputFile[];
  /**
   * The newest time of every other input: the module's other files, poms above it, `.mvn/`, and every input of the
   * modules it needs.
   */
  newestOtherInputMs: number;
  /** When the user's build started. */
  builtAtMs: number;
}

export type AsLeft = { leaveOut: string[]; changedSources: string[] } | { reason: string };

const SOURCE_ROOTS: [string, string][] = [
  ['src/main/java/', 'classes/'],
  ['src/test/java/', 'test-classes/'],
];
const KEPT_AS_LEFT = ['classes/', 'test-classes/', 'maven-status/', 'maven-archiver/'];
const ARCHIVE = /^[^/]+\.(jar|war|ear|zip)$/;

/** Pure: whether the outputs may be taken as the user's build left them, and which files to leave out. */
export function takeAsLeft(input: AsLeftInput): AsLeft {
  if (input.outputs.length === 0) return { reason: 'target is empty' };
  const newestSource = Math.max(0, ...input.javaSources.map((s) => s.mtimeMs));
  if (Math.max(newestSource, input.newestOtherInputMs) >= input.builtAtMs)
    return { reason: 'a file changed after your build started' };
  const since = Math.min(...input.outputs.map((f) => f.mtimeMs));
  if (input.newestOtherInputMs >= since)
    return { reason: 'files other than Java sources changed since the outputs were written' };

  const byRel = new Map(input.outputs.map((f) => [f.rel, f.mtimeMs]));
  const changed = input.javaSources.filter((s) => s.mtimeMs >= since);
  for (const source of changed) {
    const root = SOURCE_ROOTS.find(([from]) => source.rel.startsWith(from));
    if (!root) return { reason: `${source.rel} changed and is outside src/main/java and src/test/java` };
    const classRel = root[1] + source.rel.slice(root[0].length).replace(/\.java$/, '.class');
    const classMs = byRel.get(classRel);
    if (classMs === undefined || classMs <= source.mtimeMs)
      return { reason: `${source.rel} changed after target/${classRel} was written` };
  }
  const newestChange = Math.max(0, ...changed.map((s) => s.mtimeMs));
  const leaveOut: string[] = [];
  for (const file of input.outputs) {
    if (file.mtimeMs > newestChange || KEPT_AS_LEFT.some((dir) => file.rel.startsWith(dir))) continue;
    if (!ARCHIVE.test(file.rel))
      return { reason: `target/${file.rel} was written before the sources changed and is not a class or a resource` };
    leaveOut.push(file.rel);
  }
  return { leaveOut, changedSources: changed.map((s) => s.rel) };
}
