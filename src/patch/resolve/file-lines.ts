/**
 * A file as lines without their endings, plus the endings, so edits can match on content
 * and still give back every untouched line byte for byte.
 */
export interface FileLines {
  lines: string[];
  /** The ending after each line; '' only possible for the last line. */
  eols: string[];
  /** The file's dominant ending, given to new lines. */
  eol: '\n' | '\r\n';
  finalNewline: boolean;
}

export function splitFile(content: string): FileLines {
  const lines: string[] = [];
  const eols: string[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  for (;;) {
    const at = content.indexOf('\n', start);
    if (at < 0) break;
    const isCrlf = at > start && content.charCodeAt(at - 1) === 13;
    if (isCrlf) crlf++;
    else lf++;
    lines.push(content.slice(start, isCrlf ? at - 1 : at));
    eols.push(isCrlf ? '\r\n' : '\n');
    start = at + 1;
  }
  const finalNewline = start === content.length;
  if (!finalNewline) {
    lines.push(content.slice(start));
    eols.push('');
  }
  return { lines, eols, eol: crlf > lf ? '\r\n' : '\n', finalNewline: finalNewline || content === '' };
}

export function joinFile(file: FileLines): string {
  let out = '';
  const last = file.lines.length - 1;
  for (let i = 0; i <= last; i++) {
    const own = file.eols[i] || file.eol;
    out += (file.lines[i] as string) + (i === last && !file.finalNewline ? '' : own);
  }
  return out;
}

/** Split text the model wrote (already LF) into lines, a final newline ending the last line. */
export function splitModelText(text: string): string[] {
  // Stryker disable next-line StringLiteral: an empty text split on newlines, its empty last line popped, is [] too
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
