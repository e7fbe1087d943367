/**
 * Just enough Java structure for choosing excerpts: where each brace block opens and
 * closes, and whether it is a method or a type. Braces inside comments, strings, char
 * literals and text blocks do not count. A file with a missing brace (a common compile
 * error) still yields blocks: unclosed ones run to the last line.
 */

export interface BraceBlock {
  /** 1-based line of the `{`. */
  open: number;
  /** 1-based line of the matching `}` (the last line when unclosed). */
  close: number;
  /** 1-based first line of the declaration that owns the block (annotations included). */
  declarationStart: number;
  kind: 'method' | 'type' | 'other';
}

export function findBraceBlocks(lines: readonly string[]): BraceBlock[] {
  const blocks: BraceBlock[] = [];
  const stack: { line: number; col: number }[] = [];
  let inBlockComment = false;
  let inTextBlock = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    for (let col = 0; col < line.length; col++) {
      const char = line[col];
      const rest = line.slice(col);
      if (inBlockComment) {
        if (rest.startsWith('*/')) {
          inBlockComment = false;
          col++;
        }
        continue;
      }
      if (inTextBlock) {
        if (rest.startsWith('"""')) {
          inTextBlock = false;
          col += 2;
        } else if (char === '\\') col++;
        continue;
      }
      if (rest.startsWith('//')) break;
      if (rest.startsWith('/*')) {
        inBlockComment = true;
        col++;
      } else if (rest.startsWith('"""')) {
        inTextBlock = true;
        col += 2;
      } else if (char === '"' || char === "'") {
        col = endOfLiteral(line, col, char);
      } else if (char === '{') {
        stack.push({ line: index + 1, col });
      } else if (char === '}') {
        const open = stack.pop();
        if (open !== undefined) blocks.push(describeBlock(lines, open, index + 1));
      }
    }
  }
  while (stack.length > 0) blocks.push(describeBlock(lines, stack.pop()!, lines.length));
  return blocks.sort((a, b) => a.open - b.open);
}

/** Index of the closing quote (or the line's end when the literal is unterminated). */
function endOfLiteral(line: string, start: number, quote: string): number {
  for (let col = start + 1; col < line.length; col++) {
    if (line[col] === '\\') col++;
    else if (line[col] === quote) return col;
  }
  return line.length;
}

const CONTROL = /^(?:if|else|for|while|do|switch|case|try|catch|finally|synchronized|return|throw|new)\b/;
const TYPE_DECLARATION = /\b(?:class|interface|enum|record)\s+[A-Za-z_$][\w$]*/;
const METHOD_DECLARATION = /[A-Za-z_$][\w$<>[\],.? ]*\s+[A-Za-z_$][\w$]*\s*\([^]*\)\s*(?:throws\s+[\w$.,\s]+)?\{?\s*$|^\s*(?:public|protected|private)?\s*[A-Z][\w$]*\s*\([^]*\)\s*(?:throws\s+[\w$.,\s]+)?\{?\s*$/;

function describeBlock(lines: readonly string[], brace: { line: number; col: number }, close: number): BraceBlock {
  const open = brace.line;
  let start = open;
  let text = declarationBefore(lines[open - 1] ?? '', brace.col);
  // Allman style: the declaration is on the line above a lone `{`.
  if (text.trim() === '' && open > 1) {
    start = open - 1;
    text = lines[start - 1] ?? '';
  }
  // A declaration spread over lines: an open parameter list, or `extends`/`implements`/
  // `throws` (or a list continuing after a comma) wrapped onto their own line.
  for (let steps = 0; start > 1 && steps < 8 && continuesAbove(text, lines[start - 2] ?? ''); steps++) {
    start--;
    text = `${lines[start - 1] ?? ''}\n${text}`;
  }
  while (start > 1 && /^\s*@/.test(lines[start - 2] ?? '')) start--;
  const declaration = withoutAnnotations(text.replace(/\s+/g, ' ').trim());
  let kind: BraceBlock['kind'] = 'other';
  if (TYPE_DECLARATION.test(declaration) && !declaration.includes('(')) kind = 'type';
  else if (TYPE_DECLARATION.test(declaration) && /\brecord\b/.test(declaration)) kind = 'type';
  else if (COMPACT_CONSTRUCTOR.test(declaration)) kind = 'method';
  else if (!CONTROL.test(declaration) && !/[=]|->/.test(declaration.split('(')[0] ?? '') && !declaration.includes('->') && METHOD_DECLARATION.test(declaration)) kind = 'method';
  return { open, close, declarationStart: start, kind };
}

/** A record's compact constructor: `public Range {`. */
const COMPACT_CONSTRUCTOR = /^(?:public|protected|private)\s+[A-Z][\w$]*\s*\{$/;
const WRAPPED_CLAUSE = /^\s*(?:extends|implements|throws|permits)\b|^\s*,/;

function continuesAbove(text: string, above: string): boolean {
  if (balance(text) < 0) return true;
  const first = text.split('\n')[0] ?? '';
  if (above.trim() === '' || /^\s*(?:@|\/\/|\*|\/\*)/.test(above)) return false;
  return WRAPPED_CLAUSE.test(first) || /,\s*$/.test(above);
}

/**
 * The text that declares the block opening at `col`: from after the previous `{`, `}` or
 * `;` on the line (so that `class A { A() {` yields `A() {` for the inner block) up to
 * and including the brace.
 */
function declarationBefore(line: string, col: number): string {
  const head = line.slice(0, col);
  const cut = Math.max(head.lastIndexOf('{'), head.lastIndexOf('}'), head.lastIndexOf(';'));
  // A brace inside an annotation's parentheses (`@SuppressWarnings({"a"}) void f() {`) is not a boundary.
  const boundary = cut >= 0 && balance(head.slice(0, cut)) === 0 ? cut + 1 : 0;
  const text = line.slice(boundary, col + 1);
  return text.trim() === '{' ? '' : text;
}

/** Leading annotations (`@Override`, `@SuppressWarnings({"a", "b"})`) say nothing about the kind of block. */
function withoutAnnotations(declaration: string): string {
  let rest = declaration;
  for (;;) {
    const match = /^@[\w$.]+\s*/.exec(rest);
    if (!match) return rest;
    rest = rest.slice(match[0].length);
    if (rest.startsWith('(')) {
      let depth = 0;
      let end = 0;
      for (; end < rest.length; end++) {
        if (rest[end] === '(') depth++;
        else if (rest[end] === ')' && --depth === 0) break;
      }
      rest = rest.slice(end + 1).trimStart();
    }
  }
}

function balance(text: string): number {
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')') depth--;
  }
  return depth;
}
