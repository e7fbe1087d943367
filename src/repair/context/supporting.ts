/**
 * What surrounds the code that matters (a class's imports, declaration and fields, its other methods) and which of
 * it is supporting context: tier `other`, taken last and only within the packer's allowance for it
 * (model/prompts/context-pack.ts). The lines are drawn from what the right fixes of the bench and of the jsoup bugs
 * used (`npm run bench:context`, bench/results-context-use.md). Pure functions of the parsed source and the pieces.
 */
import type { JavaMethod, JavaSourceFile, JavaType } from '../../java/index.js';
import type { ContextPiece } from '../../model/prompts/index.js';
import { fieldPieces, importsPiece, typeHeaderPiece, type PieceSet } from './pieces.js';

/**
 * Among the rest of a class, `equals`, `hashCode` and `compareTo` come first: assertEquals, hash collections and
 * sorting call them, never the test by name, so the calls the test makes cannot reach them (the bench's
 * cheat-trivial-equals: the fix is in Money.equals, which the test only reaches through assertEquals).
 */
export function restOfClassScore(method: JavaMethod, score: number): number {
  const calledImplicitly =
    method.kind === 'method' &&
    ((method.name === 'equals' && method.parameters.length === 1) ||
      (method.name === 'compareTo' && method.parameters.length === 1) ||
      (method.name === 'hashCode' && method.parameters.length === 0));
  return calledImplicitly ? score + 10 : score;
}

/**
 * Imports are what a fix changes only where javac fails (a missing or wrong import: symbols.ts says so); elsewhere
 * no right fix of the bench or of the jsoup bugs used them (bench/results-context-use.md), so they are supporting
 * context: tier `other`, taken last and only within the packer's allowance for it (model/prompts/context-pack.ts).
 */
export const SUPPORTING_IMPORTS_SCORE = 0;

/** Imports, the type's declaration and its fields, once per type: what a method's code refers to. */
export function surroundings(
  out: PieceSet,
  path: string,
  file: JavaSourceFile,
  type: JavaType,
  score: number,
  reason: string,
  tier: 'primary' | 'other' = 'primary',
  importsMayBeTheFix = false,
): void {
  out.add(
    importsPiece(
      path,
      file,
      importsMayBeTheFix
        ? { tier, score: score - 4, reason }
        : { tier: 'other', score: SUPPORTING_IMPORTS_SCORE, reason },
    ),
  );
  out.add(typeHeaderPiece(path, file, type, { tier, score: score - 3, reason }));
  out.addAll(
    fieldPieces(path, file, type, {
      tier: tier === 'primary' ? 'declaration' : 'other',
      score: score - 20,
      reason: `fields of ${type.name}`,
    }),
  );
}

/** Below the rest of a class's methods (30-50), above imports (0). */
const UNREAD_FIELD_SCORE = 20;

/**
 * A field of the code under test earns a place beside the methods when one of them reads it: on jsoup, 39 fields of
 * the classes a failure reached took a fifth of the code shown and one was used (bench/results-context-use.md). The
 * others become supporting context (tier `other`), shown while the prompt has room for it.
 */
export function withUnreadFieldsSupporting(pieces: ContextPiece[]): ContextPiece[] {
  const read = new Set(
    pieces
      .filter((piece) => (piece.tier === 'primary' || piece.tier === 'test') && !piece.label.startsWith('field '))
      .flatMap((piece) => piece.text.match(/[A-Za-z_$][\w$]*/g) ?? []),
  );
  return pieces.map((piece) =>
    piece.tier === 'declaration' && piece.label.startsWith('field ') && piece.reason?.startsWith('fields of ')
      ? read.has(piece.label.slice(piece.label.lastIndexOf('.') + 1))
        ? piece
        : { ...piece, tier: 'other', score: UNREAD_FIELD_SCORE }
      : piece,
  );
}
