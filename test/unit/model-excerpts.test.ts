import { describe, expect, it } from 'vitest';
import { findBraceBlocks } from '../../src/model/prompts/java-blocks.js';
import { selectSourceExcerpts } from '../../src/model/prompts/excerpts.js';

const ORDER_SERVICE = [
  '/*', // 1
  ' * Copyright Acme. Braces in comments do not count: { {', // 2
  ' */', // 3
  'package com.acme.orders;', // 4
  '', // 5
  'import java.util.Map;', // 6
  'import java.util.Objects;', // 7
  '', // 8
  'public class OrderService {', // 9
  '    private final Map<String, Integer> stock;', // 10
  '', // 11
  '    public OrderService(Map<String, Integer> stock) {', // 12
  '        this.stock = Objects.requireNonNull(stock);', // 13
  '    }', // 14
  '', // 15
  '    @Deprecated', // 16
  '    public int reserve(String sku,', // 17
  '                       int quantity) {', // 18
  '        String label = "{not a brace}";', // 19
  "        char open = '{';", // 20
  '        int available = stock.getOrDefault(sku, 0);', // 21
  '        if (available < quantity) {', // 22
  '            throw new IllegalStateException("short: " + sku);', // 23
  '        }', // 24
  '        List<String> log = new ArrayList<>();', // 25
  '        stock.put(sku, available - quantity);', // 26
  '        return available - quantity;', // 27
  '    }', // 28
  '', // 29
  ...Array.from({ length: 40 }, (_, i) => `    public int helper${i}() { return ${i}; }`), // 30..69
  '}', // 70
].join('\n');

const lineNumbersOf = (excerpts: { startLine: number; text: string }[]) =>
  excerpts.flatMap((e) => e.text.split('\n').map((_, i) => e.startLine + i));

describe('findBraceBlocks', () => {
  it('finds methods and types, ignoring braces in comments, strings and chars, with multi-line signatures and annotations', () => {
    const lines = ORDER_SERVICE.split('\n');
    const blocks = findBraceBlocks(lines);
    const reserve = blocks.find((b) => b.open === 18);
    expect(reserve).toMatchObject({ kind: 'method', close: 28, declarationStart: 16 });
    expect(blocks.find((b) => b.open === 12)).toMatchObject({ kind: 'method', close: 14 });
    expect(blocks.find((b) => b.open === 9)).toMatchObject({ kind: 'type', close: 70 });
    expect(blocks.find((b) => b.open === 22)).toMatchObject({ kind: 'other', close: 24 });
  });

  it('runs an unclosed block to the end of the file', () => {
    const blocks = findBraceBlocks(['class A {', '  void f() {', '    g();', '}']);
    expect(blocks.find((b) => b.open === 1)).toMatchObject({ kind: 'type', close: 4 });
    expect(blocks.find((b) => b.open === 2)).toMatchObject({ kind: 'method', close: 4 });
  });

  it('does not take lambdas, anonymous classes or control blocks for methods', () => {
    const lines = ['class A {', '  void f() {', '    items.forEach(x -> {', '    });', '    Runnable r = new Runnable() {', '    };', '    for (int i = 0; i < 3; i++) {', '    }', '  }', '}'];
    const kinds = Object.fromEntries(findBraceBlocks(lines).map((b) => [b.open, b.kind]));
    expect(kinds).toEqual({ 1: 'type', 2: 'method', 3: 'other', 5: 'other', 7: 'other' });
  });

  it('reads Allman braces, clauses wrapped before the brace, annotations with braces, compact constructors and two blocks on one line', () => {
    const lines = [
      'public class Orders', // 1
      '    extends Base', // 2
      '    implements Runnable', // 3
      '{', // 4
      '    @SuppressWarnings({"unchecked", "rawtypes"}) void load() {', // 5
      '    }', // 6
      '    public void run()', // 7
      '        throws IllegalStateException', // 8
      '    {', // 9
      '        if (ready)', // 10
      '        {', // 11
      '        }', // 12
      '    }', // 13
      '    record Range(int low, int high) { public Range { } }', // 14
      '    static final class Empty { Empty() { } }', // 15
      '}', // 16
    ];
    const blocks = findBraceBlocks(lines).map((b) => [b.open, b.kind, b.declarationStart]);
    expect(blocks).toEqual([
      [4, 'type', 1],
      [5, 'other', 5],
      [5, 'method', 5],
      [9, 'method', 7],
      [11, 'other', 10],
      // Two blocks opening on one line: the inner one closes first.
      [14, 'method', 14],
      [14, 'type', 14],
      [15, 'method', 15],
      [15, 'type', 15],
    ]);
  });
});

describe('selectSourceExcerpts', () => {
  it('keeps the package and imports, the class line and the whole enclosing method of the error', () => {
    const excerpts = selectSourceExcerpts(ORDER_SERVICE, 'src/main/java/com/acme/orders/OrderService.java', [25], 10_000);
    const lines = lineNumbersOf(excerpts);
    for (const line of [4, 6, 7, 9, ...Array.from({ length: 13 }, (_, i) => 16 + i)]) expect(lines).toContain(line);
    expect(lines).not.toContain(2);
    expect(lines).not.toContain(60);
    expect(excerpts.every((e) => e.path === 'src/main/java/com/acme/orders/OrderService.java')).toBe(true);
  });

  it('returns the exact text of each run of lines, starting at its own line number', () => {
    const excerpts = selectSourceExcerpts(ORDER_SERVICE, 'O.java', [25], 10_000);
    const all = ORDER_SERVICE.split('\n');
    for (const excerpt of excerpts) {
      expect(excerpt.text).toBe(all.slice(excerpt.startLine - 1, excerpt.startLine - 1 + excerpt.text.split('\n').length).join('\n'));
    }
    expect(excerpts.length).toBeGreaterThan(1);
  });

  it('stays within the budget, keeping the lines nearest the error first', () => {
    for (const budget of [60, 200, 400, 800]) {
      const excerpts = selectSourceExcerpts(ORDER_SERVICE, 'O.java', [25], budget);
      const chars = excerpts.reduce((sum, e) => sum + e.text.split('\n').reduce((s, l) => s + l.length + 1, 0), 0);
      expect(chars).toBeLessThanOrEqual(budget);
      expect(lineNumbersOf(excerpts)).toContain(25);
    }
    const tight = lineNumbersOf(selectSourceExcerpts(ORDER_SERVICE, 'O.java', [25], 300));
    expect(tight).toEqual(expect.arrayContaining([23, 24, 25, 26, 27]));
    expect(tight).not.toContain(17);
  });

  it('covers several focus lines and clamps lines beyond the end of the file', () => {
    const lines = lineNumbersOf(selectSourceExcerpts(ORDER_SERVICE, 'O.java', [13, 500], 10_000));
    expect(lines).toEqual(expect.arrayContaining([12, 13, 14, 70]));
  });

  it('cuts a single overlong line rather than returning nothing', () => {
    const excerpts = selectSourceExcerpts('x'.repeat(500), 'Big.java', [1], 50);
    expect(excerpts).toEqual([{ path: 'Big.java', startLine: 1, text: 'x'.repeat(49) }]);
  });

  it('handles CRLF files and an empty file', () => {
    const excerpts = selectSourceExcerpts('package a;\r\nclass A {\r\n  int x\r\n}\r\n', 'A.java', [3], 1000);
    expect(excerpts).toEqual([{ path: 'A.java', startLine: 1, text: 'package a;\nclass A {\n  int x\n}' }]);
    expect(selectSourceExcerpts('', 'E.java', [1], 100)).toEqual([]);
  });

  it('explains a bad budget or focus line', () => {
    expect(() => selectSourceExcerpts('a', 'A.java', [1], 0)).toThrow(/budgetChars must be a positive number, got 0/);
    expect(() => selectSourceExcerpts('a', 'A.java', [1], Number.NaN)).toThrow(/budgetChars/);
    expect(() => selectSourceExcerpts('a', 'A.java', [1.5], 10)).toThrow(/focus lines must be integers, got 1.5/);
  });
});
