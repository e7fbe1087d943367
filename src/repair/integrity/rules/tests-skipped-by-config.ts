/**
 * The configuration side of test integrity: a patch must not make Maven or JUnit skip,
 * exclude or ignore tests. Poms are parsed (fast-xml-parser) and compared as sets of
 * `path = value` settings, so formatting, comments and order do not matter.
 */
import { XMLParser } from 'fast-xml-parser';
import type { FileChange } from '../../../patch/types.js';
import type { IntegrityFinding, IntegrityRule } from '../types.js';

/** User properties (pom `<properties>`, `-D` in .mvn/maven.config) that skip, select or ignore tests. */
const TEST_PROPERTIES =
  /^(skipTests|skipITs|maven\.test\.skip(\.exec)?|maven\.test\.failure\.ignore|test|it\.test|groups|excludedGroups|(surefire|failsafe)\.[\w.]+|junit\.(jupiter|platform)\.[\w.]+)$/;
/** Surefire and Failsafe parameters that skip, select or ignore tests. */
const PLUGIN_PARAMETERS = new Set([
  'skip',
  'skipTests',
  'skipExec',
  'skipITs',
  'testFailureIgnore',
  'test',
  'excludes',
  'exclude',
  'includes',
  'include',
  'excludedGroups',
  'groups',
  'excludesFile',
  'includesFile',
  'skipAfterFailureCount',
  'excludeJUnit5Engines',
  'includeJUnit5Engines',
]);
/** JUnit Platform settings that turn conditions off, filter what runs or load extensions that may. */
const JUNIT_SETTING =
  /^junit\.(jupiter|platform)\.[\w.]*(deactivate|exclude|include|filter|tags?|autodetection|conditions)[\w.]*$/i;
const FALSE_LIKE = /^(false|no|off)$/i;

export const testsSkippedByConfig = {
  id: 'tests-skipped-by-config',
  description: 'no build file, .mvn/maven.config or JUnit Platform setting skips, excludes or ignores tests',
  check: (input) => buildConfigFindings(input.changes),
} as const satisfies IntegrityRule;

export function buildConfigFindings(changes: readonly FileChange[]): IntegrityFinding[] {
  const findings: IntegrityFinding[] = [];
  for (const change of changes) {
    if (change.binary) continue;
    const file = change.path;
    const name = file.split('/').pop() ?? '';
    const before = change.before ?? '';
    const after = change.after ?? '';
    const push = (message: string) =>
      findings.push({ rule: 'tests-skipped-by-config', file, message: `${file}: ${message}`, failingTestEdit: false });
    if (name === 'pom.xml') pomFindings(before, after).forEach(push);
    else if (/(^|\/)\.mvn\/(maven|jvm)\.config$/.test(file)) mavenConfigFindings(before, after).forEach(push);
    else if (name === 'junit-platform.properties') propertiesFindings(before, after).forEach(push);
    else if (/(^|\/)META-INF\/services\/org\.junit\./.test(file) && after !== before && change.after !== null)
      push('registers a JUnit service that can filter or skip tests');
  }
  return findings;
}

function pomFindings(before: string, after: string): string[] {
  const old = xmlSettings(before);
  const now = xmlSettings(after);
  if (!now) return [];
  const problems: string[] = [];
  for (const setting of added(old ?? [], now)) {
    const segments = setting.path.split('/');
    const leaf = segments.at(-1)!;
    const property = segments.at(-2) === 'properties' ? leaf : undefined;
    const plugin = segments.find((segment) => /^plugin\[.*(surefire|failsafe).*\]$/.test(segment));
    const parameter = plugin ? segments[segments.indexOf('configuration') + 1] : undefined;
    const shown = `<${leaf}>${setting.value}</${leaf}>`;
    if (property && TEST_PROPERTIES.test(property) && !FALSE_LIKE.test(setting.value)) {
      problems.push(`sets the property ${shown}, which skips, selects or ignores tests`);
    } else if (
      plugin &&
      parameter &&
      segments.includes('configuration') &&
      PLUGIN_PARAMETERS.has(parameter) &&
      !FALSE_LIKE.test(setting.value)
    ) {
      problems.push(
        `adds ${shown} to ${plugin.slice('plugin['.length, -1)}'s configuration, which ${parameter === 'testFailureIgnore' ? 'lets failing tests pass the build' : 'skips or excludes tests'}`,
      );
    } else if (
      JUNIT_SETTING.test(leaf) ||
      /junit\.(jupiter|platform)\.[\w.]*(deactivate|exclude|filter)/.test(setting.value)
    ) {
      problems.push(`sets ${shown}, a JUnit setting that changes which tests run`);
    }
  }
  for (const setting of added(now, old ?? [])) {
    if (/(^|\/)modules\/module$/.test(setting.path))
      problems.push(`removes the module ${setting.value} from the build, so its tests would not run`);
  }
  return problems;
}

interface Setting {
  path: string;
  value: string;
}

const xml = new XMLParser({ preserveOrder: true, ignoreAttributes: true, parseTagValue: false, trimValues: true });

/** Every leaf element as `project/build/plugins/plugin[maven-surefire-plugin]/configuration/skipTests = true`. */
function xmlSettings(text: string): Setting[] | undefined {
  if (text.trim() === '') return [];
  let nodes: unknown;
  try {
    nodes = xml.parse(text);
  } catch {
    return undefined;
  }
  const out: Setting[] = [];
  const visit = (list: unknown, prefix: string) => {
    if (!Array.isArray(list)) return;
    for (const node of list as Record<string, unknown>[]) {
      for (const [tag, children] of Object.entries(node)) {
        if (tag === '#text' || tag === ':@' || tag.startsWith('?')) continue;
        const kids = Array.isArray(children) ? (children as Record<string, unknown>[]) : [];
        const path = `${prefix}${prefix ? '/' : ''}${segmentName(tag, kids)}`;
        const elements = kids.filter((kid) => !('#text' in kid));
        if (elements.length === 0)
          out.push({
            path,
            value: kids
              .map((kid) => xmlText(kid['#text']))
              .join('')
              .trim(),
          });
        else visit(kids, path);
      }
    }
  };
  visit(nodes, '');
  return out;
}

/** fast-xml-parser gives strings, numbers and booleans for text; anything else is no text. */
function xmlText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** Plugins, executions and profiles are told apart by their ids. */
function segmentName(tag: string, kids: Record<string, unknown>[]): string {
  const key = { plugin: 'artifactId', execution: 'id', profile: 'id' }[tag];
  if (!key) return tag;
  const holder = kids.find((kid) => key in kid)?.[key];
  const text = Array.isArray(holder) ? xmlText((holder[0] as Record<string, unknown> | undefined)?.['#text']) : '';
  return `${tag}[${text}]`;
}

/** Settings of `after` that `before` does not have (as many times). */
function added(before: Setting[], after: Setting[]): Setting[] {
  const remaining = new Map<string, number>();
  for (const setting of before)
    remaining.set(`${setting.path}=${setting.value}`, (remaining.get(`${setting.path}=${setting.value}`) ?? 0) + 1);
  return after.filter((setting) => {
    const key = `${setting.path}=${setting.value}`;
    const left = remaining.get(key) ?? 0;
    if (left > 0) remaining.set(key, left - 1);
    return left === 0;
  });
}

/** `.mvn/maven.config` and `.mvn/jvm.config`: options, one or more per line. */
function mavenConfigFindings(before: string, after: string): string[] {
  // `-Dx`, `-D x`, `--define x` and `--define=x` all set the property x (maven/settings.ts reads them the same way).
  const tokens = (text: string) =>
    text
      .split(/\s+/)
      .filter(Boolean)
      .map((token, index, all) =>
        (token === '-D' || token === '--define') && all[index + 1]
          ? `-D${all[index + 1]}`
          : token.startsWith('--define=')
            ? `-D${token.slice('--define='.length)}`
            : token,
      )
      .filter((token) => token !== '-D' && token !== '--define');
  const old = new Set(tokens(before));
  const problems: string[] = [];
  for (const token of tokens(after)) {
    if (old.has(token)) continue;
    const property = /^-D([^=]+)(?:=(.*))?$/.exec(token);
    if (property && TEST_PROPERTIES.test(property[1]!) && !FALSE_LIKE.test(property[2] ?? ''))
      problems.push(`adds \`${token}\`, which skips, selects or ignores tests`);
    else if (token === '-fn' || token === '--fail-never')
      problems.push(`adds \`${token}\`, which makes a failing build pass`);
    else if (token === '-pl' || token === '--projects' || token.startsWith('--projects='))
      problems.push(`adds \`${token}\`, which leaves modules (and their tests) out of the build`);
  }
  return problems;
}

/** junit-platform.properties: `key=value`, `key: value` or `key value` lines. */
function propertiesFindings(before: string, after: string): string[] {
  const read = (text: string) => {
    const map = new Map<string, string>();
    for (const line of text.split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('!')) continue;
      const match = /^([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(trimmed);
      if (match) map.set(match[1]!, match[2]!.trim());
    }
    return map;
  };
  const old = read(before);
  const problems: string[] = [];
  for (const [key, value] of read(after)) {
    if (old.get(key) === value) continue;
    if (JUNIT_SETTING.test(key)) problems.push(`sets \`${key}=${value}\`, which changes which tests run`);
  }
  return problems;
}
