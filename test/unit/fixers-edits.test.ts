import { describe, expect, it } from 'vitest';
import { insertImport, isImported } from '../../src/repair/fixers/support/insert-import.js';

const java = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('insertImport', () => {
  it('sorts into a sorted group', () => {
    expect(
      insertImport(
        java('package a;', '', 'import java.io.File;', 'import java.util.Map;', '', 'class A {}'),
        'java.util.List',
      ),
    ).toBe(
      java(
        'package a;',
        '',
        'import java.io.File;',
        'import java.util.List;',
        'import java.util.Map;',
        '',
        'class A {}',
      ),
    );
  });
  it('appends after the closest group when that group is not sorted', () => {
    expect(
      insertImport(
        java('package a;', '', 'import java.util.Map;', 'import java.io.File;', '', 'class A {}'),
        'java.util.List',
      ),
    ).toBe(
      java(
        'package a;',
        '',
        'import java.util.Map;',
        'import java.io.File;',
        'import java.util.List;',
        '',
        'class A {}',
      ),
    );
  });
  it('picks the group sharing the package prefix', () => {
    expect(
      insertImport(java('import java.util.Map;', '', 'import org.junit.Test;', 'class A {}'), 'org.junit.Assert'),
    ).toBe(java('import java.util.Map;', '', 'import org.junit.Assert;', 'import org.junit.Test;', 'class A {}'));
  });
  it('adds a blank-line-separated import after the package when there are none', () => {
    expect(insertImport(java('package a;', 'class A {}'), 'java.util.List')).toBe(
      java('package a;', '', 'import java.util.List;', '', 'class A {}'),
    );
    expect(insertImport(java('class A {}'), 'java.util.List')).toBe(java('import java.util.List;', '', 'class A {}'));
  });
  it('puts a regular import after static-only imports', () => {
    expect(insertImport(java('package a;', '', 'import static x.Y.z;', '', 'class A {}'), 'java.util.List')).toBe(
      java('package a;', '', 'import static x.Y.z;', '', 'import java.util.List;', '', 'class A {}'),
    );
  });
  it('never duplicates an import, also one covered by an on-demand import', () => {
    const text = java('package a;', '', 'import java.util.*;', 'class A {}');
    expect(insertImport(text, 'java.util.List')).toBe(text);
    expect(isImported(text, 'java.util.List')).toBe(true);
    expect(isImported(java('// import java.util.List;', 'class A {}'), 'java.util.List')).toBe(false);
  });
  it('keeps CRLF endings', () => {
    expect(insertImport('package a;\r\n\r\nclass A {}\r\n', 'java.util.List')).toBe(
      'package a;\r\n\r\nimport java.util.List;\r\n\r\nclass A {}\r\n',
    );
  });
  it('rejects a name that is not a qualified class name', () => {
    expect(() => insertImport('class A {}', 'List')).toThrow(/not a qualified class name: List/);
    expect(() => insertImport('class A {}', 'java.util.List;')).toThrow(/not a qualified class name/);
  });
});
