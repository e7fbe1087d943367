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
  const stack: number[] = [];
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
        stack.push(index + 1);
      } else if (char === '}') {
        const open = stack.pop();
        if (open !== undefined) blocks.push(describeBlock(lines, open, index + 1));
      }
    }
  }
  while (stack.length > 0) blocks.push(describeBlock(lines, stack.pop() as number, lines.length));
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

function describeBlock(lines: readonly string[], open: number, close: number): BraceBlock {
  let start = open;
  let text = codeBefore(lines[open - 1] ?? '');
  // Allman style: the declaration is on the line(s) above a lone `{`.
  if (text.trim() === '' && open > 1) {
    start = open - 1;
    text = lines[start - 1] ?? '';
  }
  // A parameter list spread over several lines: walk up until the parentheses balance.
  for (let steps = 0; balance(text) < 0 && start > 1 && steps < 8; steps++) {
    start--;
    text = `${lines[start - 1] ?? ''}\n${text}`;
  }
  while (start > 1 && /^\s*@/.test(lines[start - 2] ?? '')) start--;
  const declaration = text.replace(/\s+/g, ' ').trim();
  let kind: BraceBlock['kind'] = 'other';
  if (TYPE_DECLARATION.test(declaration) && !declaration.includes('(')) kind = 'type';
  else if (TYPE_DECLARATION.test(declaration) && /\brecord\b/.test(declaration)) kind = 'type';
  else if (!CONTROL.test(declaration) && !/[=]|->/.test(declaration.split('(')[0] ?? '') && !declaration.includes('->') && METHOD_DECLARATION.test(declaration)) kind = 'method';
  return { open, close, declarationStart: start, kind };
}

/** The text of a line up to its first `{`, which is what declares the block. */
function codeBefore(line: string): string {
  const brace = line.indexOf('{');
  return brace >= 0 ? line.slice(0, brace + 1) : line;
}

function balance(text: string): number {
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')') depth--;
  }
  return depth;
}
