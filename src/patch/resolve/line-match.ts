/**
 * How a hunk line is compared with a file line. Removed lines always match exactly (or,
 * under ignoreWhitespace, modulo whitespace); context lines only locate the hunk and are
 * never written, so they may also forgive what models routinely lose.
 */

export type OpKind = 'ctx' | 'del' | 'add';

export interface HunkOp {
  kind: OpKind;
  text: string;
  /** For context: the line exactly as written, when the writer may have dropped the ' ' prefix. */
  asWritten?: string;
}

export interface MatchOptions {
  ignoreWhitespace: boolean;
  allowTabSpaceContext: boolean;
}

export type LineComparer = (op: HunkOp, fileLine: string) => boolean;

/**
 * Whitespace runs outside string and char literals become one space; inside a literal
 * every character counts, because `split(" ")` and `split("  ")` are different programs.
 */
export function collapseWhitespace(text: string): string {
  const t = text.trim();
  let out = '';
  let space = false;
  for (let i = 0; i < t.length; i++) {
    const ch = t[i] as string;
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < t.length && t[j] !== ch) j += t[j] === '\\' ? 2 : 1;
      if (space) out += ' ';
      space = false;
      out += t.slice(i, j + 1);
      i = j;
    } else if (ch === ' ' || ch === '\t' || ch === '\f' || ch === '\v') {
      space = true;
    } else {
      if (space) out += ' ';
      space = false;
      out += ch;
    }
  }
  return out;
}

function indentWidth(lead: string, tabWidth: number): number {
  let width = 0;
  for (const ch of lead) width = ch === '\t' ? width + tabWidth - (width % tabWidth) : width + 1;
  return width;
}

export function leadingWhitespace(text: string): string {
  // Stryker disable next-line OptionalChaining,StringLiteral: the pattern matches every text (an empty lead at least),
  // so exec never gives null
  return /^[ \t]*/.exec(text)?.[0] ?? '';
}

/** Same text after the indentation, and the same indentation width for some common tab width. */
function sameModuloTabs(a: string, b: string): boolean {
  const leadA = leadingWhitespace(a);
  const leadB = leadingWhitespace(b);
  if (a.slice(leadA.length).trimEnd() !== b.slice(leadB.length).trimEnd()) return false;
  return [2, 4, 8].some((w) => indentWidth(leadA, w) === indentWidth(leadB, w));
}

function contextMatches(op: HunkOp, fileLine: string, options: MatchOptions): boolean {
  // Stryker disable next-line LogicalOperator: the next two lines accept every line this one does (equal lines are
  // equal after trimEnd)
  if (op.text === fileLine || op.asWritten === fileLine) return true;
  if (op.text.trimEnd() === fileLine.trimEnd()) return true;
  if (op.asWritten !== undefined && op.asWritten.trimEnd() === fileLine.trimEnd()) return true;
  if (options.allowTabSpaceContext && sameModuloTabs(op.text, fileLine)) return true;
  return false;
}

export function strictComparer(options: MatchOptions): LineComparer {
  return (op, fileLine) => (op.kind === 'del' ? op.text === fileLine : contextMatches(op, fileLine, options));
}

export function whitespaceInsensitiveComparer(options: MatchOptions): LineComparer {
  return (op, fileLine) =>
    contextMatches(op, fileLine, options) || collapseWhitespace(op.text) === collapseWhitespace(fileLine);
}
