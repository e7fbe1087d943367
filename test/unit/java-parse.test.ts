import { describe, expect, it } from 'vitest';
import {
  allTypes,
  findMethodCalls,
  findReturnStatements,
  findStatements,
  findTryStatements,
  findType,
  lineAt,
  parseJava,
  tokenText,
  type JavaSourceFile,
} from '../../src/java/index.js';

const SOURCE = `package com.acme.calc;

import static org.junit.jupiter.api.Assertions.*;
import java.util.List;

/** Tests. */
@Tag("fast")
public class CalculatorTest extends BaseTest {

    @Test
    @DisplayName("multiplies")
    void multiplies(int a, List<String> names, String... rest) throws Exception {
        int product = calc.multiply(2, 3); // trailing comment
        assertEquals(6, product, "2 * 3");
        Assertions.assertThat(calc.multiply(3, 3)).isEqualTo(9);
        try {
            calc.divide(1, 0);
            fail("expected");
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw e;
        } finally {
            calc.reset();
        }
        if (product > 100) return;
        Runnable later = () -> { return; };
        assert product > 0 : "positive";
    }

    CalculatorTest() {
        super();
    }

    @Nested
    class Rounding {
        @ParameterizedTest
        @ValueSource(ints = {1, 2})
        void roundsHalfUp(int value) {
            new Object() { int f() { return 1; } };
        }
    }

    interface Contract {
        @Test
        default void holds() {}
        void abstractOne();
    }

    enum Mode { ADD, MULTIPLY; int weight() { return ordinal(); } }

    record Pair(int left, int right) {
        Pair {
            if (left < 0) throw new IllegalArgumentException();
        }
    }
}
`;

function parsed(text = SOURCE): JavaSourceFile {
  const result = parseJava(text);
  if (!result.ok) throw new Error(result.error.message);
  return result.file;
}

describe('parseJava: the source model', () => {
  it('reads the package, imports and every type with its binary name, kind and annotations', () => {
    const file = parsed();
    expect(file.packageName).toBe('com.acme.calc');
    expect(file.imports).toEqual(['static org.junit.jupiter.api.Assertions.*', 'java.util.List']);
    expect(allTypes(file).map((type) => [type.kind, type.binaryName])).toEqual([
      ['class', 'com.acme.calc.CalculatorTest'],
      ['class', 'com.acme.calc.CalculatorTest$Rounding'],
      ['interface', 'com.acme.calc.CalculatorTest$Contract'],
      ['enum', 'com.acme.calc.CalculatorTest$Mode'],
      ['record', 'com.acme.calc.CalculatorTest$Pair'],
    ]);
    const top = file.types[0]!;
    expect(top.annotations.map((a) => a.text)).toEqual(['@Tag("fast")']);
    expect(top.modifiers).toEqual(['public']);
    expect(top.superclass).toBe('BaseTest');
    expect(findType(file, 'com.acme.calc.CalculatorTest$Rounding')?.annotations.map((a) => a.name)).toEqual(['Nested']);
  });

  it('reads methods: name, annotations with their text, parameters, signature, ranges and body statements', () => {
    const file = parsed();
    const method = file.types[0]!.methods[0]!;
    expect(method.name).toBe('multiplies');
    expect(method.annotations.map((a) => a.text)).toEqual(['@Test', '@DisplayName("multiplies")']);
    expect(method.parameters).toEqual([
      { name: 'a', type: 'int', text: 'int a' },
      { name: 'names', type: 'List<String>', text: 'List<String> names' },
      { name: 'rest', type: 'String...', text: 'String... rest' },
    ]);
    expect(method.signature).toBe('multiplies(int,List<String>,String...)');
    expect(method.range.startLine).toBe(10);
    expect(method.body?.range.startLine).toBe(12);
    expect(method.range.endLine).toBe(27);
    expect(file.text.slice(method.range.start, method.range.end)).toBe(method.text);
    expect(method.body?.statements.map((s) => s.kind)).toEqual([
      'local-variable-declaration',
      'expression',
      'expression',
      'try',
      'if',
      'local-variable-declaration',
      'assert',
    ]);
    expect(method.declaringType).toBe('com.acme.calc.CalculatorTest');
  });

  it('reads constructors, compact constructors, default and abstract interface methods, enum and record members', () => {
    const file = parsed();
    const constructor = file.types[0]!.methods[1]!;
    expect(constructor).toMatchObject({ kind: 'constructor', name: 'CalculatorTest', signature: 'CalculatorTest()' });
    expect(constructor.body?.statements.map((s) => s.kind)).toEqual(['constructor-invocation']);
    const contract = findType(file, 'com.acme.calc.CalculatorTest$Contract')!;
    expect(contract.methods.map((m) => [m.name, m.modifiers, m.body === undefined])).toEqual([
      ['holds', ['default'], false],
      ['abstractOne', [], true],
    ]);
    expect(findType(file, 'com.acme.calc.CalculatorTest$Mode')!.methods.map((m) => m.name)).toEqual(['weight']);
    expect(findType(file, 'com.acme.calc.CalculatorTest$Pair')!.methods[0]).toMatchObject({
      kind: 'constructor',
      name: 'Pair',
    });
  });

  it('keeps comments with their ranges', () => {
    const file = parsed();
    expect(file.comments.map((c) => c.text)).toEqual(['/** Tests. */', '// trailing comment']);
    expect(file.comments[1]!.range.startLine).toBe(13);
  });

  it('keeps every offset of a file that starts with a byte-order mark', () => {
    const file = parsed(`\uFEFF${SOURCE}`);
    const method = file.types[0]!.methods[0]!;
    expect(file.text.slice(method.range.start, method.range.end)).toBe(method.text);
  });

  it('says where a file does not parse, and gives no partial model', () => {
    expect(parseJava('class X { void m() { int x = 1 } }')).toEqual({
      ok: false,
      error: { message: "expected ';' but found '}' at line 1, column 32", line: 1, column: 32 },
    });
    expect(parseJava('class X { void m() {')).toMatchObject({
      ok: false,
      error: { message: "expected '}' but found the end of the file" },
    });
    expect(() => parseJava(undefined as unknown as string)).toThrow('parseJava needs the file text');
  });
});

describe('queries', () => {
  const file = parsed();
  const method = file.types[0]!.methods[0]!;

  it('finds method calls with their qualifier, arguments and chain', () => {
    const calls = findMethodCalls(method);
    expect(calls.map((c) => [c.name, c.qualifier ?? '', c.arguments, c.firstInChain])).toEqual([
      ['multiply', 'calc', ['2', '3'], true],
      ['assertEquals', '', ['6', 'product', '"2 * 3"'], true],
      ['assertThat', 'Assertions', ['calc.multiply(3, 3)'], true],
      ['multiply', 'calc', ['3', '3'], true],
      ['isEqualTo', 'Assertions.assertThat(calc.multiply(3, 3))', ['9'], false],
      ['divide', 'calc', ['1', '0'], true],
      ['fail', '', ['"expected"'], true],
      ['reset', 'calc', [], true],
    ]);
    const isEqualTo = calls.find((c) => c.name === 'isEqualTo')!;
    expect(isEqualTo.chain.text).toBe('Assertions.assertThat(calc.multiply(3, 3)).isEqualTo(9)');
    expect(isEqualTo.range.startLine).toBe(15);
    expect(findMethodCalls(method, (c) => c.name.startsWith('assert')).map((c) => c.name)).toEqual([
      'assertEquals',
      'assertThat',
    ]);
  });

  it('finds calls on this, on new objects and with type arguments', () => {
    const other = parsed(
      'class A { void m() { this.foo(1).bar(); new Foo().baz(2); Assertions.<String>fail("no"); super.x(); } }',
    );
    expect(findMethodCalls(other.types[0]!.methods[0]!).map((c) => `${c.qualifier ?? ''}|${c.name}`)).toEqual([
      'this|foo',
      'this.foo(1)|bar',
      'new Foo()|baz',
      'Assertions|fail',
      'super|x',
    ]);
  });

  it('finds try statements with their catch types, parameter, bodies and finally', () => {
    const [statement] = findTryStatements(method);
    expect(statement).toMatchObject({
      withResources: false,
      catches: [{ types: ['IllegalArgumentException', 'ArithmeticException'], parameter: 'e' }],
    });
    expect(statement!.block.statements.map((s) => s.kind)).toEqual(['expression', 'expression']);
    expect(statement!.catches[0]!.body.statements.map((s) => s.kind)).toEqual(['throw']);
    expect(statement!.finally?.text).toBe('{\n            calc.reset();\n        }');
    const withResources = parsed('class A { void m() throws Exception { try (var r = open()) { r.go(); } } }');
    expect(findTryStatements(withResources.types[0]!.methods[0]!)[0]).toMatchObject({
      withResources: true,
      catches: [],
    });
  });

  it('finds the returns that leave the method, not those of lambdas or inner classes', () => {
    expect(findReturnStatements(method).map((r) => r.text)).toEqual(['return;']);
    expect(findReturnStatements(findType(file, 'com.acme.calc.CalculatorTest$Rounding')!.methods[0]!)).toEqual([]);
    expect(findReturnStatements(findType(file, 'com.acme.calc.CalculatorTest$Mode')!.methods[0]!)[0]).toMatchObject({
      expression: 'ordinal()',
    });
  });

  it('finds statements of a kind, nested ones included', () => {
    expect(findStatements(method, 'return').map((s) => s.text)).toEqual(['return;', 'return;']);
    expect(findStatements(method, 'assert').map((s) => s.text)).toEqual(['assert product > 0 : "positive";']);
  });

  it('gives the same token text for the same code written differently', () => {
    const a = parsed('class A { void m() { assertEquals(6,product); } }').types[0]!.methods[0]!;
    const b = parsed('class A {\n  void m() {\n    assertEquals( 6 , // six\n      product ) ;\n  }\n}').types[0]!
      .methods[0]!;
    expect(tokenText(a)).toBe(tokenText(b));
    expect(tokenText(a)).toBe('void m ( ) { assertEquals ( 6 , product ) ; }');
  });

  it('refuses a scope that was not read by parseJava', () => {
    expect(() => findMethodCalls({ ...method })).toThrow('not a part of a file read by parseJava');
  });

  it('counts lines', () => {
    expect(lineAt('a\nb\nc', 4)).toBe(3);
  });
});
