/**
 * A command tool's report reduced to what the model can act on: `file:line: message`
 * lines, paths relative to the project. Reads SARIF 2.1.0 and the XML reports of the
 * common Java analysers (SpotBugs BugCollection, Checkstyle, PMD), and any other XML whose
 * elements carry a file and a line; text is passed on as written, ANSI codes removed.
 */
import { XMLParser } from 'fast-xml-parser';

export type OutputFormat = 'text' | 'xml' | 'sarif';

export interface Finding {
  file: string;
  line?: number;
  message: string;
}

export type ReadOutput = { ok: true; findings?: Finding[]; text: string } | { ok: false; problem: string };

/** Absolute workspace paths and `file:` URIs turned into project paths. */
export function relativeTo(root: string, file: string): string {
  const plain = file.replace(/^file:\/\//, '').replace(/\\/g, '/');
  const prefix = `${root.replace(/\\/g, '/').replace(/\/+$/, '')}/`;
  return plain.startsWith(prefix) ? plain.slice(prefix.length) : plain;
}

export function readToolOutput(format: OutputFormat, output: string, workspaceRoot: string): ReadOutput {
  const text = output.replace(/\x1b\[[0-9;]*m/g, '');
  if (format === 'text') return { ok: true, text: text.replaceAll(`${workspaceRoot.replace(/\/+$/, '')}/`, '').trim() };
  if (text.trim() === '') return { ok: true, findings: [], text: '' };
  const findings = format === 'sarif' ? readSarif(text) : readXml(text);
  if (typeof findings === 'string') return { ok: false, problem: findings };
  const relative = findings.map((finding) => ({ ...finding, file: relativeTo(workspaceRoot, finding.file) }));
  return { ok: true, findings: relative, text: relative.map(renderFinding).join('\n') };
}

export function renderFinding(finding: Finding): string {
  return `${finding.file}${finding.line !== undefined ? `:${finding.line}` : ''}: ${finding.message.replace(/\s+/g, ' ').trim()}`;
}

interface SarifLog {
  runs?: { results?: SarifResult[] }[];
}
interface SarifResult {
  ruleId?: string;
  level?: string;
  message?: { text?: string; markdown?: string };
  locations?: { physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number } } }[];
}

function readSarif(text: string): Finding[] | string {
  let log: SarifLog;
  try {
    log = JSON.parse(text.slice(text.indexOf('{'))) as SarifLog;
  } catch (error) {
    return `its output is not SARIF (JSON): ${(error as Error).message.split('\n')[0]}`;
  }
  if (!Array.isArray(log?.runs)) return 'its output is not SARIF: no "runs"';
  return log.runs.flatMap((run) =>
    (run.results ?? []).map((result): Finding => {
      const location = result.locations?.[0]?.physicalLocation;
      const rule = result.ruleId ? ` (${result.ruleId})` : '';
      const level = result.level && result.level !== 'warning' ? `${result.level}: ` : '';
      return {
        file: decodeURI(location?.artifactLocation?.uri ?? '(no file)'),
        ...(typeof location?.region?.startLine === 'number' ? { line: location.region.startLine } : {}),
        message: `${level}${result.message?.text ?? result.message?.markdown ?? ''}${rule}`,
      };
    }),
  );
}

type XmlNode = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  processEntities: true,
  textNodeName: '#text',
  parseAttributeValue: false,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && name !== '#text',
});

function readXml(text: string): Finding[] | string {
  const start = text.indexOf('<');
  if (start < 0) return 'its output is not XML';
  let root: XmlNode;
  try {
    root = parser.parse(text.slice(start)) as XmlNode;
  } catch (error) {
    return `its output is not XML: ${(error as Error).message.split('\n')[0]}`;
  }
  const findings: Finding[] = [];
  walk(root, undefined, findings);
  return findings;
}

const FILE_ATTRIBUTES = ['@file', '@filename', '@path', '@sourcepath', '@sourcefile'];
const LINE_ATTRIBUTES = ['@line', '@beginline', '@start', '@startLine', '@lineNumber'];

/** Depth first; a `<file name="...">` (Checkstyle, PMD) gives its children their file. */
function walk(node: unknown, inheritedFile: string | undefined, findings: Finding[]): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, inheritedFile, findings);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [name, value] of Object.entries(node as XmlNode)) {
    if (name.startsWith('@') || name === '#text') continue;
    for (const element of Array.isArray(value) ? value : [value]) {
      if (!element || typeof element !== 'object') continue;
      const attributes = element as XmlNode;
      if (name === 'BugInstance') {
        findings.push(spotbugs(attributes));
        continue;
      }
      const ownFile = name === 'file' ? attr(attributes, '@name') : undefined;
      const file = attrOf(attributes, FILE_ATTRIBUTES) ?? inheritedFile;
      const line = attrOf(attributes, LINE_ATTRIBUTES);
      if (file && line !== undefined && /^\d+$/.test(line)) {
        const message = attr(attributes, '@message') ?? textOf(attributes) ?? attr(attributes, '@rule') ?? name;
        const rule = attr(attributes, '@source') ?? attr(attributes, '@rule');
        findings.push({
          file,
          line: Number(line),
          message: `${message}${rule && rule !== message ? ` (${rule.replace(/^.*\./, '')})` : ''}`,
        });
        continue;
      }
      walk(element, ownFile ?? inheritedFile, findings);
    }
  }
}

/** SpotBugs: the primary SourceLine (or the first) holds the place, LongMessage or ShortMessage the text. */
function spotbugs(bug: XmlNode): Finding {
  const lines = [
    ...asArray(bug.SourceLine),
    ...asArray((asArray(bug.Method)[0] as XmlNode | undefined)?.SourceLine),
    ...asArray((asArray(bug.Class)[0] as XmlNode | undefined)?.SourceLine),
  ] as XmlNode[];
  const place = lines.find((line) => attr(line, '@primary') === 'true') ?? lines[0] ?? {};
  const message =
    textOf(asArray(bug.LongMessage)[0]) ??
    textOf(asArray(bug.ShortMessage)[0]) ??
    attr(bug, '@type') ??
    'SpotBugs finding';
  const start = attr(place, '@start');
  return {
    file: attr(place, '@sourcepath') ?? attr(place, '@classname') ?? '(no file)',
    ...(start && /^\d+$/.test(start) ? { line: Number(start) } : {}),
    message: `${message}${attr(bug, '@type') ? ` (${attr(bug, '@type')})` : ''}`,
  };
}

function asArray(value: unknown): unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function attr(node: unknown, name: string): string | undefined {
  const value = node && typeof node === 'object' ? (node as XmlNode)[name] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function attrOf(node: XmlNode, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = attr(node, name);
    if (value) return value;
  }
  return undefined;
}

function textOf(node: unknown): string | undefined {
  if (typeof node === 'string') return node.trim() || undefined;
  const text = node && typeof node === 'object' ? (node as XmlNode)['#text'] : undefined;
  const value = Array.isArray(text) ? text.join(' ') : text;
  return typeof value === 'string' && value.trim() !== ''
    ? value.trim()
    : typeof value === 'number'
      ? String(value)
      : undefined;
}
