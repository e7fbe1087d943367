/** src/java's outline, test-code, header and enclosing-method readers on real Java text. */
import { describe, expect, it } from 'vitest';
import {
  enclosingMethodAt,
  fieldsOf,
  findTestCode,
  initializersOf,
  lineAt,
  methodAt,
  offsetAt,
  outline,
  typeAt,
  parseJava,
  readJavaHeader,
  scanJavaHeader,
  usesSimpleName,
  type JavaSourceFile,
} from '../../src/java/index.js';

function parse(text: string): JavaSourceFile {
  const result = parseJava(text);
  if (!result.ok) throw new Error(result.error.message);
  return result.file;
}

const SOURCE = `package com.acme.calc;

import java.util.List;
import static java.util.Objects.requireNonNull;

/** Doc. */
@SuppressWarnings("unused")
public class Calculator<T extends Number> implements Operation, /* why */ Cloneable {
    private final List<Integer> history, other;
    static int count = 0;

    static { count = 1; }
    { history = null; other = null; }

    @Deprecated
    public Calculator() { }

    public <R> List<R> map(@Deprecated List<T> items,
                           java.util.function.Function<T, R> f) throws java.io.IOException, IllegalStateException {
        Runnable r = () -> { throw new IllegalStateException(); };
        new Object() { void inner() { } };
        return null;
    }

    abstract static class Shape { abstract double area(); }

    record Point(int x, int y) { Point { requireNonNull(x); } }

    enum Color { RED, GREEN; int code() { return ordinal(); } }

    interface Visitor { void visit(Point p); }
}
`;

describe('outline', () => {
  it('lists types, constructors and methods in source order with one-line signatures, no annotations or comments, nested ones deeper', () => {
    const entries = outline(parse(SOURCE));
    expect(
      entries.map((entry) => `${entry.line} ${'  '.repeat(entry.depth)}${entry.kind}: ${entry.signature}`),
    ).toEqual([
      '8 type: public class Calculator<T extends Number> implements Operation, Cloneable',
      '16   constructor: public Calculator()',
      '18   method: public <R> List<R> map(List<T> items, java.util.function.Function<T, R> f) throws java.io.IOException, IllegalStateException',
      '25   type: abstract static class Shape',
      '25     method: abstract double area()',
      '27   type: record Point(int x, int y)',
      '27     constructor: Point',
      '29   type: enum Color',
      '29     method: int code()',
      '31   type: interface Visitor',
      '31     method: void visit(Point p)',
    ]);
    // The range includes the annotation above the declaration.
    expect(entries[1]!.range.startLine).toBe(15);
  });

  it('reads fields (one per declarator) and initializer blocks of a type', () => {
    const type = parse(SOURCE).types[0]!;
    expect(
      fieldsOf(type).map(
        (field) => `${field.modifiers.join(' ')} ${field.type} ${field.name} @${field.range.startLine}`,
      ),
    ).toEqual([
      'private final List<Integer> history @9',
      'private final List<Integer> other @9',
      'static int count @10',
    ]);
    expect(initializersOf(type).map((block) => `${block.isStatic} ${block.text}`)).toEqual([
      'true static { count = 1; }',
      'false { history = null; other = null; }',
    ]);
  });
});

describe('findTestCode', () => {
  const TEST = `package t;
class FooTest extends junit.framework.TestCase {
    Foo foo;
    protected void setUp() { foo = new Foo(); }
    public void testBar() {
        int x = foo.bar();
        assertEquals(1, x);
        org.junit.Assert.assertTrue(x > 0);
    }
}`;

  it('finds a JUnit 3 test with its setUp by name, and the lines of its assertions', () => {
    const code = findTestCode(parse(TEST), 'testBar')!;
    expect(code.type.binaryName).toBe('t.FooTest');
    expect(code.fields.map((field) => field.name)).toEqual(['foo']);
    expect(code.setup.map((method) => method.name)).toEqual(['setUp']);
    expect(code.assertionLines).toEqual([7, 8]);
    expect(findTestCode(parse(TEST), 'testBar', 'Other')).toBeUndefined();
    expect(findTestCode(parse(TEST), 'nothing')).toBeUndefined();
  });
});

describe('Java headers', () => {
  const BROKEN =
    'package com.acme;\n\nimport java.util.List;\nimport static java.lang.Math.max;\n\nclass A {\n  int f() { return 1 }\n}\n';

  it('reads package and imports with their lines from the parse, wrapped imports included', () => {
    const header = readJavaHeader(
      'package com.acme;\n\nimport java.util\n    .List;\nimport static java.lang.Math.*;\n\nclass A { List<String> x; }\n',
    );
    expect(header).toEqual({
      packageName: 'com.acme',
      packageLine: 1,
      imports: [
        { line: 3, endLine: 4, isStatic: false, name: 'java.util.List', simpleName: 'List' },
        { line: 5, endLine: 5, isStatic: true, name: 'java.lang.Math.*', simpleName: '*' },
      ],
      topLevelTypes: ['A'],
      parsed: true,
    });
  });

  it('falls back to the masked text when the file does not parse, with the same shape', () => {
    const header = readJavaHeader(BROKEN);
    expect(header.parsed).toBe(false);
    expect(header).toEqual({ ...scanJavaHeader(BROKEN), parsed: false });
    expect(header.imports.map((entry) => `${entry.line}:${entry.name}`)).toEqual([
      '3:java.util.List',
      '4:java.lang.Math.max',
    ]);
    expect(header.topLevelTypes).toEqual(['A']);
  });

  it('tells whether a simple name is used outside the imports, in parsed and unparsed files alike', () => {
    const uses = 'package p;\nimport java.util.List;\nclass A { List<String> a; }\n';
    const unused = 'package p;\nimport java.util.List;\nclass A { java.util.List<String> a; String s = "List"; }\n';
    expect(usesSimpleName(uses, 'List')).toBe(true);
    expect(usesSimpleName(unused, 'List')).toBe(false);
    expect(usesSimpleName(`${unused}}`, 'List')).toBe(false);
    expect(usesSimpleName(`${uses}}`, 'List')).toBe(true);
  });
});

describe('enclosingMethodAt', () => {
  const file = parse(SOURCE);
  const at = (needle: string) => SOURCE.indexOf(needle);

  it('gives the method around a position with its return type, declared exceptions and where its header ends', () => {
    const method = enclosingMethodAt(file, at('return null;'))!;
    expect(method.method.name).toBe('map');
    expect(method.returnType).toBe('List<R>');
    expect(method.thrown).toEqual(['java.io.IOException', 'IllegalStateException']);
    expect(SOURCE.slice(method.headerEnd - 'IllegalStateException'.length, method.headerEnd + 2)).toBe(
      'IllegalStateException {',
    );
    expect(method.inInterface).toBe(false);
    expect(enclosingMethodAt(file, at('ordinal()'))?.method.name).toBe('code');
  });

  it('gives constructors without a return type, and nothing inside lambdas, anonymous classes, initializers or fields', () => {
    const constructor = enclosingMethodAt(file, at('requireNonNull(x)'))!;
    expect(constructor.method.kind).toBe('constructor');
    expect(constructor.returnType).toBeUndefined();
    expect(enclosingMethodAt(file, at('throw new IllegalStateException()'))).toBeUndefined();
    expect(enclosingMethodAt(file, at('void inner() { }') + 15)).toBeUndefined();
    expect(enclosingMethodAt(file, at('count = 1;'))).toBeUndefined();
    expect(enclosingMethodAt(file, at('count = 0;'))).toBeUndefined();
  });
});

describe('methodAt and typeAt', () => {
  const file = parse(SOURCE);
  const at = (needle: string) => SOURCE.indexOf(needle);

  it('give the method (with its declaring type) and the innermost type at a line or an offset; code in a lambda belongs to the method around it', () => {
    const line = lineAt(SOURCE, at('ordinal()'));
    expect(methodAt(file, { line })?.method.name).toBe('code');
    expect(methodAt(file, { line })?.type.name).toBe('Color');
    expect(typeAt(file, { line })?.name).toBe('Color');
    expect(methodAt(file, { offset: at('throw new IllegalStateException()') })?.method.name).toBe('map');
    expect(typeAt(file, { offset: at('static int count') })?.name).toBe('Calculator');
    expect(methodAt(file, { offset: at('static int count') })).toBeUndefined();
    expect(typeAt(file, { line: 1 })).toBeUndefined();
    expect(offsetAt(SOURCE, line, 1)).toBe(SOURCE.lastIndexOf('\n', at('ordinal()')) + 1);
  });
});
