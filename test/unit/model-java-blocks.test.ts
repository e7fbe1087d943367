import { describe, expect, it } from 'vitest';
import { findBraceBlocks } from '../../src/model/prompts/java-blocks.js';

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
