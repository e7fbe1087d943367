import { describe, expect, it } from 'vitest';
import type { ChangeSet } from '../../src/patch/types.js';
import { lineChangesOf } from '../../src/report/line-changes.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { buildSarif, emptySarif } from '../../src/report/sarif.js';
import { sarifSchemaErrors, SARIF_SCHEMA_TITLE } from '../helpers/sarif-schema.js';
import { attempt, diagnostic, record } from './stats-support.js';

/** SARIF is read here as plain JSON: the schema check above is what holds its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const FILE = 'src/main/java/com/acme/Calc.java';

/** Applies SARIF replacements the way a viewer does, from the last to the first: proves the regions right. */
function applyReplacements(
  text: string,
  replacements: { deletedRegion: Record<string, number>; insertedContent: { text: string } }[],
): string {
  const lineStarts = [0];
  for (let index = 0; index < text.length; index += 1) if (text[index] === '\n') lineStarts.push(index + 1);
  const offset = (line: number, column: number) => (lineStarts[line - 1] ?? text.length) + column - 1;
  let result = text;
  for (const { deletedRegion: region, insertedContent } of [...replacements].reverse()) {
    const start = offset(region.startLine!, region.startColumn!);
    const end = offset(region.endLine!, region.endColumn!);
    result = result.slice(0, start) + insertedContent.text + result.slice(end);
  }
  return result;
}

const fixedRun = (overrides: Partial<RunRecord> = {}) =>
  record({
    runId: 'r1',
    startedAt: '2024-06-01T10:00:00.000Z',
    tier: 'assist',
    status: 'fixed',
    stopReason: 'fixed',
    action: 'suggest',
    risk: 'low',
    diagnostics: [
      {
        ...diagnostic('compile', 'cannot find symbol', FILE),
        line: 4,
        column: 9,
        details: ['symbol:   class List'],
        module: 'calc',
      },
      diagnostic('test', 'expected: <2> but was: <3>', 'src/test/java/com/acme/CalcTest.java'),
    ],
    attempts: [{ ...attempt(1, 'verified', 'fixer'), fixer: 'missing-import' }],
    ...overrides,
  });

describe('SARIF', () => {
  it('checks logs against the SARIF 2.1.0 schema, which refuses a broken one', () => {
    expect(SARIF_SCHEMA_TITLE).toContain('2.1.0');
    expect(sarifSchemaErrors({ version: '2.1.0', runs: [{ tool: { driver: {} }, results: [] }] }).join('\n')).toContain(
      'name',
    );
    expect(sarifSchemaErrors({ version: '2.0.0', runs: [] })).not.toEqual([]);
  });

  it('writes diagnostics as results and a verified fix as fixes with replacements that turn the old file into the new one', () => {
    const before = 'package com.acme;\n\npublic class Calc {\n    List<Integer> xs;\n    int a = 1\n    int gone;\n}\n';
    const after =
      'package com.acme;\n\nimport java.util.List;\n\npublic class Calc {\n    List<Integer> xs;\n    int a = 1;\n}\n';
    const fix: ChangeSet = { files: [{ path: FILE, before, after }] };
    const log = buildSarif({ record: fixedRun(), fix, prefix: 'services/calc', toolVersion: '0.1.0' }) as {
      runs: { results: Record<string, unknown>[]; tool: { driver: { rules: { id: string }[] } } }[];
    };

    expect(sarifSchemaErrors(log)).toEqual([]);
    const [compile, test] = log.runs[0]!.results as Loose[];
    expect(compile).toMatchObject({
      ruleId: 'mvnx/compile',
      level: 'error',
      message: { text: 'cannot find symbol\nsymbol:   class List' },
    });
    expect(compile!.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: `services/calc/${FILE}`, uriBaseId: '%SRCROOT%' },
      region: { startLine: 4, startColumn: 9 },
    });
    expect(log.runs[0]!.tool.driver.rules.map((rule) => rule.id)).toEqual(['mvnx/compile', 'mvnx/test']);
    // The fix sits on the result in the file it changes; the test result elsewhere has none.
    expect(test!.fixes).toBeUndefined();
    const change = compile!.fixes[0].artifactChanges[0];
    expect(change.artifactLocation.uri).toBe(`services/calc/${FILE}`);
    expect(applyReplacements(before, change.replacements)).toBe(after);
    expect(compile!.fixes[0].description.text).toContain('Verified by mvnx run r1 (the quick-fix missing-import)');
  });

  it('handles the end of a file without a final newline, insertions at the top, and a new file', () => {
    const cases: [string, string][] = [
      ['a\nb\nc', 'a\nb\nC'],
      ['a\nb\nc', 'a\nb\nc\nd'],
      ['b\nc\n', 'a\nb\nc\n'],
      ['a\nb\nc\n', 'a\nc\n'],
      ['x\r\ny\r\n', 'x\r\nY\r\n'],
    ];
    for (const [before, after] of cases) {
      const log = buildSarif({
        record: fixedRun({ diagnostics: [diagnostic('compile', 'x', FILE)] }),
        fix: { files: [{ path: FILE, before, after }] },
        prefix: '',
        toolVersion: '0',
      }) as Loose;
      expect(sarifSchemaErrors(log)).toEqual([]);
      expect(
        applyReplacements(before, log.runs[0].results[0].fixes[0].artifactChanges[0].replacements),
        JSON.stringify([before, after]),
      ).toBe(after);
    }
    const created = buildSarif({
      record: fixedRun({ diagnostics: [diagnostic('compile', 'x', FILE)] }),
      fix: { files: [{ path: 'src/main/java/New.java', before: null, after: 'class New {}\n' }] },
      prefix: '',
      toolVersion: '0',
    }) as Loose;
    expect(sarifSchemaErrors(created)).toEqual([]);
    expect(created.runs[0].results[0].fixes[0].artifactChanges[0].replacements[0].insertedContent.text).toBe(
      'class New {}\n',
    );
  });

  it('places a failure without a file on pom.xml, and has no fixes without a verified fix', () => {
    const run = record({
      runId: 'r2',
      startedAt: '2024-06-01T10:00:00.000Z',
      diagnostics: [diagnostic('other', 'Could not resolve dependencies')],
    });
    const log = buildSarif({ record: run, prefix: '', toolVersion: '0' }) as Loose;
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'pom.xml', uriBaseId: '%SRCROOT%' },
      region: { startLine: 1 },
    });
    expect(log.runs[0].results[0].message.text).toContain('Not fixable by a code patch: not a code problem');
    expect(log.runs[0].results[0].fixes).toBeUndefined();
  });

  it('writes a valid empty log for a passing build or an undiagnosed failure', () => {
    expect(sarifSchemaErrors(emptySarif('0.1.0'))).toEqual([]);
    const noted = emptySarif('0.1.0', 'tier off: mvnx did not diagnose the failure') as Loose;
    expect(sarifSchemaErrors(noted)).toEqual([]);
    expect(noted.runs[0].results).toEqual([]);
    expect(noted.runs[0].invocations[0].toolExecutionNotifications[0].message.text).toContain('tier off');
  });
});

describe('lineChangesOf', () => {
  it('gives each run of removed and added lines with its place in the old file', () => {
    expect(lineChangesOf('f', 'a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n')).toEqual([
      { path: 'f', startLine: 2, endLine: 2, removed: ['b'], added: ['B'] },
      { path: 'f', startLine: 5, endLine: 4, removed: [], added: ['e'] },
    ]);
  });
});
