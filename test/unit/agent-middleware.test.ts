/** The middleware between a small model's tool call and the tool: names, argument names, values and paths. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coerceArguments,
  describeCorrections,
  nameDistance,
  normaliseName,
  resolveToolName,
} from '../../src/repair/agent/middleware.js';
import {
  CODE_TOOLS,
  extractTestCode,
  findSimilarApiCalls,
  readRange,
  searchCodeBase,
} from '../../src/repair/agent/tools/index.js';
import { createSourceView } from '../../src/codebase/index.js';
import type { SourceView } from '../../src/plugins/contracts.js';

const KNOWN = [
  ...CODE_TOOLS.map((tool) => tool.name),
  'run_tests',
  'express_hypothesis',
  'discard_hypothesis',
  'collect_more_information',
  'write_fix',
  'goals_accomplished',
  'give_up',
];

describe('tool names', () => {
  it('reads case, separators, a functions. prefix and () as the same name', () => {
    expect(normaliseName('readRange')).toBe('read_range');
    expect(normaliseName('Read-Range')).toBe('read_range');
    expect(normaliseName('functions.read_range')).toBe('read_range');
    expect(normaliseName('searchCodeBase()')).toBe('search_code_base');
    expect(resolveToolName('read_range', KNOWN)).toEqual({ tool: 'read_range' });
    expect(resolveToolName('readRange', KNOWN)).toEqual({ tool: 'read_range', correction: 'readRange → read_range' });
  });

  it('matches misnamed tools by word edit distance, where verbs of one kind are close', () => {
    const cases: [string, string][] = [
      ['show_method', 'extract_method'],
      ['get_method', 'extract_method'],
      ['read_rnage', 'read_range'],
      ['extract_similar_functions_calls', 'find_similar_api_calls'],
      ['find_similar_calls', 'find_similar_api_calls'],
      ['get_class_and_methods', 'get_classes_and_methods'],
      ['search', 'search_code_base'],
      ['run_test', 'run_tests'],
      ['executeTests', 'run_tests'],
      ['read_file', 'read_range'],
      ['goal_accomplished', 'goals_accomplished'],
      ['go_back_to_collect_more_info', 'collect_more_information'],
      ['try_fixes', 'write_fix'],
    ];
    for (const [given, tool] of cases)
      expect(resolveToolName(given, KNOWN), given).toEqual({ tool, correction: `${given} → ${tool}` });
  });

  it('does not guess between two tools that fit a name equally, nor for a name that fits none', () => {
    expect(resolveToolName('extract', KNOWN)).toEqual({
      unknown: 'extract',
      candidates: expect.arrayContaining(['extract_method', 'extract_test_code']),
    });
    expect(resolveToolName('rm_rf', KNOWN)).toEqual({ unknown: 'rm_rf', candidates: [] });
    expect(resolveToolName('delete_repository', KNOWN)).toMatchObject({ unknown: 'delete_repository' });
  });

  it('scores word distance between 0 (same) and 1 (all different)', () => {
    expect(nameDistance('read_range', 'read_range')).toBe(0);
    expect(nameDistance('show_method', 'extract_method')).toBe(0.125);
    expect(nameDistance('delete_all', 'read_range')).toBe(1);
  });
});

let base: string;
let view: SourceView;
const UTILS = 'core/src/main/java/com/acme/util/Utils.java';
const APP = 'app/src/main/java/com/acme/App.java';

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mvnx-middleware-'));
  const root = path.join(base, 'shop');
  for (const file of [
    UTILS,
    APP,
    'app/src/test/java/com/acme/AppTest.java',
    'core/src/main/java/com/acme/util/Other.java',
    'app/src/main/java/com/acme/Other.java',
  ]) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), 'class X {}\n');
  }
  view = createSourceView(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('argument coercion', () => {
  it('splits "Utils.java line 50" into file and line, finding the file by name', async () => {
    expect(await coerceArguments(readRange, { file: 'Utils.java line 50' }, view)).toEqual({
      args: { file: UTILS, start: 50 },
      corrections: ['"Utils.java line 50" → file "Utils.java", start 50', `file "Utils.java" → "${UTILS}"`],
    });
    expect((await coerceArguments(readRange, { path: 'Utils.java:12' }, view)).args).toEqual({
      file: UTILS,
      start: 12,
    });
    expect((await coerceArguments(findSimilarApiCalls, { call: 'x', file: `${UTILS}#7` }, view)).args).toEqual({
      call: 'x',
      file: UTILS,
      line: 7,
    });
  });

  it('renames the argument names models use, turns numbers written as text into numbers and drops the rest with a note', async () => {
    const coerced = await coerceArguments(
      readRange,
      { file_path: APP, start_line: '3', endLine: ' 9 ', verbose: true },
      view,
    );
    expect(coerced.args).toEqual({ file: APP, start: 3, end: 9 });
    expect(coerced.corrections).toEqual([
      '"file_path" → "file"',
      '"start_line" → "start"',
      '"endLine" → "end"',
      'dropped unknown "verbose"',
      '"3" → 3',
      '" 9 " → 9',
    ]);
    expect((await coerceArguments(searchCodeBase, { query: 'total', globs: '**/*.java' }, view)).args).toEqual({
      pattern: 'total',
      glob: '**/*.java',
    });
  });

  it('joins a class and a method into the test that extract_test_code takes', async () => {
    expect(await coerceArguments(extractTestCode, { class: 'AppTest', method: 'runs' }, view)).toEqual({
      args: { test: 'AppTest#runs' },
      corrections: ['"class" and "method" → "test" "AppTest#runs"'],
    });
  });

  it('finds the file a path means: module prefix missing, project folder or ./ in front, backslashes, an absolute path', async () => {
    const fileOf = async (file: string) => (await coerceArguments(readRange, { file, start: 1 }, view)).args.file;
    expect(await fileOf(APP)).toBe(APP);
    expect(await fileOf('src/main/java/com/acme/App.java')).toBe(APP);
    expect(await fileOf(`shop/${APP}`)).toBe(APP);
    expect(await fileOf(`./${APP}`)).toBe(APP);
    expect(await fileOf(APP.replace(/\//g, '\\'))).toBe(APP);
    expect(await fileOf(path.join(view.root, APP))).toBe(APP);
    expect(await coerceArguments(readRange, { file: 'src/main/java/com/acme/App.java', start: 1 }, view)).toEqual({
      args: { file: APP, start: 1 },
      corrections: [`file "src/main/java/com/acme/App.java" → "${APP}"`],
    });
  });

  it('answers with both files when a name fits two, and leaves .. and unknown files to the tool', async () => {
    const twice = await coerceArguments(readRange, { file: 'Other.java', start: 1 }, view);
    expect(twice.answer).toBe(
      [
        'file "Other.java" names 2 files in the project; read_range was not run. Call it again with the one you mean:',
        '- app/src/main/java/com/acme/Other.java: {"tool":"read_range","args":{"file":"app/src/main/java/com/acme/Other.java","start":1}}',
        '- core/src/main/java/com/acme/util/Other.java: {"tool":"read_range","args":{"file":"core/src/main/java/com/acme/util/Other.java","start":1}}',
      ].join('\n'),
    );
    expect(await coerceArguments(readRange, { file: '../etc/passwd', start: 1 }, view)).toEqual({
      args: { file: '../etc/passwd', start: 1 },
      corrections: [],
    });
    expect(await coerceArguments(readRange, { file: 'Nothing.java', start: 1 }, view)).toEqual({
      args: { file: 'Nothing.java', start: 1 },
      corrections: [],
    });
  });

  it('tells every correction in one line', () => {
    expect(describeCorrections([])).toBe('');
    expect(describeCorrections(['show_method → extract_method', '"path" → "file"'])).toBe(
      '(mvnx corrected your call: show_method → extract_method; "path" → "file")',
    );
  });
});
