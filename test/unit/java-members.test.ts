import { describe, expect, it } from 'vitest';
import {
  callReceivers,
  fieldsOf,
  implicitMethodsOf,
  parseJava,
  qualifyTypeName,
  rawTypeName,
  returnTypeOf,
  superTypesOf,
  typeHeaderOf,
  typeParametersOf,
  variableAt,
  variablesOf,
} from '../../src/java/index.js';

function parse(text: string) {
  const result = parseJava(text);
  if (!result.ok) throw new Error(result.error.message);
  return result.file;
}

const SOURCE = `package com.acme;

import java.util.List;
import com.acme.money.Money;
import com.acme.parts.*;

/** A class. */
@Deprecated
public class A<T> extends B<C> implements I, J<K> {
    private final List<String> a = x, b[];
    static int c;
    private final Helper helper = new Helper();

    List<T> items() { return null; }

    void f(int p, Foo q) {
        Foo x = new Foo();
        var y = new Bar<>();
        x.m(y); this.helper.r(); Money.format(1); y.z(); q.w(); helper.h().k(); g(); new Baz().run(); super.s();
        for (Item item : items) { item.size(); }
        try { } catch (IOException e) { e.getMessage(); }
        ((Foo) q).cast();
    }
}
record R(int a, String b) { }
enum E { ONE, TWO; int n; }
interface Shape extends Comparable<Shape> { int SIDES = 4; }`;

describe('members', () => {
  const file = parse(SOURCE);
  const [a, record, enumeration, shape] = file.types;

  it('reads fields with their types and modifiers, array brackets after the name included', () => {
    expect(fieldsOf(a!).map((f) => [f.name, f.type, f.modifiers.join(' '), f.kind])).toEqual([
      ['a', 'List<String>', 'private final', 'field'],
      ['b', 'List<String>[]', 'private final', 'field'],
      ['c', 'int', 'static', 'field'],
      ['helper', 'Helper', 'private final', 'field'],
    ]);
    expect(fieldsOf(record!).map((f) => [f.name, f.type, f.kind])).toEqual([
      ['a', 'int', 'record-component'],
      ['b', 'String', 'record-component'],
    ]);
    expect(fieldsOf(enumeration!).map((f) => [f.name, f.kind])).toEqual([
      ['ONE', 'enum-constant'],
      ['TWO', 'enum-constant'],
      ['n', 'field'],
    ]);
    expect(fieldsOf(shape!).map((f) => [f.name, f.modifiers])).toEqual([['SIDES', ['public', 'static', 'final']]]);
  });

  it('reads every field with its annotations, declaring type and kind: the one reader behind the prompt context and extract_test_code', () => {
    const annotated = parse(`package t;
class T {
    @Mock @SuppressWarnings({"a", "b"}) private Repo repo, other;
    enum Mode { @Deprecated OLD, NEW }
    record Span(@Positive int low, int high) { int width() { return high - low; } }
}`);
    const [type] = annotated.types;
    expect(
      fieldsOf(type!).map((f) => [
        f.name,
        f.annotations.map((a) => a.text),
        f.declaringType,
        f.kind,
        f.range.startLine,
      ]),
    ).toEqual([
      ['repo', ['@Mock', '@SuppressWarnings({"a", "b"})'], 't.T', 'field', 3],
      ['other', ['@Mock', '@SuppressWarnings({"a", "b"})'], 't.T', 'field', 3],
    ]);
    const [mode, span] = type!.types;
    expect(fieldsOf(mode!).map((f) => [f.name, f.annotations.map((a) => a.name), f.declaringType, f.kind])).toEqual([
      ['OLD', ['Deprecated'], 't.T$Mode', 'enum-constant'],
      ['NEW', [], 't.T$Mode', 'enum-constant'],
    ]);
    expect(fieldsOf(span!).map((f) => [f.name, f.annotations.map((a) => a.name), f.kind])).toEqual([
      ['low', ['Positive'], 'record-component'],
      ['high', [], 'record-component'],
    ]);
  });

  it('reads supertypes, type parameters, the header and return types', () => {
    expect(superTypesOf(a!)).toEqual({ superclass: 'B<C>', interfaces: ['I', 'J<K>'] });
    expect(superTypesOf(shape!)).toEqual({ interfaces: ['Comparable<Shape>'] });
    expect(typeParametersOf(a!)).toEqual(['T']);
    expect(typeHeaderOf(a!)).toBe('@Deprecated\npublic class A<T> extends B<C> implements I, J<K>');
    expect(returnTypeOf(a!.methods[0]!)).toBe('List<T>');
    expect(implicitMethodsOf(record!)).toEqual([
      { name: 'a', returnType: 'int', parameters: [] },
      { name: 'b', returnType: 'String', parameters: [] },
    ]);
  });
});

describe('resolve', () => {
  const file = parse(SOURCE);
  const a = file.types[0]!;
  const f = a.methods[1]!;

  it('lists parameters and locals, and knows which declaration a name means at a point', () => {
    expect(variablesOf(f).map((v) => [v.name, v.type, v.kind])).toEqual([
      ['p', 'int', 'parameter'],
      ['q', 'Foo', 'parameter'],
      ['x', 'Foo', 'local'],
      ['y', 'Bar', 'local'],
      ['item', 'Item', 'local'],
      ['e', 'IOException', 'catch'],
    ]);
    expect(variableAt(f, 'x', f.range.end)?.type).toBe('Foo');
    expect(variableAt(f, 'x', f.range.start + 5)).toBeUndefined();
  });

  it('tells the type each call is made on: locals, fields, this, super, new, casts, static calls and chains', () => {
    const receivers = callReceivers(f, a, {
      memberType: (type, member) => (type === 'Helper' && member === 'h' ? 'Hub' : undefined),
    });
    expect(receivers.map((r) => [r.call.name, r.typeName, r.isStatic, r.onSelf])).toEqual([
      ['m', 'Foo', false, false],
      ['r', 'Helper', false, false],
      ['format', 'Money', true, false],
      ['z', 'Bar', false, false],
      ['w', 'Foo', false, false],
      ['h', 'Helper', false, false],
      ['k', 'Hub', false, false],
      ['g', 'A', false, true],
      ['run', 'Baz', false, false],
      ['s', 'B<C>', false, true],
      ['size', 'Item', false, false],
      ['getMessage', 'IOException', false, false],
      ['cast', 'Foo', false, false],
    ]);
  });

  it('qualifies type names through imports, the package, wildcards and nested types', () => {
    const known = new Set(['com.acme.Foo', 'com.acme.parts.Item']);
    const exists = (name: string) => known.has(name);
    expect(qualifyTypeName('List<String>', file, exists)).toBe('java.util.List');
    expect(qualifyTypeName('Money', file, exists)).toBe('com.acme.money.Money');
    expect(qualifyTypeName('Foo[]', file, exists)).toBe('com.acme.Foo');
    expect(qualifyTypeName('Item', file, exists)).toBe('com.acme.parts.Item');
    expect(qualifyTypeName('R', file, exists)).toBe('com.acme.R');
    expect(qualifyTypeName('String', file, exists)).toBeUndefined();
    expect(rawTypeName('@NonNull Map<String, List<Integer>>[]')).toBe('Map');
    expect(rawTypeName('? extends Number')).toBe('Number');
  });
});
