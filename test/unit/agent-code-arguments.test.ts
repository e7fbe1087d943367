/**
 * Code named the way models name it, looked up in a real three-module project on disk and
 * placed into each built-in tool's arguments by the middleware; the tools then run on the
 * corrected call. OrderService exists in two modules (the candidates answer), Discounts in
 * one (every form resolves), and misspelled names get the nearest ones.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookUpCode, membersNamed, typesNamed } from '../../src/repair/agent/code-index.js';
import { coerceArguments, type ToolSignature } from '../../src/repair/agent/middleware.js';
import {
  extractMethod,
  extractTestCode,
  findSimilarApiCalls,
  getClassesAndMethods,
  readRange,
  searchCodeBase,
} from '../../src/repair/agent/tools/index.js';
import { STATE_TOOLS } from '../../src/repair/agent/toolbox.js';
import { createSourceView } from '../../src/codebase/index.js';
import type { AgentTool, SourceView } from '../../src/plugins/contracts.js';

const DISCOUNTS = 'core/src/main/java/com/acme/core/Discounts.java';
const ORDERS = 'orders/src/main/java/com/acme/orders/OrderService.java';
const LEGACY = 'legacy/src/main/java/com/acme/legacy/OrderService.java';
const ORDERS_TEST = 'orders/src/test/java/com/acme/orders/OrderServiceTest.java';

const FILES: Record<string, string> = {
  'pom.xml': '<project/>\n',
  mvnw: '#!/bin/sh\n',
  [DISCOUNTS]: [
    'package com.acme.core;',
    '',
    '/** Discounts are whole percents. */',
    'public final class Discounts {',
    '    public static final int MAX_PERCENT = 50;',
    '',
    '    private Discounts() {',
    '    }',
    '',
    '    public static int percentOff(String tier) {',
    '        return "gold".equals(tier) ? 15 : 0;',
    '    }',
    '',
    '    public static long applyPercent(long cents, int percent) {',
    '        return cents * (100 - percent) / 100;',
    '    }',
    '',
    '    public static long applyPercent(long cents, double percent) {',
    '        return Math.round(cents * (100 - percent) / 100);',
    '    }',
    '',
    '    public enum Tier {',
    '        GOLD, SILVER',
    '    }',
    '}',
    '',
  ].join('\n'),
  [ORDERS]: [
    'package com.acme.orders;',
    '',
    'import com.acme.core.Discounts;',
    'import java.util.List;',
    '',
    'public class OrderService {',
    '    private final String tier;',
    '',
    '    public OrderService(String tier) {',
    '        this.tier = tier;',
    '    }',
    '',
    '    public long total(List<Long> lineCents) {',
    '        long sum = 0;',
    '        for (long cents : lineCents) sum += cents;',
    '        return sum - Discounts.percentOff(tier);',
    '    }',
    '}',
    '',
  ].join('\n'),
  [LEGACY]: [
    'package com.acme.legacy;',
    '',
    'public class OrderService {',
    '    public long total(long[] lineCents) {',
    '        return 0;',
    '    }',
    '}',
    '',
  ].join('\n'),
  [ORDERS_TEST]: [
    'package com.acme.orders;',
    '',
    'import org.junit.jupiter.api.Test;',
    '',
    'class OrderServiceTest {',
    '    @Test',
    '    void goldPaysLess() {',
    '        new OrderService("gold").total(java.util.List.of(100L));',
    '    }',
    '}',
    '',
  ].join('\n'),
};

let base: string;
let view: SourceView;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mvnx-code-names-'));
  const root = path.join(base, 'shop');
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  view = createSourceView(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const coerce = (tool: ToolSignature, args: Record<string, unknown>) => coerceArguments(tool, args, view);
const context = () => ({ view, runTests: async () => ({ ok: true, output: 'not used' }), diagnostics: [] });
/** The middleware, then the tool on the corrected call: what the model gets back. */
async function call(tool: AgentTool, args: Record<string, unknown>) {
  const coerced = await coerce(tool, args);
  if (coerced.answer !== undefined) return { ...coerced, result: { ok: false, output: coerced.answer } };
  return { ...coerced, result: await tool.run(coerced.args, context()) };
}

describe('one match: every form of a name becomes the file, and the correction is said', () => {
  const forms = [
    'Discounts',
    'com.acme.core.Discounts',
    'Discounts.percentOff',
    'Discounts#percentOff',
    'Discounts::percentOff',
    'percentOff()',
    'Discounts.java',
    'com/acme/core/Discounts.java',
    '/home/runner/work/shop/shop/core/src/main/java/com/acme/core/Discounts.java',
    'C:\\build\\shop\\core\\src\\main\\java\\com\\acme\\core\\Discounts.java',
    '/tmp/other-checkout/shop/core/src/main/java/com/acme/core/Discounts.java',
    'at com.acme.core.Discounts.percentOff(Discounts.java:11)',
    'src/main/java/com/acme/core/Discounts.java',
    'Discounts$Tier',
    'com.acme.core.Discounts.Tier',
  ];
  for (const form of forms) {
    it(`get_classes_and_methods {"file": ${JSON.stringify(form)}}`, async () => {
      const { args, corrections, result } = await call(getClassesAndMethods, { file: form });
      expect(args).toEqual({ file: DISCOUNTS });
      // A stack frame's line is said apart: get_classes_and_methods takes no lines.
      expect(corrections).toHaveLength(form.includes('Discounts.java:11') ? 2 : 1);
      expect(corrections.at(-1)).toContain(`→ `);
      expect(corrections.at(-1)).toContain(DISCOUNTS);
      expect(result).toMatchObject({
        ok: true,
        output: expect.stringContaining('public static int percentOff(String tier)'),
      });
    });
  }

  it('says what it found in one line: the name, the file and the declaration', async () => {
    expect((await coerce(getClassesAndMethods, { file: 'Discounts.percentOff' })).corrections).toEqual([
      `file "Discounts.percentOff" → file "${DISCOUNTS}" (method com.acme.core.Discounts.percentOff, line 10)`,
    ]);
    expect((await coerce(getClassesAndMethods, { file: 'Discounts.java' })).corrections).toEqual([
      `file "Discounts.java" → "${DISCOUNTS}"`,
    ]);
    expect((await coerce(getClassesAndMethods, { file: DISCOUNTS })).corrections).toEqual([]);
  });
});

describe('class, type, method and member arguments are mapped on every tool where they make sense', () => {
  it("the issue's call: show_method's class and method become extract_method's file and method", async () => {
    const { args, corrections, result } = await call(extractMethod, { class: 'Discounts', method: 'percentOff' });
    expect(args).toEqual({ method: 'percentOff', file: DISCOUNTS });
    expect(corrections).toEqual([
      `"class" "Discounts" and "method" "percentOff" → file "${DISCOUNTS}", method percentOff (method com.acme.core.Discounts.percentOff, line 10)`,
    ]);
    expect(result.output).toContain('  10|     public static int percentOff(String tier) {');
  });

  it('extract_method with only a method name searches every type, overloads being one answer', async () => {
    const { args, result } = await call(extractMethod, { method: 'applyPercent' });
    expect(args).toEqual({ method: 'applyPercent', file: DISCOUNTS });
    expect(result.output).toContain('  14|     public static long applyPercent(long cents, int percent) {');
    expect(result.output).toContain('  18|     public static long applyPercent(long cents, double percent) {');
    expect((await coerce(extractMethod, { method: 'com.acme.orders.OrderService#total' })).args).toEqual({
      method: 'total',
      file: ORDERS,
    });
    expect((await coerce(extractMethod, { type: 'com.acme.core.Discounts', function: 'percentOff()' })).args).toEqual({
      method: 'percentOff',
      file: DISCOUNTS,
    });
    expect((await coerce(extractMethod, { file: 'com.acme.legacy.OrderService', method: 'total' })).args).toEqual({
      method: 'total',
      file: LEGACY,
    });
  });

  it('extract_method in the test file for a method of the class under test goes where the method is declared', async () => {
    const { args, corrections } = await coerce(extractMethod, { file: 'OrderServiceTest.java', method: 'percentOff' });
    expect(args).toEqual({ file: DISCOUNTS, method: 'percentOff' });
    expect(corrections).toEqual([
      `file "OrderServiceTest.java" and "method" "percentOff" → file "${DISCOUNTS}", method percentOff (method com.acme.core.Discounts.percentOff, line 10)`,
    ]);
  });

  it('get_classes_and_methods with a class name finds its file; a test class is found in the test sources', async () => {
    expect((await coerce(getClassesAndMethods, { class: 'Discounts' })).args).toEqual({ file: DISCOUNTS });
    expect((await coerce(getClassesAndMethods, { class_name: 'OrderServiceTest' })).args).toEqual({
      file: ORDERS_TEST,
    });
    expect((await coerce(getClassesAndMethods, { method: 'percentOff' })).args).toEqual({ file: DISCOUNTS });
  });

  it('read_range with a class and method reads that method; with a member as the file, too; a field is a member', async () => {
    const method = await call(readRange, { class: 'Discounts', method: 'percentOff' });
    expect(method.args).toEqual({ file: DISCOUNTS, start: 10, end: 12 });
    expect(method.result.output.split('\n')).toHaveLength(3);
    expect((await coerce(readRange, { file: 'Discounts#applyPercent' })).args).toEqual({
      file: DISCOUNTS,
      start: 14,
      end: 20,
    });
    expect((await coerce(readRange, { file: 'Discounts.MAX_PERCENT' })).args).toEqual({
      file: DISCOUNTS,
      start: 5,
      end: 5,
    });
    // Lines given win over the member's.
    expect((await coerce(readRange, { file: 'Discounts.percentOff', start: 1, end: 4 })).args).toEqual({
      file: DISCOUNTS,
      start: 1,
      end: 4,
    });
  });

  it('a whole name under "name" or "symbol" is the file where the tool takes no name; a file without an extension stays a file', async () => {
    expect(await coerce(readRange, { name: 'Discounts.percentOff' })).toEqual({
      args: { file: DISCOUNTS, start: 10, end: 12 },
      corrections: [
        '"name" → "file"',
        `file "Discounts.percentOff" → file "${DISCOUNTS}", lines 10-12 (method com.acme.core.Discounts.percentOff, line 10)`,
      ],
    });
    expect((await coerce(getClassesAndMethods, { symbol: 'OrderServiceTest' })).args).toEqual({ file: ORDERS_TEST });
    expect((await coerce(extractMethod, { file: DISCOUNTS, name: 'percentOff' })).args).toEqual({
      file: DISCOUNTS,
      method: 'percentOff',
    });
    expect(await coerce(readRange, { file: 'mvnw' })).toEqual({
      args: { file: 'mvnw', start: 1 },
      corrections: ['"start" 1 (none given)'],
    });
  });

  it('read_range of a class reads the class; of a file without lines, from line 1, and says so', async () => {
    expect(await coerce(readRange, { file: 'Discounts' })).toEqual({
      args: { file: DISCOUNTS, start: 4, end: 25 },
      corrections: [`file "Discounts" → file "${DISCOUNTS}", lines 4-25 (class com.acme.core.Discounts, line 4)`],
    });
    expect(await coerce(readRange, { file: 'Discounts.java' })).toEqual({
      args: { file: DISCOUNTS, start: 1 },
      corrections: [`file "Discounts.java" → "${DISCOUNTS}"`, '"start" 1 (none given)'],
    });
  });

  it('extract_test_code with a test class finds its file and its own test', async () => {
    const { args } = await coerce(extractTestCode, { class: 'OrderServiceTest' });
    expect(args).toEqual({ file: ORDERS_TEST });
    expect((await coerce(extractTestCode, { class: 'OrderServiceTest', method: 'goldPaysLess' })).args).toEqual({
      test: 'OrderServiceTest#goldPaysLess',
    });
  });

  it('search_code_base: a class narrows the glob to its file, a name alone becomes the pattern', async () => {
    expect((await coerce(searchCodeBase, { pattern: 'percent', class: 'Discounts' })).args).toEqual({
      pattern: 'percent',
      glob: DISCOUNTS,
    });
    expect(await coerce(searchCodeBase, { class: 'Discounts' })).toEqual({
      args: { pattern: 'Discounts' },
      corrections: ['"class" "Discounts" → "pattern" "Discounts"'],
    });
    expect((await coerce(searchCodeBase, { method: 'percentOff' })).args).toEqual({ pattern: 'percentOff' });
  });

  it('find_similar_api_calls takes the method as the call and says the class is not used; its file is resolved', async () => {
    expect(await coerce(findSimilarApiCalls, { class: 'Discounts', method: 'percentOff' })).toEqual({
      args: { call: 'percentOff' },
      corrections: [
        '"method" → "call"',
        'dropped "class" "Discounts": find_similar_api_calls does not look code up by class',
      ],
    });
    expect((await coerce(findSimilarApiCalls, { member: 'percentOff' })).args).toEqual({ call: 'percentOff' });
    expect(
      (await coerce(findSimilarApiCalls, { call: 'percentOff', file: 'com.acme.orders.OrderService', line: 16 })).args,
    ).toEqual({ call: 'percentOff', file: ORDERS, line: 16 });
  });

  it("a command tool's class is qualified and its file found", async () => {
    const lint: ToolSignature = {
      name: 'units_lint',
      parameters: {
        file: { type: 'string', description: 'a file', optional: true },
        class: { type: 'string', description: 'fully qualified class name' },
      },
    };
    expect((await coerce(lint, { class: 'Discounts' })).args).toEqual({
      class: 'com.acme.core.Discounts',
      file: DISCOUNTS,
    });
    expect((await coerce(lint, { file: 'Discounts.java' })).args).toEqual({ file: DISCOUNTS });
  });

  it('state tools keep their arguments and drop code names as before', async () => {
    const writeFix = STATE_TOOLS.write_fix;
    expect(await coerce(writeFix, { patch: 'x', class: 'Discounts' })).toEqual({
      args: { patch: 'x' },
      corrections: ['dropped unknown "class"'],
    });
  });
});

describe('line designations become start and end', () => {
  const forms: [Record<string, unknown>, Record<string, unknown>][] = [
    [{ lines: '10-12' }, { start: 10, end: 12 }],
    [{ lines: 'L10-L12' }, { start: 10, end: 12 }],
    [{ range: [10, 12] }, { start: 10, end: 12 }],
    [{ line_range: { from: 10, to: 12 } }, { start: 10, end: 12 }],
    [{ line: 14 }, { start: 14 }],
    [{ start: '10-12' }, { start: 10, end: 12 }],
    [{ start: [10, 12] }, { start: 10, end: 12 }],
    [{ start_line: 'L10' }, { start: 10 }],
  ];
  for (const [given, lines] of forms) {
    it(`read_range ${JSON.stringify(given)}`, async () => {
      expect((await coerce(readRange, { file: 'Discounts.java', ...given })).args).toEqual({
        file: DISCOUNTS,
        ...lines,
      });
    });
  }

  it('after the file: Discounts.java:10-12, Discounts.java#L10-L12, a stack frame', async () => {
    expect((await coerce(readRange, { file: 'Discounts.java:10-12' })).args).toEqual({
      file: DISCOUNTS,
      start: 10,
      end: 12,
    });
    expect((await coerce(readRange, { file: 'Discounts.java#L10-L12' })).args).toEqual({
      file: DISCOUNTS,
      start: 10,
      end: 12,
    });
    expect(await coerce(readRange, { file: 'at com.acme.core.Discounts.percentOff(Discounts.java:11)' })).toMatchObject(
      { args: { file: DISCOUNTS, start: 11 } },
    );
  });

  it('a tool with one line takes the first; a tool without lines says they are not used; a bad range is dropped with a note', async () => {
    expect((await coerce(findSimilarApiCalls, { call: 'x', file: DISCOUNTS, lines: '10-12' })).args).toEqual({
      call: 'x',
      file: DISCOUNTS,
      line: 10,
    });
    expect(
      (await coerce(extractMethod, { file: DISCOUNTS, method: 'percentOff', lines: '10-12' })).corrections,
    ).toEqual(['"lines" "10-12" → (the lines are not used by extract_method)']);
    const bad = await coerce(readRange, { file: DISCOUNTS, lines: 'the middle' });
    expect(bad.corrections).toEqual(['dropped "lines": "the middle" is no line or range', '"start" 1 (none given)']);
  });
});

describe('several matches: the candidates, each with the call rewritten for it', () => {
  it('a class in two modules', async () => {
    const { answer } = await coerce(extractMethod, { class: 'OrderService', method: 'total' });
    expect(answer).toBe(
      [
        '"class" "OrderService" and "method" "total" names 2 declarations in the project; extract_method was not run. Call it again with the one you mean:',
        `- ${LEGACY}:4 (method com.acme.legacy.OrderService.total): {"tool":"extract_method","args":{"file":"${LEGACY}","method":"total"}}`,
        `- ${ORDERS}:13 (method com.acme.orders.OrderService.total): {"tool":"extract_method","args":{"file":"${ORDERS}","method":"total"}}`,
      ].join('\n'),
    );
    expect(answer).not.toContain('needs');
  });

  it('a class name, a file name and a bare member name that fit both modules', async () => {
    expect((await coerce(getClassesAndMethods, { file: 'OrderService' })).answer).toContain(
      `- ${ORDERS}:6 (class com.acme.orders.OrderService): {"tool":"get_classes_and_methods","args":{"file":"${ORDERS}"}}`,
    );
    expect((await coerce(getClassesAndMethods, { file: 'OrderService.java' })).answer).toContain(
      `- ${LEGACY}: {"tool":"get_classes_and_methods","args":{"file":"${LEGACY}"}}`,
    );
    const member = await coerce(readRange, { file: 'total()' });
    expect(member.answer).toContain(
      `- ${ORDERS}:13 (method com.acme.orders.OrderService.total): {"tool":"read_range","args":{"file":"${ORDERS}","start":13,"end":17}}`,
    );
  });

  it('a qualified or partly qualified name picks one', async () => {
    expect((await coerce(getClassesAndMethods, { file: 'orders.OrderService' })).args).toEqual({ file: ORDERS });
    expect((await coerce(getClassesAndMethods, { file: 'legacy/OrderService.java' })).args).toEqual({ file: LEGACY });
  });
});

describe('no match: says so and lists the nearest names, with the call rewritten into the form that works', () => {
  it('a misspelled class', async () => {
    const { answer } = await coerce(extractMethod, { class: 'Discount', method: 'percentOff' });
    expect(answer).toBe(
      `"class" "Discount" and "method" "percentOff": no class, interface, enum or record named Discount in the project; nearest names: Discounts (${DISCOUNTS}). extract_method was not run. extract_method takes "file", "method", where "file" may also be a class (OrderService, com.acme.OrderService) or a member (OrderService#total); for example {"tool":"extract_method","args":{"file":"src/main/java/com/acme/App.java","method":"percentOff"}}`,
    );
  });

  it('a member the class does not declare, and a member no class declares', async () => {
    expect((await coerce(readRange, { file: 'Discounts.percentOf' })).answer).toContain(
      'Discounts has no method, constructor or field named percentOf; nearest names: percentOff',
    );
    expect((await coerce(extractMethod, { method: 'percentOf()' })).answer).toContain(
      `no method, constructor or field named percentOf in the project; nearest names: percentOff (${DISCOUNTS})`,
    );
  });

  it("a path that names no file is the tool's to answer, with the nearest file names", async () => {
    const { args, answer, result } = await call(readRange, { file: 'Discount.java', start: 1 });
    expect(answer).toBeUndefined();
    expect(args).toEqual({ file: 'Discount.java', start: 1 });
    expect(result.output).toBe(
      `no file Discount.java in the project, and no file named Discount.java anywhere in it; nearest names: ${DISCOUNTS}`,
    );
  });
});

describe('a required argument still missing gets the exact form that works', () => {
  it('with the call rewritten into it, never a bare "needs file"', async () => {
    expect((await coerce(extractMethod, { file: 'Discounts.java' })).answer).toBe(
      `extract_method needs "method" (method or constructor name, e.g. add). extract_method takes "file", "method", where "file" may also be a class (OrderService, com.acme.OrderService) or a member (OrderService#total); for example {"tool":"extract_method","args":{"file":"${DISCOUNTS}","method":"add"}}`,
    );
    expect((await coerce(getClassesAndMethods, {})).answer).toContain(
      'get_classes_and_methods needs "file" (project-relative path). get_classes_and_methods takes "file", where "file" may also be a class',
    );
    // The tool's short description leaves the example path to the form, where it stands in for the missing file.
    expect((await coerce(getClassesAndMethods, {})).answer).toContain(
      'for example {"tool":"get_classes_and_methods","args":{"file":"src/main/java/com/acme/App.java"}}',
    );
    expect((await coerce(searchCodeBase, { glob: '**/*.java' })).answer).toContain(
      'for example {"tool":"search_code_base","args":{"pattern":"calculateTotal or price * percent","glob":"**/*.java"}}',
    );
  });
});

describe('the index', () => {
  it('finds types by simple, qualified, partly qualified and nested name, and members with their overloads', async () => {
    expect((await typesNamed(view, 'OrderService')).map((site) => site.file).sort()).toEqual([LEGACY, ORDERS]);
    expect(await typesNamed(view, 'com.acme.core.Discounts.Tier')).toEqual([
      { file: DISCOUNTS, kind: 'enum', type: 'com.acme.core.Discounts.Tier', line: 22, startLine: 22, endLine: 24 },
    ]);
    expect(await membersNamed(view, 'applyPercent')).toEqual([
      {
        file: DISCOUNTS,
        kind: 'method',
        type: 'com.acme.core.Discounts',
        member: 'applyPercent',
        line: 14,
        startLine: 14,
        endLine: 20,
        overloads: 2,
      },
    ]);
    expect((await membersNamed(view, 'OrderService', [ORDERS]))[0]).toMatchObject({ kind: 'constructor', line: 9 });
    expect(await lookUpCode(view, { readings: [{ type: 'Nope' }] })).toEqual({
      missing: 'no class, interface, enum or record named Nope in the project',
      nearest: [],
    });
  });
});
