/**
 * extract_test_code and find_similar_api_calls over a real project folder, read through
 * the real SourceView and src/java's parser.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnose/types.js';
import { editDistance, similarName } from '../../src/repair/agent/tools/find-similar-api-calls.js';
import { extractTestCode, findSimilarApiCalls } from '../../src/repair/agent/tools/index.js';
import { MAX_TOOL_OUTPUT_CHARS, type AgentToolContext } from '../../src/plugins/contracts.js';
import { createSourceView } from '../../src/codebase/index.js';

const TEST = 'src/test/java/com/acme/shop/CartTest.java';
const CART = 'src/main/java/com/acme/shop/Cart.java';
const FILES: Record<string, string[]> = {
  [TEST]: [
    'package com.acme.shop;', // 1
    '', // 2
    'import static org.junit.jupiter.api.Assertions.assertEquals;', // 3
    'import org.junit.jupiter.api.BeforeEach;', // 4
    'import org.junit.jupiter.api.Nested;', // 5
    'import org.junit.jupiter.api.Test;', // 6
    '', // 7
    'class CartTest {', // 8
    '    private Cart cart;', // 9
    '    private final Prices prices = new Prices(); // a comment', // 10
    '', // 11
    '    @BeforeEach', // 12
    '    void setUp() {', // 13
    '        cart = new Cart(prices);', // 14
    '    }', // 15
    '', // 16
    '    @Test', // 17
    '    void totalsTwoItems() {', // 18
    '        cart.add("apple", 2);', // 19
    '        assertEquals(4, cart.total());', // 20
    '        assertEquals(2, cart.count());', // 21
    '    }', // 22
    '', // 23
    '    void helper() { }', // 24
    '', // 25
    '    @Nested', // 26
    '    class Empty {', // 27
    '        private int expected = 0;', // 28
    '        @Test', // 29
    '        void totalIsZero() {', // 30
    '            assertEquals(expected, cart.total());', // 31
    '        }', // 32
    '    }', // 33
    '}', // 34
  ],
  [CART]: [
    'package com.acme.shop;', // 1
    '', // 2
    'import java.util.ArrayList;', // 3
    'import java.util.List;', // 4
    '', // 5
    'public class Cart {', // 6
    '    private final Prices prices;', // 7
    '    private final List<String> items = new ArrayList<>();', // 8
    '', // 9
    '    public Cart(Prices prices) { this.prices = prices; }', // 10
    '', // 11
    '    public void add(String item, int quantity) {', // 12
    '        for (int i = 0; i < quantity; i++) items.add(item);', // 13
    '    }', // 14
    '', // 15
    '    public int total() {', // 16
    '        int sum = 0;', // 17
    '        for (String item : items) sum += prices.priceOf(item);', // 18
    '        return sum;', // 19
    '    }', // 20
    '', // 21
    '    public int count() { return items.size(); }', // 22
    '}', // 23
  ],
  'src/main/java/com/acme/shop/Prices.java': [
    'package com.acme.shop;', // 1
    '', // 2
    'public class Prices {', // 3
    '    public int priceOf(String item) { return lookupPrice(item, 1); }', // 4
    '    int lookupPrice(String item, int fallback) { return item.length() > 3 ? 2 : fallback; }', // 5
    '    int priceFor(String item) { return priceOf(item); }', // 6
    '}', // 7
  ],
  'src/main/java/com/acme/shop/Checkout.java': [
    'package com.acme.shop;', // 1
    '', // 2
    'class Checkout {', // 3
    '    int pay(Cart cart, Prices prices) {', // 4
    '        int shipping = prices.priceOf("shipping");', // 5
    '        return cart.total() + shipping;', // 6
    '    }', // 7
    '}', // 8
  ],
  'src/main/java/com/acme/shop/Broken.java': [
    'package com.acme.shop;',
    'class Broken {',
    '    int priceOf(String x) { return 1 }',
    '}',
  ],
};

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mvnx-agent-java-tools-'));
  root = path.join(base, 'project');
  for (const [file, lines] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), `${lines.join('\n')}\n`);
  }
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const failing = (test: string, stack: string, line?: number): Diagnostic => ({
  kind: 'test',
  category: 'test',
  fixable: true,
  message: 'expected: <4> but was: <0>',
  file: TEST,
  ...(line ? { line } : {}),
  test,
  testFailure: {
    className: test.split('#')[0]!,
    method: test.split('#')[1]!,
    outcome: 'failure',
    failureType: 'org.opentest4j.AssertionFailedError',
    stackTrace: stack,
    reportFile: 'target/surefire-reports/TEST-x.xml',
  },
  fingerprint: 'f',
});

function context(diagnostics: Diagnostic[] = []): AgentToolContext {
  return { view: createSourceView(root), runTests: async () => ({ ok: true, output: 'not used' }), diagnostics };
}

describe('extract_test_code', () => {
  const stack =
    'org.opentest4j.AssertionFailedError: expected: <4> but was: <0>\n\tat com.acme.shop.CartTest.totalsTwoItems(CartTest.java:20)';

  it('shows the first failing test without arguments: fields, set-up, and the failing line marked from the stack trace', async () => {
    const result = await extractTestCode.run(
      {},
      context([failing('com.acme.shop.CartTest#totalsTwoItems', stack, 20)]),
    );
    expect(result.ok).toBe(true);
    expect(result.output.split('\n')).toEqual([
      `com.acme.shop.CartTest#totalsTwoItems in ${TEST}`,
      'failed: expected: <4> but was: <0>',
      'fields:',
      '     9|     private Cart cart;',
      '',
      '    10|     private final Prices prices = new Prices(); // a comment',
      'set-up and tear-down:',
      '    12|     @BeforeEach',
      '    13|     void setUp() {',
      '    14|         cart = new Cart(prices);',
      '    15|     }',
      'test (>> marks line 20, where it failed):',
      '    17|     @Test',
      '    18|     void totalsTwoItems() {',
      '    19|         cart.add("apple", 2);',
      '>>  20|         assertEquals(4, cart.total());',
      '    21|         assertEquals(2, cart.count());',
      '    22|     }',
    ]);
  });

  it('finds a named test of another class, and marks its assertions when no stack trace names the line; fields of the outer class come along for a @Nested test', async () => {
    const output = (await extractTestCode.run({ test: 'CartTest$Empty#totalIsZero' }, context())).output;
    expect(output).toContain(`com.acme.shop.CartTest$Empty#totalIsZero in ${TEST}`);
    expect(output).toContain('     9|     private Cart cart;');
    expect(output).toContain('    28|         private int expected = 0;');
    expect(output).toContain('test (>> marks its assertions):');
    expect(output).toContain('>>  31|             assertEquals(expected, cart.total());');
  });

  it('takes Class.method, Class#method() and a bare method that the diagnosis names', async () => {
    const diagnostics = [failing('com.acme.shop.CartTest#totalsTwoItems', stack)];
    for (const test of ['CartTest.totalsTwoItems', 'com.acme.shop.CartTest#totalsTwoItems()', 'totalsTwoItems']) {
      const result = await extractTestCode.run({ test }, context(diagnostics));
      expect(result.output.split('\n')[0], test).toBe(`com.acme.shop.CartTest#totalsTwoItems in ${TEST}`);
    }
  });

  it('answers each bad call with one line: no failing test, a missing class or method, a file that does not parse', async () => {
    expect(await extractTestCode.run({}, context())).toEqual({
      ok: false,
      output: 'extract_test_code needs "test" (com.acme.FooTest#method): no test failed in this build',
    });
    expect(await extractTestCode.run({ test: 'NoSuchTest#x' }, context())).toEqual({
      ok: false,
      output:
        'extract_test_code found no class NoSuchTest in the project; give the test as {"tool":"extract_test_code","args":{"test":"com.acme.FooTest#x"}}, or its "file"',
    });
    expect(await extractTestCode.run({ test: 'CartTest#nothing' }, context())).toEqual({
      ok: false,
      output: `no test method nothing in ${TEST}; its methods are: setUp, totalsTwoItems, helper, totalIsZero`,
    });
    expect(
      await extractTestCode.run({ test: 'x#y', file: 'src/main/java/com/acme/shop/Broken.java' }, context()),
    ).toEqual({
      ok: false,
      output: `src/main/java/com/acme/shop/Broken.java does not parse as Java (expected ';' but found '}' at line 3, column 38); read it with {"tool":"read_range","args":{"file":"src/main/java/com/acme/shop/Broken.java","start":1}}`,
    });
    expect(await extractTestCode.run({ test: 'a b' }, context())).toEqual({
      ok: false,
      output: 'extract_test_code needs "test" as Class#method, got "a b"',
    });
    expect(await extractTestCode.run({ test: 7 }, context())).toEqual({
      ok: false,
      output: 'extract_test_code needs "test" as text (the test, e.g. com.acme.FooTest#method), got 7',
    });
  });
});

describe('find_similar_api_calls', () => {
  it('lists calls of the same method across the project with the line and the method they are in, then similar names and declarations', async () => {
    const result = await findSimilarApiCalls.run({ call: 'prices.priceOf(item)' }, context());
    expect(result.ok).toBe(true);
    expect(result.output.split('\n')).toEqual([
      'calls of priceOf (3):',
      `${CART}:18: for (String item : items) sum += prices.priceOf(item);  (in Cart.total)`,
      'src/main/java/com/acme/shop/Checkout.java:5: int shipping = prices.priceOf("shipping");  (in Checkout.pay)',
      'src/main/java/com/acme/shop/Prices.java:6: int priceFor(String item) { return priceOf(item); }  (in Prices.priceFor)',
      'calls of similar names (lookupPrice):',
      'src/main/java/com/acme/shop/Prices.java:4: public int priceOf(String item) { return lookupPrice(item, 1); }  (in Prices.priceOf)  [lookupPrice]',
      'declared methods named priceOf or similar:',
      'src/main/java/com/acme/shop/Prices.java:4: public int priceOf(String item)',
      'src/main/java/com/acme/shop/Prices.java:5: int lookupPrice(String item, int fallback)',
      'src/main/java/com/acme/shop/Prices.java:6: int priceFor(String item)',
    ]);
  });

  it('leaves out the call the model is looking at (file and line), and finds calls of similar names when the name itself is never called', async () => {
    const own = await findSimilarApiCalls.run({ call: 'priceOf', file: CART, line: 18 }, context());
    expect(own.output).toContain('calls of priceOf (2):');
    expect(own.output).not.toContain(`${CART}:18`);
    const misspelled = await findSimilarApiCalls.run({ call: 'priseOf' }, context());
    expect(misspelled.output.split('\n').slice(0, 2)).toEqual([
      'no call of priseOf elsewhere in the project',
      'calls of similar names (priceOf):',
    ]);
    expect(misspelled.output).toContain('  [priceOf]');
  });

  it('answers bad calls with one line', async () => {
    expect(await findSimilarApiCalls.run({}, context())).toEqual({
      ok: false,
      output: 'find_similar_api_calls needs "call" (a method name or the call as written)',
    });
    expect(await findSimilarApiCalls.run({ call: '+++' }, context())).toEqual({
      ok: false,
      output: 'find_similar_api_calls needs "call" as a method name or a call such as list.add(x), got "+++"',
    });
    expect(await findSimilarApiCalls.run({ call: 'x', file: '../etc/passwd' }, context())).toEqual({
      ok: false,
      output:
        'find_similar_api_calls refuses "../etc/passwd": files outside the project are not readable; give a path inside the project without ".."',
    });
  });

  it('stays within the output limit on a project with many calls', async () => {
    const many = path.join(root, 'src/main/java/com/acme/shop/Many.java');
    await writeFile(
      many,
      [
        'package com.acme.shop;',
        'class Many {',
        '  int f(Prices p) {',
        ...Array.from({ length: 300 }, () => `    p.priceOf("${'x'.repeat(200)}");`),
        '    return 0;',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    try {
      const result = await findSimilarApiCalls.run({ call: 'priceOf' }, context());
      expect(result.output.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
      expect(result.output).toContain('calls of priceOf (303):');
    } finally {
      await rm(many);
    }
  });
});

describe('similar names', () => {
  it('counts a small typo or most of the same words as similar, and nothing else', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(similarName('priceOf', 'priseOf')).toBe(true);
    expect(similarName('priceOf', 'priceFor')).toBe(true);
    expect(similarName('sortArray', 'fastSortArray')).toBe(true);
    expect(similarName('sayHello', 'greeting')).toBe(false);
    expect(similarName('add', 'add')).toBe(false);
    expect(similarName('getName', 'getValue')).toBe(false);
  });
});
