import { describe, expect, it } from 'vitest';
import {
  cleanHeaderPath,
  normaliseRelative,
  parseDiffGitPaths,
  pathFromMentionLine,
} from '../../src/patch/extract/path-text.js';

// extract/path-text.ts: paths as models and git write them, turned into root-relative text.
// These helpers never judge safety (validation does), so `..` and absolute paths stay visible.

describe('cleanHeaderPath', () => {
  it.each([
    ['a/src/A.java', 'src/A.java'],
    ['b/src/A.java', 'src/A.java'],
    ['a/b/src/A.java', 'b/src/A.java'], // one prefix only
    ['src/A.java', 'src/A.java'],
    ['./src/A.java', 'src/A.java'],
    ['  a/src/A.java  ', 'src/A.java'],
    ['c/src/A.java', 'c/src/A.java'],
    ['xa/src/A.java', 'xa/src/A.java'],
    ['a/src/A.java\t2024-01-01 10:00:00.000000000 +0100', 'src/A.java'],
    ['src/A.java 2024-01-01 10:00:00.000 +0100', 'src/A.java'],
    ['src/A.java  2024-01-01T10:00:00Z', 'src/A.java'],
    ['src/My File 2024.java', 'src/My File 2024.java'],
    ['src/v 2024-01-01.txt', 'src/v 2024-01-01.txt'],
    ['src\\main\\A.java', 'src/main/A.java'],
    ['/dev/null', null],
    ['dev/null', null],
    ['a/dev/null', 'dev/null'],
    ['/dev/null\t1970-01-01 00:00:00', null],
  ])('%j is %j', (raw, path) => {
    expect(cleanHeaderPath(raw)).toBe(path);
  });

  it('undoes git quoting: octal bytes as UTF-8, C escapes, an escaped quote, and text after the closing quote', () => {
    expect(cleanHeaderPath('"a/caf\\303\\251.txt"')).toBe('café.txt');
    expect(cleanHeaderPath('"a/x\\ty\\nz\\\\w\\"q.txt"')).toBe('x\ty\nz/w"q.txt'); // the backslash then becomes a slash, as every path's does
    expect(cleanHeaderPath('"a/\\a\\b\\f\\r\\v.txt"')).toBe('\x07\b\f\r\v.txt');
    expect(cleanHeaderPath('"a/odd\\q.txt"')).toBe('oddq.txt');
    expect(cleanHeaderPath('"a/sp ace.txt"\t2024-01-01')).toBe('sp ace.txt');
    expect(cleanHeaderPath('"a/x\\1.txt"')).toBe('x1.txt'); // not three octal digits: the digit as written
    expect(cleanHeaderPath('"a/unterminated.txt')).toBe('unterminated.tx');
  });
});

describe('parseDiffGitPaths', () => {
  it('splits at " b/" so paths with spaces survive, and renames keep both names', () => {
    expect(parseDiffGitPaths('a/my dir/A.java b/my dir/A.java')).toEqual({
      oldPath: 'my dir/A.java',
      newPath: 'my dir/A.java',
    });
    expect(parseDiffGitPaths('a/old/A.java b/new/A.java')).toEqual({ oldPath: 'old/A.java', newPath: 'new/A.java' });
    expect(parseDiffGitPaths('  a/x.txt b/y.txt  ')).toEqual({ oldPath: 'x.txt', newPath: 'y.txt' });
  });

  it('reads two quoted names, and two bare names without prefixes', () => {
    expect(parseDiffGitPaths('"a/sp ace.txt" "b/sp ace2.txt"')).toEqual({
      oldPath: 'sp ace.txt',
      newPath: 'sp ace2.txt',
    });
    expect(parseDiffGitPaths('x.txt y.txt')).toEqual({ oldPath: 'x.txt', newPath: 'y.txt' });
    expect(parseDiffGitPaths('my file.txt my file.txt')).toEqual({ oldPath: 'my file.txt', newPath: 'my file.txt' });
    expect(parseDiffGitPaths('a dir/my file.txt a dir/my file.txt')).toEqual({
      oldPath: 'a dir/my file.txt',
      newPath: 'a dir/my file.txt',
    });
  });

  it('gives up on what it cannot tell apart, and on /dev/null', () => {
    expect(parseDiffGitPaths('one two three')).toBeUndefined();
    expect(parseDiffGitPaths('single.txt')).toBeUndefined();
    expect(parseDiffGitPaths('"a/x.txt" /dev/null')).toBeUndefined();
    expect(parseDiffGitPaths('/dev/null b/x.txt')).toBeUndefined();
    expect(parseDiffGitPaths('x.txt /dev/null')).toBeUndefined();
  });

  it('falls back to two bare names when " b/" leads to /dev/null on one side', () => {
    expect(parseDiffGitPaths('b/x.txt b/y.txt')).toEqual({ oldPath: 'x.txt', newPath: 'y.txt' });
  });
});

describe('normaliseRelative', () => {
  it('turns backslashes into slashes, drops every leading ./ and collapses repeated slashes', () => {
    expect(normaliseRelative('.\\src\\\\A.java')).toBe('src/A.java');
    expect(normaliseRelative('././src//main///A.java')).toBe('src/main/A.java');
    expect(normaliseRelative('../A.java')).toBe('../A.java');
    expect(normaliseRelative('/etc/passwd')).toBe('/etc/passwd');
    expect(normaliseRelative('src/./A.java')).toBe('src/./A.java');
  });
});

describe('pathFromMentionLine', () => {
  it.each([
    ['src/Foo.java', 'src/Foo.java'],
    ['  src/Foo.java  ', 'src/Foo.java'],
    ['**src/Foo.java**', 'src/Foo.java'],
    ['`pom.xml`:', 'pom.xml'],
    ['### File: src/Foo.java', 'src/Foo.java'],
    ['## src/Foo.java', 'src/Foo.java'],
    ['- src/Foo.java', 'src/Foo.java'],
    ['> src/Foo.java', 'src/Foo.java'],
    ['**File:** src/Foo.java', 'src/Foo.java'],
    ['**File: src/Foo.java**', 'src/Foo.java'],
    ['Filename: src/Foo.java', 'src/Foo.java'],
    ['path: src/Foo.java', 'src/Foo.java'],
    ['"src/Foo.java"', 'src/Foo.java'],
    ["'src/Foo.java':", 'src/Foo.java'],
    ['__src/Foo.java__', 'src/Foo.java'],
    ['In `src/Foo.java`:', 'src/Foo.java'],
    ['Update **pom.xml**:', 'pom.xml'],
    ['Then change `src/main/java/A.java`', 'src/main/java/A.java'],
    ['.\\src\\Foo.java', 'src/Foo.java'],
    ['Makefile.am', 'Makefile.am'],
  ])('%j names %j', (line, path) => {
    expect(pathFromMentionLine(line)).toBe(path);
  });

  it.each([
    [''],
    ['   '],
    ['Here is the fix'],
    ['Makefile'],
    ['...'],
    ['.'],
    ['```java'],
    ['~~~'],
    ['<<<<<<< SEARCH'],
    ['======='],
    ['>>>>>>> REPLACE'],
    ['@@ -1 +1 @@'],
    ['--- a/x.java'],
    ['+++ b/x.java'],
    ['a prose line with x.java inside'],
    ['`src/Foo.java` is where the bug is'],
    ['In `Foo`:'],
  ])('%j names no file', (line) => {
    expect(pathFromMentionLine(line)).toBeUndefined();
  });
});

describe('path text at its edges', () => {
  it('reads a backslash that ends a quoted name as nothing, and octal digits only right after a backslash', () => {
    expect(cleanHeaderPath('"a/x\\"')).toBe('x');
    expect(cleanHeaderPath('"a/x\\q123"')).toBe('xq123');
    expect(cleanHeaderPath('"a/x\\1234"')).toBe('xS4');
  });

  it('finds the closing quote after the opening one, skipping escaped characters', () => {
    expect(cleanHeaderPath('"a/x\\"y" trailing')).toBe('x"y');
    expect(parseDiffGitPaths('"a/x\\\\" "b/y"')).toEqual({ oldPath: 'x/', newPath: 'y' });
  });

  it('cuts a date only when it has the full form after white space', () => {
    expect(cleanHeaderPath('src/x 1-02-03 10:00.txt')).toBe('src/x 1-02-03 10:00.txt');
    expect(cleanHeaderPath('src/x.txt 2024-01-01X10:00')).toBe('src/x.txt 2024-01-01X10:00');
    expect(cleanHeaderPath('src/x.txt 2024-01-01 1:00')).toBe('src/x.txt 2024-01-01 1:00');
    expect(cleanHeaderPath('src/x.txt2024-01-01 10:00')).toBe('src/x.txt2024-01-01 10:00');
  });

  it('drops a/ or b/ only at the start, and reads /dev/null only as the whole name', () => {
    expect(cleanHeaderPath('src/a/x')).toBe('src/a/x');
    expect(cleanHeaderPath('/dev/nullx')).toBe('/dev/nullx');
    expect(cleanHeaderPath('x/dev/null')).toBe('x/dev/null');
  });
});

describe('path text at its edges, more', () => {
  it('trims a quoted header name, and reads quoted diff --git names with white space around them', () => {
    expect(cleanHeaderPath(' "a/x.txt"')).toBe('x.txt');
    expect(parseDiffGitPaths('  "a/x" "b/y"')).toEqual({ oldPath: 'x', newPath: 'y' });
    expect(parseDiffGitPaths('a/x.txt "b/y.txt"')).toEqual({ oldPath: 'x.txt', newPath: 'y.txt' });
    expect(parseDiffGitPaths('"/dev/null" "b/x.txt"')).toBeUndefined();
    expect(parseDiffGitPaths('x.txt  y.txt')).toEqual({ oldPath: 'x.txt', newPath: 'y.txt' });
  });

  it('wants two digits for the minutes of a date', () => {
    expect(cleanHeaderPath('src/x 2024-01-01 10:5.txt')).toBe('src/x 2024-01-01 10:5.txt');
  });

  it.each([
    ['src/a.', 'src/a.'],
    ['a/@@b.txt', 'a/@@b.txt'],
    ['<x/y', '<x/y'],
    ['=x.txt', '=x.txt'],
    ['>x.txt', '>x.txt'],
    ['---a.txt', undefined],
    ['<<<a.txt', undefined],
  ])('mention %j names %j', (line, path) => {
    expect(pathFromMentionLine(line)).toBe(path);
  });
});
