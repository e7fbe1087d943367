import { describe, expect, it } from 'vitest';
import { fixShape, formatKindUse, kindUse, pieceKind, pieceUse } from '../../src/bench/context-use.js';
import type { ContextPiece } from '../../src/model/prompts/index.js';

const CHANGE = [
  'diff --git a/src/main/java/com/acme/series/Series.java b/src/main/java/com/acme/series/Series.java',
  '--- a/src/main/java/com/acme/series/Series.java',
  '+++ b/src/main/java/com/acme/series/Series.java',
  '@@ -3,7 +3,7 @@ package com.acme.series;',
  ' public class Series {',
  '     public int sumUpTo(int n) {',
  '         int sum = 0;',
  '-        for (int i = 1; i < n; i++) {',
  '+        for (int i = 1; i <= n; i++) {',
  '             sum += i;',
  '         }',
  '         return sum;',
  '',
].join('\n');

const INSERTION = [
  '--- a/src/main/java/com/acme/Cart.java',
  '+++ b/src/main/java/com/acme/Cart.java',
  '@@ -10,4 +10,5 @@',
  '     public long total() {',
  '+        if (items == null) return Money.toCents(0);',
  '         long sum = 0;',
  '         return sum;',
  '     }',
  '',
].join('\n');

function piece(overrides: Partial<ContextPiece>): ContextPiece {
  return { text: 'x', tier: 'primary', score: 100, label: 'method Series.sumUpTo(int)', ...overrides };
}

describe('fixShape', () => {
  it('reads the old lines a change touches, per file', () => {
    expect(fixShape(CHANGE)).toEqual({
      touches: [{ path: 'src/main/java/com/acme/series/Series.java', lines: [6] }],
      introduced: new Set(),
    });
  });

  it('places an insertion between its neighbours and names what it brings in', () => {
    const shape = fixShape(INSERTION);
    expect(shape.touches).toEqual([{ path: 'src/main/java/com/acme/Cart.java', lines: [10, 11] }]);
    expect([...shape.introduced].sort()).toEqual(['Money', 'items', 'toCents']);
  });

  it('reads nothing from text that is not a patch', () => {
    expect(fixShape('The fix is to include n in the loop.')).toEqual({ touches: [], introduced: new Set() });
  });
});

describe('pieceUse', () => {
  const shape = fixShape(CHANGE);
  const path = 'src/main/java/com/acme/series/Series.java';

  it('is edited when the fix changes a line inside the piece', () => {
    expect(pieceUse(piece({ path, startLine: 4, text: 'a\nb\nc' }), shape)).toBe('edited');
  });

  it('is unused when the changed line is outside it, or in another file', () => {
    expect(pieceUse(piece({ path, startLine: 7, text: 'a\nb' }), shape)).toBe('unused');
    expect(pieceUse(piece({ path: 'src/main/java/Other.java', startLine: 1, text: 'a\nb\nc\nd\ne\nf' }), shape)).toBe(
      'unused',
    );
  });

  it('is referenced when it shows a name the fix brings in, a library member list included', () => {
    const insertion = fixShape(INSERTION);
    expect(
      pieceUse(
        piece({ path: 'src/main/java/com/acme/Money.java', startLine: 3, text: 'static long toCents(int c)' }),
        insertion,
      ),
    ).toBe('referenced');
    expect(
      pieceUse(
        piece({ text: 'class Money {\n  long toCents(int);\n}', heading: 'Money (jar)', tier: 'declaration' }),
        insertion,
      ),
    ).toBe('referenced');
    // A name that only contains one the fix brings in is not it.
    expect(pieceUse(piece({ text: 'long toCentsRounded(int)', tier: 'declaration' }), insertion)).toBe('unused');
  });

  it('counts the failing test as the expectation, not as unused', () => {
    expect(pieceUse(piece({ path: 'src/test/java/SeriesTest.java', startLine: 1, tier: 'test' }), shape)).toBe(
      'expectation',
    );
  });
});

describe('pieceKind', () => {
  it('names why a piece is shown without the names of the case, and what it is', () => {
    expect(pieceKind(piece({ tier: 'other', reason: 'rest of Series', label: 'method Series.other()' }))).toBe(
      'other · rest of the class · method',
    );
    expect(
      pieceKind(piece({ reason: 'where it fails: expected <10> but was <6>', label: 'part of method Big.run()' })),
    ).toBe('primary · where it fails · part of');
    expect(
      pieceKind(
        piece({ tier: 'declaration', reason: 'declarations push may mean', label: 'members of List', heading: 'List' }),
      ),
    ).toBe('declaration · declarations the symbol may mean · members of');
    expect(
      pieceKind(
        piece({
          tier: 'declaration',
          reason: 'declarations x may mean: Base (a supertype)',
          label: 'declaration method Base.x()',
        }),
      ),
    ).toBe('declaration · declarations the symbol may mean, a supertype · declaration');
  });
});

describe('kindUse', () => {
  it('sums pieces, tokens and uses per kind, and counts a case once', () => {
    const rest = piece({ tier: 'other', reason: 'rest of A', label: 'method A.b()' });
    const where = piece({ reason: 'where it fails: boom', label: 'method A.a()' });
    const rows = kindUse([
      {
        name: 'one',
        pieces: [
          { piece: where, use: 'edited', tokens: 50 },
          { piece: rest, use: 'unused', tokens: 30 },
          { piece: rest, use: 'unused', tokens: 20 },
        ],
      },
      { name: 'two', pieces: [{ piece: rest, use: 'referenced', tokens: 40 }] },
    ]);
    expect(rows).toEqual([
      {
        kind: 'other · rest of the class · method',
        pieces: 3,
        cases: 2,
        tokens: 90,
        edited: 0,
        referenced: 1,
        expectation: 0,
        unused: 2,
        casesUsed: 1,
      },
      {
        kind: 'primary · where it fails · method',
        pieces: 1,
        cases: 1,
        tokens: 50,
        edited: 1,
        referenced: 0,
        expectation: 0,
        unused: 0,
        casesUsed: 1,
      },
    ]);
    expect(formatKindUse(rows).split('\n')[2]).toBe(
      '| other · rest of the class · method | 3 | 2 | 90 | 64% | 0 | 1 | 0 | 2 | 1 |',
    );
  });
});
