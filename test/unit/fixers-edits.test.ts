import { describe, expect, it } from 'vitest';
import { insertImport, isImported } from '../../src/repair/fixers/insert-import.js';
import { declareThrows } from '../../src/repair/fixers/missing-throws.js';

const java = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('insertImport', () => {
  it('sorts into a sorted group', () => {
    expect(insertImport(java('package a;', '', 'import java.io.File;', 'import java.util.Map;', '', 'class A {}'), 'java.util.List')).toBe(
      java('package a;', '', 'import java.io.File;', 'import java.util.List;', 'import java.util.Map;', '', 'class A {}'),
    );
  });
  it('appends after the closest group when that group is not sorted', () => {
    expect(insertImport(java('package a;', '', 'import java.util.Map;', 'import java.io.File;', '', 'class A {}'), 'java.util.List')).toBe(
      java('package a;', '', 'import java.util.Map;', 'import java.io.File;', 'import java.util.List;', '', 'class A {}'),
    );
  });
  it('picks the group sharing the package prefix', () => {
    expect(insertImport(java('import java.util.Map;', '', 'import org.junit.Test;', 'class A {}'), 'org.junit.Assert')).toBe(java('import java.util.Map;', '', 'import org.junit.Assert;', 'import org.junit.Test;', 'class A {}'));
  });
  it('adds a blank-line-separated import after the package when there are none', () => {
    expect(insertImport(java('package a;', 'class A {}'), 'java.util.List')).toBe(java('package a;', '', 'import java.util.List;', '', 'class A {}'));
    expect(insertImport(java('class A {}'), 'java.util.List')).toBe(java('import java.util.List;', '', 'class A {}'));
  });
  it('puts a regular import after static-only imports', () => {
    expect(insertImport(java('package a;', '', 'import static x.Y.z;', '', 'class A {}'), 'java.util.List')).toBe(java('package a;', '', 'import static x.Y.z;', '', 'import java.util.List;', '', 'class A {}'));
  });
  it('never duplicates an import, also one covered by an on-demand import', () => {
    const text = java('package a;', '', 'import java.util.*;', 'class A {}');
    expect(insertImport(text, 'java.util.List')).toBe(text);
    expect(isImported(text, 'java.util.List')).toBe(true);
    expect(isImported(java('// import java.util.List;', 'class A {}'), 'java.util.List')).toBe(false);
  });
  it('keeps CRLF endings', () => {
    expect(insertImport('package a;\r\n\r\nclass A {}\r\n', 'java.util.List')).toBe('package a;\r\n\r\nimport java.util.List;\r\n\r\nclass A {}\r\n');
  });
  it('rejects a name that is not a qualified class name', () => {
    expect(() => insertImport('class A {}', 'List')).toThrow(/not a qualified class name: List/);
    expect(() => insertImport('class A {}', 'java.util.List;')).toThrow(/not a qualified class name/);
  });
});

describe('declareThrows', () => {
  const cls = (header: string, extra: string[] = []) => java('package a;', '', ...extra, 'class A {', `  ${header} {`, '    x.run();', '  }', '}');
  it('adds to an existing throws clause and needs no import for java.lang', () => {
    expect(declareThrows(cls('private void f() throws IOException'), [{ line: 5, column: 5, exception: 'java.lang.InterruptedException' }])).toBe(cls('private void f() throws IOException, InterruptedException'));
  });
  it('writes the qualified name when another class of that simple name is imported', () => {
    expect(declareThrows(cls('void f()', ['import x.y.TimeoutException;', '']), [{ line: 7, column: 5, exception: 'java.util.concurrent.TimeoutException' }])).toBe(
      cls('void f() throws java.util.concurrent.TimeoutException', ['import x.y.TimeoutException;', '']),
    );
  });
  it('handles a private constructor', () => {
    expect(declareThrows(cls('private A()'), [{ line: 5, column: 5, exception: 'java.io.IOException' }])).toBe(java('package a;', '', 'import java.io.IOException;', '', 'class A {', '  private A() throws IOException {', '    x.run();', '  }', '}'));
  });
  it.each([
    ['a public method', cls('public void f()')],
    ['a protected method', cls('protected void f()')],
    ['an override', cls('@Override void f()')],
  ])('refuses %s', (_why, text) => {
    expect(declareThrows(text, [{ line: 5, column: 5, exception: 'java.io.IOException' }])).toBeUndefined();
  });
  it('finds the method in a file with mixed line endings (a CRLF file with one LF line pasted in)', () => {
    const mixed = (header: string) => ['package a;\r\n', 'import java.io.IOException;\n', 'class A {\r\n', '  void a() {\r\n', '  }\r\n', `  ${header} {\r\n`, '    x.run();\r\n', '  }\r\n', '}\r\n'].join('');
    expect(declareThrows(mixed('void b()'), [{ line: 7, column: 5, exception: 'java.io.IOException' }])).toBe(mixed('void b() throws IOException'));
  });
  it('refuses inside a lambda and inside an interface', () => {
    const lambda = java('class A {', '  private void f() {', '    Runnable r = () -> {', '      x.run();', '    };', '  }', '}');
    expect(declareThrows(lambda, [{ line: 4, column: 7, exception: 'java.io.IOException' }])).toBeUndefined();
    const iface = java('interface A {', '  default void f() {', '    x.run();', '  }', '}');
    expect(declareThrows(iface, [{ line: 3, column: 5, exception: 'java.io.IOException' }])).toBeUndefined();
  });
});
