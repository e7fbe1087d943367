/**
 * "';' expected": javac points just after the last token of the unfinished statement
 * (checked on real output: `int next = count + step` at column 32 of a line whose code
 * ends at column 31). The `;` goes exactly there, but only when that token plainly ends
 * a statement and nothing but a comment follows it on the line.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { isPlacedCompileError } from './support/diagnostic-text.js';
// The file does not parse (that is the failure), so this fixer reads the masked text.
import { joinLines, maskCommentsAndLiterals, splitLines } from '../../java/index.js';
import type { FixCandidate, Fixer, SourceView } from '../../plugins/contracts.js';

const NAME = 'missing-semicolon';

/** Characters a statement can end with: identifiers, literals, closing brackets, `++`/`--`. */
const STATEMENT_END = /(?:[\w$)\]"']|\+\+|--)$/;
/** Next-line starts that continue an expression rather than begin a statement. */
const CONTINUATION = /^(?:[.+\-*/%&|^?:=<>,)\]{]|instanceof\b)/;
const DECLARATION_HEAD =
  /^(?:(?:public|protected|private|static|final|abstract|synchronized)\s+)*(?:class|interface|enum|record)\b/;
/** A method or constructor header: it needs a body, not a semicolon. */
const METHOD_HEADER =
  /^(?:@\w+\s+)*(?:(?:public|protected|private|static|final|synchronized|native|abstract|default)\s+)*(?:<[^>]*>\s*)?[\w$.<>[\], ?]+\s+[\w$]+\s*\([^;]*\)\s*(?:throws\s+[\w$.,\s]+)?$/;
const JUMP_STATEMENT = /^(?:return|throw|yield)\b/;
const CONTROL_HEAD = /^(?:if|for|while|switch|catch|synchronized|else|do|try|finally)\b/;

function handles(diagnostic: Diagnostic): boolean {
  return (
    isPlacedCompileError(diagnostic) && diagnostic.message === "';' expected" && typeof diagnostic.column === 'number'
  );
}

function nextCodeLine(maskedLines: string[], after: number): string {
  return (
    maskedLines
      .slice(after + 1)
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

/** The corrected text, or undefined when inserting `;` at (line, column) is not certainly right. */
export function insertSemicolon(text: string, line: number, column: number): string | undefined {
  const source = splitLines(text);
  const masked = splitLines(maskCommentsAndLiterals(text)).lines;
  const index = line - 1;
  const code = masked[index];
  const original = source.lines[index];
  if (code === undefined || original === undefined || column < 2 || column - 1 > code.length) return undefined;
  const before = code.slice(0, column - 1);
  const after = original.slice(column - 1);
  // Masking blanks comment text, so a code-free rest means whitespace or a comment only.
  if (
    code
      .slice(column - 1)
      .replace(/\/\/|\/\*|\*\//g, '')
      .trim() !== ''
  )
    return undefined;
  const statement = before.trim();
  if (!STATEMENT_END.test(statement) || before.endsWith(' ') || before.endsWith('\t')) return undefined;
  if (DECLARATION_HEAD.test(statement) || CONTROL_HEAD.test(statement)) return undefined;
  if (!JUMP_STATEMENT.test(statement) && METHOD_HEADER.test(statement)) return undefined;
  if (CONTINUATION.test(nextCodeLine(masked, index))) return undefined;
  source.lines[index] = `${original.slice(0, column - 1)};${after}`;
  return joinLines(source);
}

async function propose(diagnostics: Diagnostic[], view: SourceView): Promise<FixCandidate[]> {
  const candidates: FixCandidate[] = [];
  for (const diagnostic of diagnostics.filter(handles)) {
    if (!isPlacedCompileError(diagnostic) || diagnostic.column === undefined) continue;
    const before = await view.read(diagnostic.file);
    if (before === undefined) continue;
    const after = insertSemicolon(before, diagnostic.line, diagnostic.column);
    if (after === undefined) continue;
    candidates.push({
      fixer: NAME,
      changeSet: { files: [{ path: diagnostic.file, before, after }] },
      confidence: 0.9,
      reason: `';' expected: add the missing semicolon at ${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`,
    });
  }
  return candidates;
}

export const missingSemicolonFixer: Fixer = { name: NAME, handles, propose };
