/**
 * Pure reading of Surefire/Failsafe XML reports. A report that does not parse is
 * salvaged with a tag scan, so a half-written report still yields its finished cases.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeEntities } from '../maven/pom.js';

export type TestStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface ReportedFailure {
  outcome: 'failure' | 'error';
  type: string;
  message: string;
  stackTrace: string;
}

export interface ReportedTestCase {
  className: string;
  method: string;
  reportedName: string;
  status: TestStatus;
  failure?: ReportedFailure;
}

export interface ParsedReport {
  cases: ReportedTestCase[];
  warnings: string[];
}

const ARRAY_TAGS = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped']);

const reportParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  // fast-xml-parser's own entity step decodes only the five named entities: a message's
  // `&#10;` (Surefire writes every newline, tab and quote of a message that way) reached
  // the prompt as written. Decoded here instead, in one pass (`&amp;#10;` stays `&#10;`).
  processEntities: false,
  tagValueProcessor: (_name: string, value: string) => decodeEntities(value),
  attributeValueProcessor: (_name: string, value: string) => decodeEntities(value),
  isArray: (name) => ARRAY_TAGS.has(name),
  // Output and properties can be huge and are never needed.
  stopNodes: ['*.system-out', '*.system-err', '*.properties'],
});

type XmlNode = Record<string, unknown>;

/** `depositsArePositive(long)[3]` -> `depositsArePositive`; `test[1]` -> `test`. */
export function normaliseTestMethod(name: string): string {
  let n = name.trim();
  for (let i = 0; i < 4; i++) {
    const next = n
      .replace(/\[[^\]]*\]$/, '')
      .replace(/\([^()]*\)$/, '')
      .trim();
    if (next === n) break;
    n = next;
  }
  return n === '' ? name.trim() : n;
}

function str(value: unknown): string {
  // fast-xml-parser gives strings, numbers and booleans for text; an element is no text.
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : '';
}

function nodes(value: unknown): XmlNode[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (typeof v === 'object' && v !== null ? (v as XmlNode) : { '#text': str(v) }));
}

function readFailure(node: XmlNode, outcome: 'failure' | 'error'): ReportedFailure {
  return {
    outcome,
    type: str(node.type),
    message: str(node.message),
    stackTrace: str(node['#text']).trim(),
  };
}

function caseFrom(node: XmlNode, suiteName: string): ReportedTestCase | undefined {
  const reportedName = str(node.name);
  const className = str(node.classname) || suiteName;
  if (reportedName === '' && className === '') return undefined;
  const failure = nodes(node.failure)[0];
  const error = nodes(node.error)[0];
  const skipped = node.skipped !== undefined;
  const base = { className, method: normaliseTestMethod(reportedName), reportedName };
  if (failure) return { ...base, status: 'failed', failure: readFailure(failure, 'failure') };
  if (error) return { ...base, status: 'error', failure: readFailure(error, 'error') };
  return { ...base, status: skipped ? 'skipped' : 'passed' };
}

function suitesOf(doc: XmlNode): XmlNode[] {
  const direct = nodes(doc.testsuite);
  const grouped = nodes(doc.testsuites).flatMap((g) => nodes(g.testsuite));
  return [...direct, ...grouped];
}

export function parseSurefireReport(xml: string, reportFile: string): ParsedReport {
  const warnings: string[] = [];
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    const { msg, line } = validation.err;
    warnings.push(`report ${reportFile} is malformed (line ${line}: ${msg}); results from it may be partial`);
    return { cases: salvageCases(xml), warnings };
  }
  try {
    const doc = reportParser.parse(xml) as XmlNode;
    const cases: ReportedTestCase[] = [];
    for (const suite of suitesOf(doc)) {
      const suiteName = str(suite.name);
      for (const tc of nodes(suite.testcase)) {
        const parsed = caseFrom(tc, suiteName);
        if (parsed) cases.push(parsed);
      }
    }
    return { cases, warnings };
  } catch (error) {
    warnings.push(
      `report ${reportFile} could not be read (${(error as Error).message.split('\n')[0]}); results from it may be partial`,
    );
    return { cases: salvageCases(xml), warnings };
  }
}

const TESTCASE_TAG = /<testcase\b([^>]*?)(\/?)>/g;
const ATTRIBUTE = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of source.matchAll(ATTRIBUTE)) out[m[1] ?? ''] = decodeEntities(m[2] ?? m[3] ?? '');
  return out;
}

/** Best effort for broken XML: every complete `<testcase>` start tag and what follows it. */
function salvageCases(xml: string): ReportedTestCase[] {
  const cases: ReportedTestCase[] = [];
  const matches = [...xml.matchAll(TESTCASE_TAG)];
  matches.forEach((m, i) => {
    const attrs = attributes(m[1] ?? '');
    const reportedName = attrs.name ?? '';
    const className = attrs.classname ?? '';
    if (reportedName === '' && className === '') return;
    const base = { className, method: normaliseTestMethod(reportedName), reportedName };
    if (m[2] === '/') {
      cases.push({ ...base, status: 'passed' });
      return;
    }
    const bodyStart = (m.index ?? 0) + m[0].length;
    const bodyEnd = matches[i + 1]?.index ?? xml.length;
    const body = xml.slice(bodyStart, bodyEnd);
    const end = body.indexOf('</testcase>');
    const own = end === -1 ? body : body.slice(0, end);
    const problem = /<(failure|error)\b([^>]*?)(\/?)>/.exec(own);
    if (problem) {
      const pattrs = attributes(problem[2] ?? '');
      const outcome = problem[1] === 'failure' ? 'failure' : 'error';
      const after = own.slice((problem.index ?? 0) + problem[0].length);
      const textEnd = after.search(/<\/(failure|error)>/);
      const stackTrace = decodeEntities(
        (textEnd === -1 ? after : after.slice(0, textEnd)).replace(/<!\[CDATA\[|\]\]>/g, ''),
      ).trim();
      cases.push({
        ...base,
        status: outcome === 'failure' ? 'failed' : 'error',
        failure: { outcome, type: pattrs.type ?? '', message: pattrs.message ?? '', stackTrace },
      });
    } else if (end !== -1 || i < matches.length - 1) {
      // An unterminated last case was cut off mid-write: its outcome is unknown.
      cases.push({ ...base, status: /<skipped\b/.test(own) ? 'skipped' : 'passed' });
    }
  });
  return cases;
}
