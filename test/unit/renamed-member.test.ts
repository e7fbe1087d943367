import { describe, expect, it } from 'vitest';
import { parseJavapOutput, splitTopLevel } from '../../src/codebase/class-members.js';
import { accepts, codeOccurrences, isNearName, nameWords } from '../../src/repair/fixers/renamed-member.js';

describe('isNearName', () => {
  it.each([
    ['_fromEmptyValue', '_fromEmptyString', true],
    ['sublist', 'subList', true],
    ['removeRnage', 'removeRange', true],
    ['totl', 'total', true],
    ['getValu', 'getValue', true],
    ['amountDue', 'amountDueCents', true],
    ['push', 'add', false],
    ['size', 'length', false],
    ['sayHello', 'greeting', false],
    ['getName', 'getId', false],
    ['amountDue', 'balanceCents', false],
    ['_fromEmptyValue', 'getEmptyValue', false],
    ['_fromEmptyValue', '_fromNullToken', false],
    ['total', 'total', false],
    ['ab', 'ac', false],
  ])('%s -> %s: %s', (wanted, candidate, near) => {
    expect(isNearName(wanted, candidate)).toBe(near);
  });

  it('splits camelCase, acronyms, digits and leading underscores into words', () => {
    expect(nameWords('_fromEmptyValue')).toEqual(['_', 'from', 'Empty', 'Value']);
    expect(nameWords('parseURL2Fast')).toEqual(['parse', 'URL', '2', 'Fast']);
  });
});

describe('codeOccurrences', () => {
  it('finds the name in code only: not after a char literal of a quote, in a trailing comment, a string or a text block', () => {
    const line = `    if (c == '"') x.getNmae(); // getNmae, "getNmae"`;
    const text = [
      'class A {',
      '  void f() {',
      line,
      '    String s = """',
      '      getNmae',
      '      """; y.getNmae();',
      '  }',
      '}',
    ].join('\n');
    expect(codeOccurrences(text, 3, 'getNmae')).toEqual([line.indexOf('getNmae')]);
    expect(codeOccurrences(text, 5, 'getNmae')).toEqual([]);
    expect(codeOccurrences(text, 6, 'getNmae')).toEqual([13]);
    expect(codeOccurrences(text, 3, 'get$Nmae')).toEqual([]);
  });
});

describe('accepts', () => {
  it.each([
    ['ReadContext', 'com.acme.json.ReadContext', [], true],
    ['long', 'int', [], true],
    ['int', 'long', [], false],
    ['Integer', 'int', [], true],
    ['Object', 'java.lang.String', [], true],
    ['T', 'java.lang.String', ['T'], true],
    ['E', 'int', [], true],
    ['List<String>', 'java.util.List<java.lang.String>', [], true],
    ['String', 'int', [], false],
    ['String', '<nulltype>', [], true],
    ['int', '<nulltype>', [], false],
  ] as const)('%s takes %s: %s', (parameter, argument, variables, ok) => {
    expect(accepts(parameter, argument, variables)).toBe(ok);
  });
});

describe('parseJavapOutput', () => {
  const output = [
    'Compiled from "AbstractList.java"',
    'public abstract class java.util.AbstractList<E> extends java.util.AbstractCollection<E> implements java.util.List<E> {',
    '  protected transient int modCount;',
    '  protected java.util.AbstractList();',
    '  public boolean add(E);',
    '  public boolean addAll(int, java.util.Collection<? extends E>);',
    '  protected void removeRange(int, int);',
    '  public static <T> java.util.List<T> copy(java.util.Map<java.lang.String, T>) throws java.io.IOException;',
    '}',
    'Compiled from "Map.java"',
    'public interface java.util.Map$Entry<K, V> extends java.lang.Comparable<K>, java.io.Serializable {',
    '  public abstract K getKey();',
    '}',
  ].join('\n');

  it('reads each class with its supertypes and members', () => {
    const [list, entry] = parseJavapOutput(output);
    expect(list).toMatchObject({
      name: 'java.util.AbstractList',
      kind: 'class',
      superclass: 'java.util.AbstractCollection<E>',
      interfaces: ['java.util.List<E>'],
    });
    expect(list!.members.map((m) => [m.kind, m.name, m.parameters, m.modifiers.join(' ')])).toEqual([
      ['field', 'modCount', [], 'protected transient'],
      ['constructor', 'AbstractList', [], 'protected'],
      ['method', 'add', ['E'], 'public'],
      ['method', 'addAll', ['int', 'java.util.Collection<? extends E>'], 'public'],
      ['method', 'removeRange', ['int', 'int'], 'protected'],
      ['method', 'copy', ['java.util.Map<java.lang.String, T>'], 'public static'],
    ]);
    expect(entry).toMatchObject({
      name: 'java.util.Map$Entry',
      kind: 'interface',
      interfaces: ['java.lang.Comparable<K>', 'java.io.Serializable'],
    });
    expect(entry!.superclass).toBeUndefined();
  });

  it('splits type lists at top-level commas only', () => {
    expect(splitTopLevel('int, java.util.Map<K, V>, E')).toEqual(['int', 'java.util.Map<K, V>', 'E']);
    expect(parseJavapOutput('Error: class not found: com.acme.Nope')).toEqual([]);
  });
});
