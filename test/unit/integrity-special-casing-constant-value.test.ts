/**
 * constant-value.ts on its own: the values the special-casing check compares (a test's
 * expected value against the constant a patch tests for), worked out of Java text. Each case
 * pairs a form that is a constant with the look-alike that is not, or with the form whose
 * value differs, so an evaluator that got the form wrong gives another answer.
 */
import { describe, expect, it } from 'vitest';
import {
  conditionParts,
  constantValue,
  describeValue,
  equalityOf,
  literalsIn,
  tokenize,
} from '../../src/repair/integrity/constant-value.js';

describe('tokenize', () => {
  it('joins a dotted name written with spaces, and keeps two-character operators whole', () => {
    expect(tokenize('Fixtures . INPUT == a && b || c != d >= e <= f << g >>> h >> i')).toEqual([
      'Fixtures.INPUT',
      '==',
      'a',
      '&&',
      'b',
      '||',
      'c',
      '!=',
      'd',
      '>=',
      'e',
      '<=',
      'f',
      '<<',
      'g',
      '>>>',
      'h',
      '>>',
      'i',
    ]);
  });

  it('reads a second text from the start, not from where the first one ended', () => {
    expect(tokenize('abc + 1')).toEqual(['abc', '+', '1']);
    expect(tokenize('x')).toEqual(['x']);
  });
});

describe('constantValue: casts, brackets and signs', () => {
  it.each<[string, string | undefined]>([
    ['(int) 7', 'n:7'],
    ['(long) 7', 'n:7'],
    ['(short) 7', 'n:7'],
    ['(byte) 7', 'n:7'],
    ['(double) 7', 'n:7'],
    ['(float) 7', 'n:7'],
    ['(char) 7', 'n:7'],
    ['(long) -7', 'n:-7'],
    // Not a primitive cast: the name in brackets is an unknown value.
    ['(Long) 7', undefined],
    ['(longer) 7', undefined],
    ['(along) 7', undefined],
    ['(int 7)', undefined],
    ['(7)', 'n:7'],
    ['((2 + 3))', 'n:5'],
    ['(7', undefined],
    ['(7]', undefined],
    ['7)', undefined],
    ['(', undefined],
    ['+7', 'n:7'],
    ['- -7', 'n:7'],
    ['-+7', 'n:-7'],
    ['-"a"', undefined],
    ['-true', undefined],
    ['+"a"', undefined],
    ['-', undefined],
  ])('%s -> %s', (text, value) => {
    expect(constantValue(text)).toBe(value);
  });
});

describe('constantValue: arithmetic', () => {
  it.each<[string, string | undefined]>([
    ['1 + 2 * 3', 'n:7'],
    ['(1 + 2) * 3', 'n:9'],
    ['10 - 2 - 3', 'n:5'],
    ['2 * 3 % 4', 'n:2'],
    ['24 / 4 / 2', 'n:3'],
    ['7 % 4', 'n:3'],
    ['10 - 2 + 1', 'n:9'],
    ['7 / 2', 'n:3'],
    ['-7 / 2', 'n:-3'],
    ['7.0 / 2', 'n:3.5'],
    ['7 / 2.0', 'n:3.5'],
    ['7 % 0', undefined],
    ['7.0 / 0', undefined],
    ['7 / 0.0', undefined],
    ['"a" + "b"', 's:ab'],
    ['1 + "a"', 's:1a'],
    ['"a" + 1 + 2', 's:a12'],
    ['"a" + 2.5', 's:a2.5'],
    ['\'x\' + "y"', 's:xy'],
    ['"a" - 1', undefined],
    ['"a" * 2', undefined],
    ['true + 1', undefined],
    ['1 + true', undefined],
    ['null + 1', undefined],
    ["'a' + 1", undefined],
    ['7 8', undefined],
    ['7 +', undefined],
    ['7 < 8', undefined],
    ['2 ^ 3', undefined],
  ])('%s -> %s', (text, value) => {
    expect(constantValue(text)).toBe(value);
  });
});

describe('constantValue: literals', () => {
  it.each<[string, string | undefined]>([
    ['0b101', 'n:5'],
    ['0B1_01L', 'n:5'],
    ['0x1F', 'n:31'],
    ['0X1fL', 'n:31'],
    ['0x1_0', 'n:16'],
    ['1_000L', 'n:1000'],
    ['017', 'n:17'],
    ['1e3', 'n:1000'],
    ['1.5f', 'n:1.5'],
    ['2d', 'n:2'],
    ['2D', 'n:2'],
    ['3F', 'n:3'],
    ['.5', 'n:0.5'],
    ['2.5E-1', 'n:0.25'],
    ['"a\\tb\\nc\\rd\\0e"', 's:a\tb\nc\rd\0e'],
    ['"\\q\\"\\\\"', 's:q"\\'],
    ["'\\n'", 'c:\n'],
    ["'\\\\'", 'c:\\'],
    ['""', 's:'],
    ['false', 'b:false'],
    ['True', undefined],
    ['nulls', undefined],
    ['abc', undefined],
  ])('%s -> %s', (text, value) => {
    expect(constantValue(text)).toBe(value);
  });

  it('whole numbers stay whole in division, fractions do not', () => {
    expect(constantValue('2.0 / 4')).toBe('n:0.5');
    expect(constantValue('2 / 4')).toBe('n:0');
    expect(constantValue('1e1 / 4')).toBe('n:2.5');
  });
});

describe('constantValue: named constants', () => {
  const names = new Map([
    ['INPUT', 'n:7'],
    ['HALF', 'n:2.5'],
    ['CODE', 's:a:b'],
    ['LETTER', 'c:x'],
    ['ON', 'b:true'],
    ['NOTHING', 'null'],
    ['Fixtures.LONG', 'n:9'],
  ]);

  it.each<[string, string | undefined]>([
    ['INPUT + 1', 'n:8'],
    ['INPUT / 2', 'n:3'],
    ['HALF / 2', 'n:1.25'],
    ['HALF * 2', 'n:5'],
    ['a.b.INPUT', 'n:7'],
    ['Fixtures.LONG', 'n:9'],
    ['Other.LONG', undefined],
    ['CODE', 's:a:b'],
    ['CODE + 1', 's:a:b1'],
    ['LETTER', 'c:x'],
    ['ON', 'b:true'],
    ['NOTHING', 'null'],
    ['-ON', undefined],
    ['MISSING', undefined],
    ['INPUTS', undefined],
  ])('%s -> %s', (text, value) => {
    expect(constantValue(text, names)).toBe(value);
  });
});

describe('describeValue', () => {
  it.each([
    ['n:49', '49'],
    ['n:-1.5', '-1.5'],
    ['s:a"b', '"a\\"b"'],
    ['s:', '""'],
    ['c:x', "'x'"],
    ['b:true', 'true'],
    ['null', 'null'],
  ])('%s reads %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });
});

describe('literalsIn', () => {
  it('takes a minus as a sign after an operator, a bracket, a comma or at the start, not after a value', () => {
    expect(literalsIn('-1')).toEqual(['n:-1']);
    expect(literalsIn('x - 1, y-2, f(a) - 3, a[0] - 4, "s" - 5, \'c\' - 6, 7 - 8, 1. - 9')).toEqual([
      'n:1',
      'n:2',
      'n:3',
      'n:0',
      'n:4',
      's:s',
      'n:5',
      'c:c',
      'n:6',
      'n:7',
      'n:8',
      'n:1',
      'n:9',
    ]);
    expect(literalsIn('f(-1, * -2, [-3, = -4, + -5')).toEqual(['n:-1', 'n:-2', 'n:-3', 'n:-4', 'n:-5']);
    expect(literalsIn('$x - 1, _y - 2')).toEqual(['n:1', 'n:2']);
  });

  it('takes booleans, strings, chars and numbers, not null, names or a lone dot', () => {
    expect(literalsIn('f(true, false, null, name, a . b, .5, "t", \'u\')')).toEqual([
      'b:true',
      'b:false',
      'n:0.5',
      's:t',
      'c:u',
    ]);
    expect(literalsIn('trueish + falsely')).toEqual([]);
  });
});

describe('conditionParts', () => {
  it.each<[string, string[]]>([
    ['n == 7', ['n == 7']],
    ['a && b || c', ['a', 'b', 'c']],
    ['(a || b) && c', ['a', 'b', 'c']],
    ['((n == 7))', ['n == 7']],
    ['(a) && (b)', ['a', 'b']],
    ['f(a && b)', ['f ( a && b )']],
    ['f(a) && g(b)', ['f ( a )', 'g ( b )']],
    ['(a) || f(b)', ['a', 'f ( b )']],
    ['', []],
    ['()', []],
  ])('%s -> %j', (condition, parts) => {
    expect(conditionParts(condition)).toEqual(parts);
  });
});

describe('equalityOf', () => {
  it.each<[string, ReturnType<typeof equalityOf>]>([
    ['!(n == 7)', { subject: 'n', value: 'n:7', negated: true }],
    ['!!(n == 7)', { subject: 'n', value: 'n:7', negated: false }],
    ['!(n != 7)', { subject: 'n', value: 'n:7', negated: false }],
    ['(n == 7)', { subject: 'n', value: 'n:7', negated: false }],
    ['f(a) == -1', { subject: 'f ( a )', value: 'n:-1', negated: false }],
    ['x.equals("a") == true', { subject: 'x.equals ( "a" )', value: 'b:true', negated: false }],
    ['f(n == 7)', undefined],
    ['7 == 8', undefined],
    ['java.util.Objects.equals(code, "JPY")', { subject: 'code', value: 's:JPY', negated: false }],
    ['!Objects.equals("JPY", code)', { subject: 'code', value: 's:JPY', negated: true }],
    ['Objects.equals(f(a, b), 3)', { subject: 'f ( a , b )', value: 'n:3', negated: false }],
    ['Objects.equals(code)', undefined],
    ['Objects.equals(a, b)', undefined],
    ['my.Objects.equals(code, "JPY")', undefined],
    ['code.equals("JPY")', { subject: 'code', value: 's:JPY', negated: false }],
    ['s.trim().equals("x")', { subject: 's.trim ( )', value: 's:x', negated: false }],
    ['code . equals ( "JPY" )', { subject: 'code', value: 's:JPY', negated: false }],
    ['"JPY".equalsIgnoreCase(code)', { subject: 'code', value: 's:JPY', negated: false }],
    ['code.equals("a") + x.equals(y)', undefined],
    ['code.equalsAny("a")', undefined],
    ['code.equals("a").hashCode()', undefined],
    ['n == INPUT', undefined],
  ])('%s', (text, equality) => {
    expect(equalityOf(text)).toEqual(equality);
  });

  it('reads a named constant on either side', () => {
    expect(equalityOf('n == INPUT', new Map([['INPUT', 'n:7']]))).toEqual({
      subject: 'n',
      value: 'n:7',
      negated: false,
    });
    expect(equalityOf('Limits.INPUT.equals(n)', new Map([['INPUT', 'n:7']]))).toEqual({
      subject: 'n',
      value: 'n:7',
      negated: false,
    });
  });
});

// Cases from the integrity-constant-value mutation run's survivors (bench/results-mutation.md).
describe('constant-value edges the mutation run found untested', () => {
  it.each<[string, string | undefined]>([
    ['(int 7 8', undefined],
    ['-2.5', 'n:-2.5'],
    ['-(1.5)', 'n:-1.5'],
    ['"a" + null', 's:anull'],
    ['.', undefined],
    ['7 * 0', 'n:0'],
    ['7 - 0', 'n:7'],
    ['7 + 0', 'n:7'],
  ])('constantValue %s -> %s', (text, value) => {
    expect(constantValue(text)).toBe(value);
  });

  it('a named null constant reads as null in a string', () => {
    expect(constantValue('"a" + NONE', new Map([['NONE', 'null']]))).toBe('s:anull');
  });

  it('a sign on a value that is not a number gives no literal', () => {
    expect(literalsIn('f(-"a")')).toEqual([]);
  });

  it('parts keep the spaces between their tokens; an unclosed bracket is not unwrapped', () => {
    expect(conditionParts('x instanceof Foo && n == 5')).toEqual(['x instanceof Foo', 'n == 5']);
    expect(conditionParts('((a)')).toEqual(['( ( a )']);
  });

  it.each<[string, ReturnType<typeof equalityOf>]>([
    ['n + 1 == 7', { subject: 'n + 1', value: 'n:7', negated: false }],
    ['Objects.equals(n + 1, 7)', { subject: 'n + 1', value: 'n:7', negated: false }],
    ['7 == n + 1', { subject: 'n + 1', value: 'n:7', negated: false }],
    ['Objects.equals(7, n + 1)', { subject: 'n + 1', value: 'n:7', negated: false }],
    ['code.equals("a" + "b")', { subject: 'code', value: 's:ab', negated: false }],
    ['Objects.equals(code, "JPY") ? a : b', undefined],
    ['code.equals("JPY") ? a : b', undefined],
  ])('equalityOf %s', (text, equality) => {
    expect(equalityOf(text)).toEqual(equality);
  });
});
