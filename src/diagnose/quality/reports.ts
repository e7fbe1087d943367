/**
 * The XML reports quality gates write under target/, read into findings. Pure: text in,
 * findings out; a report that does not parse gives a warning and no findings.
 *
 *   checkstyle-result.xml  <checkstyle><file name="/abs/A.java"><error line column severity message source/>
 *   pmd.xml <pmd><file name="/abs/A.java"><violation beginline begincolumn rule priority>text</violation>
 *   spotbugsXml.xml <BugCollection><BugInstance type priority><LongMessage/><SourceLine classname sourcepath start>
 *                          with <Project><SrcDir>/abs/src/main/java</SrcDir>
 */
import { XMLParser } from 'fast-xml-parser';
import type { QualityFinding } from '../types.js';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ['file', 'error', 'violation', 'BugInstance', 'SourceLine', 'SrcDir'].includes(name),
});

type Node = Record<string, unknown>;

function nodes(value: unknown): Node[] {
  return Array.isArray(value) ? (value as Node[]) : value && typeof value === 'object' ? [value as Node] : [];
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as Node)['#text'] === 'string')
    return (value as Node)['#text'] as string;
  return undefined;
}

function num(value: unknown): number | undefined {
  const n = Number(str(value));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

export interface ReportRead {
  findings: QualityFinding[];
  warnings: string[];
}

function parse(xml: string, name: string): { doc?: Node; warnings: string[] } {
  try {
    return { doc: parser.parse(xml) as Node, warnings: [] };
  } catch (error) {
    return { warnings: [`cannot read ${name}: ${(error as Error).message.split('\n')[0]}`] };
  }
}

/** Checkstyle's own severities: `error` (and `warning` when the build counts warnings) fail the check. */
export function readCheckstyleReport(
  xml: string,
  name = 'checkstyle-result.xml',
  severities: readonly string[] = ['error'],
): ReportRead {
  const { doc, warnings } = parse(xml, name);
  const findings: QualityFinding[] = [];
  for (const file of nodes((doc?.checkstyle as Node | undefined)?.file)) {
    const path = str(file.name);
    if (!path) continue;
    for (const error of nodes(file.error)) {
      if (!severities.includes(str(error.severity) ?? 'error')) continue;
      const source = str(error.source) ?? '';
      const rule = source
        .split('.')
        .pop()
        ?.replace(/Check$/, '');
      const line = num(error.line);
      const column = num(error.column);
      findings.push({
        tool: 'checkstyle',
        file: path,
        fileBase: 'absolute',
        message: str(error.message) ?? 'checkstyle violation',
        ...(rule ? { rule } : {}),
        ...(line ? { line } : {}),
        ...(column ? { column } : {}),
      });
    }
  }
  return { findings, warnings };
}

/** PMD fails on violations at or below `failurePriority` (default 5: all of them). */
export function readPmdReport(xml: string, name = 'pmd.xml', failurePriority = 5): ReportRead {
  const { doc, warnings } = parse(xml, name);
  const findings: QualityFinding[] = [];
  for (const file of nodes((doc?.pmd as Node | undefined)?.file)) {
    const path = str(file.name);
    if (!path) continue;
    for (const violation of nodes(file.violation)) {
      if ((num(violation.priority) ?? 5) > failurePriority) continue;
      const line = num(violation.beginline);
      const column = num(violation.begincolumn);
      findings.push({
        tool: 'pmd',
        file: path,
        fileBase: 'absolute',
        message: (str(violation) ?? '').replace(/\s+/g, ' ').trim() || 'PMD violation',
        ...(str(violation.rule) ? { rule: str(violation.rule)! } : {}),
        ...(line ? { line } : {}),
        ...(column ? { column } : {}),
      });
    }
  }
  return { findings, warnings };
}

/**
 * SpotBugs: the BugInstance's own SourceLine is its primary location. Its class (and
 * source file name) is looked up in the module's sources, like the console line's.
 */
export function readSpotbugsReport(xml: string, name = 'spotbugsXml.xml'): ReportRead {
  const { doc, warnings } = parse(xml, name);
  const collection = doc?.BugCollection as Node | undefined;
  const findings: QualityFinding[] = [];
  for (const bug of nodes(collection?.BugInstance)) {
    const primary = nodes(bug.SourceLine)[0] ?? nodes((bug.Class as Node | undefined)?.SourceLine)[0];
    const type = str(bug.type);
    const message = str(bug.LongMessage) ?? str(bug.ShortMessage) ?? type ?? 'SpotBugs bug';
    const line = num(primary?.start);
    const className = str(primary?.classname) ?? str((bug.Class as Node | undefined)?.classname);
    findings.push({
      tool: 'spotbugs',
      message,
      ...(type ? { rule: type } : {}),
      ...(className ? { className } : {}),
      ...(str(primary?.sourcefile) ? { sourceFile: str(primary?.sourcefile)! } : {}),
      ...(line ? { line } : {}),
    });
  }
  return { findings, warnings };
}

export const REPORT_READERS: Record<string, (xml: string, name: string) => ReportRead> = {
  'checkstyle-result.xml': (xml, name) => readCheckstyleReport(xml, name),
  'pmd.xml': (xml, name) => readPmdReport(xml, name),
  'spotbugsXml.xml': (xml, name) => readSpotbugsReport(xml, name),
};
