/** Small helpers over the source model itself (no syntax tree needed). */
import type { JavaMethod, JavaSourceFile, JavaType } from './types.js';

/** Every type of the file, member types included, outer before inner. */
export function allTypes(file: JavaSourceFile): JavaType[] {
  const out: JavaType[] = [];
  const visit = (type: JavaType) => {
    out.push(type);
    type.types.forEach(visit);
  };
  file.types.forEach(visit);
  return out;
}

/** The type with this binary name (`com.acme.Outer$Inner`), if the file declares it. */
export function findType(file: JavaSourceFile, binaryName: string): JavaType | undefined {
  return allTypes(file).find((type) => type.binaryName === binaryName);
}

/**
 * Offset of a 1-based line and column in `text` (the form javac and the stack traces give).
 * Lines end at `\n` whatever comes before it, as lineAt counts them: a CRLF file with one
 * LF line pasted in is still read right.
 */
export function offsetAt(text: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset + column - 1;
}

/** 1-based line of an offset in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) if (text.charCodeAt(index) === 10) line++;
  return line;
}

/** A place in a file: a 1-based line, or an offset into its text. */
export type SourcePosition = { line: number } | { offset: number };

function spans(range: { start: number; end: number; startLine: number; endLine: number }, at: SourcePosition): boolean {
  return 'line' in at
    ? range.startLine <= at.line && at.line <= range.endLine
    : range.start <= at.offset && at.offset < range.end;
}

/** The innermost type whose declaration spans the position (member types included). */
export function typeAt(file: JavaSourceFile, at: SourcePosition): JavaType | undefined {
  let best: JavaType | undefined;
  const visit = (type: JavaType) => {
    if (!spans(type.range, at)) return;
    best = type;
    type.types.forEach(visit);
  };
  file.types.forEach(visit);
  return best;
}

/**
 * The method or constructor whose declaration spans the position, with the type that
 * declares it; of two on one line, the shorter. Code in a lambda or an anonymous class
 * belongs to the method around it (enclosing.ts's enclosingMethodAt tells them apart).
 */
export function methodAt(file: JavaSourceFile, at: SourcePosition): { type: JavaType; method: JavaMethod } | undefined {
  let best: { type: JavaType; method: JavaMethod } | undefined;
  for (const type of allTypes(file)) {
    for (const method of type.methods) {
      if (!spans(method.range, at)) continue;
      if (!best || method.range.end - method.range.start < best.method.range.end - best.method.range.start)
        best = { type, method };
    }
  }
  return best;
}

/** Per file: for each 1-based line, whether it holds a comment and nothing else (see commentedStartLine). */
const commentOnlyLines = new WeakMap<JavaSourceFile, boolean[]>();

function commentOnly(file: JavaSourceFile): boolean[] {
  let known = commentOnlyLines.get(file);
  if (known) return known;
  const text = file.text;
  const inComment = new Uint8Array(text.length);
  for (const comment of file.comments) inComment.fill(1, comment.range.start, comment.range.end);
  known = [false];
  let hasComment = false;
  let hasCode = false;
  for (let index = 0; index <= text.length; index++) {
    if (index === text.length || text.charCodeAt(index) === 10) {
      // A blank line inside a block comment ends in a line break the comment holds.
      known.push((hasComment || inComment[index] === 1) && !hasCode);
      hasComment = false;
      hasCode = false;
    } else if (inComment[index]) hasComment = true;
    else if (!isWhitespace(text.charCodeAt(index))) hasCode = true;
  }
  commentOnlyLines.set(file, known);
  return known;
}

/**
 * `/\s/` without a regular expression per character for ASCII (a file is read once per prompt, every character of it).
 */
function isWhitespace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /\s/.test(String.fromCharCode(code));
}

/**
 * The line a declaration starting on `startLine` begins at once the comments right above
 * it are counted (javadoc, `//` lines, block comments), read from the parser's comments:
 * a line counts only when it holds nothing but comment, so `int count; /* n *\/` above a
 * method is code and the method is shown without it.
 */
export function commentedStartLine(file: JavaSourceFile, startLine: number): number {
  const lines = commentOnly(file);
  let start = startLine;
  while (start > 1 && lines[start - 1]) start--;
  return start;
}
