/**
 * One Maven run per candidate: the failing tests run first inside the verdict build. Pure.
 *
 * In the workspace copy only, the failing module's pom gets one more Surefire execution,
 * `mvnx-failing-first`, bound to `process-test-classes` (the phase just before `test`)
 * and limited to the failing tests. A candidate that leaves them failing stops the build
 * there: it cost one compile and those tests. A right one goes on to `default-test` and
 * the rest of the user's command in the same Maven process, without a second start or a
 * second compile. The plugin is declared without a version, so it is the one
 * `default-test` runs (the pom's or a parent's pluginManagement, an inherited
 * declaration, or the packaging's lifecycle), and the execution's explicit configuration
 * wins over any `-Dtest` (Surefire 2.22 to 3.x read the same parameter names). The
 * change lives between two marker comments: written again, it replaces itself; the
 * workspace's reset restores the pom before the next candidate anyway. It never enters a
 * change set: the patch is checked and recorded before, from the change set alone.
 *
 * The separate early-reject stage still pays where the verdict build runs other tests
 * before the failing module's (an upstream module the fix touches): `decideOneRun`.
 */
import type { TestCaseResult } from '../diagnose/types.js';
import { withDependencies, withDependents, type ReactorGraph } from '../maven/reactor.js';

export const FAILING_FIRST_EXECUTION = 'mvnx-failing-first';
/**
 * Where the execution writes its reports, relative to the module: beside, not among,
 * default-test's, so the verdict reads what the user's command ran apart from what ran
 * first (a test the candidate left out of the user's command must not count as run).
 */
export const FAILING_FIRST_REPORTS = `target/surefire-reports/${FAILING_FIRST_EXECUTION}`;
const OPEN_MARK = `<!-- ${FAILING_FIRST_EXECUTION}: added by mvnx in its workspace copy only -->`;
const CLOSE_MARK = `<!-- /${FAILING_FIRST_EXECUTION} -->`;

/**
 * What became of the failing-first execution in a run: it `passed` (the build went on), `stopped` the build, or was
 * `not-reached` (compile failed first, or it could not be added).
 */
export type FailingFirstOutcome = 'passed' | 'stopped' | 'not-reached';

export class PomEditError extends Error {
  override name = 'PomEditError';
}

/**
 * The pom with the failing-first execution added to its Surefire plugin in
 * `project/build/plugins` (declared there without a version when it is not).
 * Throws PomEditError when the text has no `<project>` element to put it in.
 */
export function addFailingFirstExecution(pomText: string, tests: readonly string[]): string {
  if (tests.length === 0) throw new PomEditError('the failing-first execution needs at least one test');
  const text = removeFailingFirstExecution(pomText);
  const project = parseElements(text).children.find((e) => e.name === 'project');
  if (!project || project.selfClosing) throw new PomEditError('the pom has no <project> element');
  const execution = executionXml(tests);
  const build = child(project, 'build');
  const plugins = build && child(build, 'plugins');
  const surefire = plugins?.children.find((p) => p.name === 'plugin' && isSurefire(text, p));
  const executions = surefire && child(surefire, 'executions');
  if (executions) return insertInto(text, executions, execution);
  if (surefire) return insertInto(text, surefire, `<executions>${execution}</executions>`);
  const plugin = `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><executions>${execution}</executions></plugin>`;
  if (plugins) return insertInto(text, plugins, plugin);
  if (build) return insertInto(text, build, `<plugins>${plugin}</plugins>`);
  return insertInto(text, project, `<build><plugins>${plugin}</plugins></build>`);
}

/** The pom without an earlier failing-first execution (unchanged when it has none). */
export function removeFailingFirstExecution(pomText: string): string {
  let text = pomText;
  for (;;) {
    const start = text.indexOf(OPEN_MARK);
    const end = start < 0 ? -1 : text.indexOf(CLOSE_MARK, start);
    if (end < 0) return text;
    text = text.slice(0, start) + text.slice(end + CLOSE_MARK.length);
  }
}

/** From a run's output: whether the failing-first execution ran, and whether it stopped the build. */
export function failingFirstOutcome(log: string): FailingFirstOutcome {
  const id = `(${FAILING_FIRST_EXECUTION})`;
  if (log.split('\n').some((line) => line.includes('Failed to execute goal') && line.includes(id))) return 'stopped';
  return log.includes(`:test ${id}`) ? 'passed' : 'not-reached';
}

export interface OneRunInput {
  graph?: ReactorGraph;
  /** Module folders with a failure in the diagnosis. */
  failingModules: string[];
  /** Test results of the user's failed build. */
  baselineTests: TestCaseResult[];
  /** Module folders whose tests the verdict build leaves out (taken from the user's build). */
  testsFromYourBuild: string[];
  /** The verdict build's `-pl` selection (`-am` brings what they need); absent: the whole reactor. */
  selected?: string[];
}

export type OneRunDecision = { oneRun: true } | { oneRun: false; why: string };

/**
 * Whether the failing tests can run first inside the verdict build. Not when another
 * module may run its tests before the failing module's: one the failing module does not
 * precede (it is no dependent of it), that the verdict build selects, whose tests run
 * there and which ran tests in the user's build (so it was built before the failing
 * module in that build, and will be in this one). Then a wrong candidate would pay for
 * those tests too, and the separate early-reject stage pays for itself.
 */
export function decideOneRun(input: OneRunInput): OneRunDecision {
  const graph = input.graph;
  if (!graph || graph.projects.length === 0) return { oneRun: false, why: 'the reactor is unknown' };
  if (graph.problems.length > 0) return { oneRun: false, why: 'the reactor could not be read completely' };
  if (input.failingModules.length === 0) return { oneRun: false, why: 'no failing module is known' };
  const known = new Set(graph.projects.map((p) => p.dir));
  const unknown = input.failingModules.find((dir) => !known.has(dir));
  if (unknown !== undefined)
    return { oneRun: false, why: `the failing module ${unknown || '.'} is not in the reactor` };

  const after = withDependents(graph, input.failingModules);
  const built = input.selected ? new Set(input.selected.flatMap((dir) => [...withDependencies(graph, dir)])) : known;
  const skipped = new Set(input.testsFromYourBuild);
  for (const project of graph.projects) {
    if (after.has(project.dir) || !built.has(project.dir) || skipped.has(project.dir)) continue;
    const ran = input.baselineTests.filter(
      (test) => test.module === project.artifactId && test.status !== 'skipped',
    ).length;
    if (ran > 0)
      return {
        oneRun: false,
        why: `module ${project.artifactId} runs ${ran} test${ran === 1 ? '' : 's'} before the failing module`,
      };
  }
  return { oneRun: true };
}

function executionXml(tests: readonly string[]): string {
  // Explicit values: the plugin's own configuration (or a -D of the user) must not skip,
  // ignore or fail on what this execution selects.
  return [
    `<execution><id>${FAILING_FIRST_EXECUTION}</id><phase>process-test-classes</phase><goals><goal>test</goal></goals>`,
    `<configuration><test>${escapeXml([...new Set(tests)].join(','))}</test><failIfNoSpecifiedTests>false</failIfNoSpecifiedTests>`,
    `<reportsDirectory>\${project.build.directory}/surefire-reports/${FAILING_FIRST_EXECUTION}</reportsDirectory>`,
    '<testFailureIgnore>false</testFailureIgnore></configuration></execution>',
  ].join('');
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * `content`, between the markers, placed just before the element's end tag (a self-closing element is opened up,
 * outside the markers).
 */
function insertInto(text: string, element: XmlElement, content: string): string {
  const marked = `${OPEN_MARK}${content}${CLOSE_MARK}`;
  if (element.selfClosing) {
    const open = text.slice(element.start, element.openEnd).replace(/\s*\/>$/, '>');
    return `${text.slice(0, element.start)}${open}${marked}</${element.qname}>${text.slice(element.openEnd)}`;
  }
  return `${text.slice(0, element.closeStart)}${marked}${text.slice(element.closeStart)}`;
}

function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((e) => e.name === name);
}

function isSurefire(text: string, plugin: XmlElement): boolean {
  const value = (name: string) => {
    const e = child(plugin, name);
    return e && !e.selfClosing ? text.slice(e.openEnd, e.closeStart).trim() : undefined;
  };
  const groupId = value('groupId');
  return (
    value('artifactId') === 'maven-surefire-plugin' && (groupId === undefined || groupId === 'org.apache.maven.plugins')
  );
}

interface XmlElement {
  /** Local name (a namespace prefix dropped); `qname` as written. */
  name: string;
  qname: string;
  start: number;
  /** Just after the start tag's `>`. */
  openEnd: number;
  /** Where the end tag starts (openEnd for a self-closing element). */
  closeStart: number;
  selfClosing: boolean;
  children: XmlElement[];
}

/**
 * The element tree with positions in the text: comments, CDATA, processing instructions
 * and the DOCTYPE are skipped; attributes may hold `>` inside quotes. Tolerant: an
 * unbalanced end tag closes up to its match, or is ignored.
 */
function parseElements(text: string): XmlElement {
  const root: XmlElement = {
    name: '',
    qname: '',
    start: 0,
    openEnd: 0,
    closeStart: text.length,
    selfClosing: false,
    children: [],
  };
  const stack: XmlElement[] = [root];
  let i = 0;
  while ((i = text.indexOf('<', i)) >= 0) {
    const skipTo = (end: string) => {
      const at = text.indexOf(end, i);
      return at < 0 ? text.length : at + end.length;
    };
    if (text.startsWith('<!--', i)) i = skipTo('-->');
    else if (text.startsWith('<![CDATA[', i)) i = skipTo(']]>');
    else if (text.startsWith('<?', i)) i = skipTo('?>');
    else if (text.startsWith('<!', i)) i = skipDoctype(text, i);
    else if (text.startsWith('</', i)) {
      const end = skipTo('>');
      const qname = text.slice(i + 2, end - 1).trim();
      const at = stack.map((e) => e.qname).lastIndexOf(qname);
      if (at > 0) {
        stack[at]!.closeStart = i;
        stack.length = at;
      }
      i = end;
    } else {
      const end = tagEnd(text, i);
      const qname = /^<([^\s/>]+)/.exec(text.slice(i, end))?.[1] ?? '';
      const selfClosing = text[end - 2] === '/';
      const element: XmlElement = {
        name: qname.replace(/^.*:/, ''),
        qname,
        start: i,
        openEnd: end,
        closeStart: end,
        selfClosing,
        children: [],
      };
      stack[stack.length - 1]!.children.push(element);
      if (!selfClosing) stack.push(element);
      i = end;
    }
  }
  return root;
}

function tagEnd(text: string, from: number): number {
  let quote: string | undefined;
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i + 1;
  }
  return text.length;
}

function skipDoctype(text: string, from: number): number {
  let depth = 0;
  for (let i = from + 2; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']') depth--;
    else if (text[i] === '>' && depth <= 0) return i + 1;
  }
  return text.length;
}
