/**
 * The context budget: which pieces of code go into a prompt. A pure function of the
 * pieces the repair stage gathered (each a whole method, a type's declarations, a file
 * header, or a library type's member list) and a token budget. Pieces are taken by tier,
 * then by relevance, whole or not at all; what did not fit is named in the prompt.
 *
 * Tiers, in order: `primary` (the methods at the failure: the root cause's frame, the
 * line javac names), `declaration` (what the fix may need to call: the receiver type's
 * members, called methods), `test` (the failing test), `other` (callers, the rest).
 *
 * `other` is supporting context: the rest of a class, imports away from a compile error, fields no shown method
 * reads. Measured on the bench's right fixes and jsoup's (bench/results-context-use.md), it was most of what a
 * large project's prompt showed and little of what the fixes used, so it is taken only within an allowance beside
 * the rest (SUPPORTING_SHARE of it, at least SUPPORTING_FLOOR), not until the window is full.
 */
import { estimateTokens } from '../context-window.js';

export type ContextTier = 'primary' | 'declaration' | 'test' | 'other';
export const CONTEXT_TIERS: readonly ContextTier[] = ['primary', 'declaration', 'test', 'other'];

export interface ContextPiece {
  /**
   * Project-relative path when the piece is lines of a project file (which the model may
   * then edit); absent for declarations read from the JDK or a jar.
   */
  path?: string;
  /** 1-based number of the first line, for a piece of a project file. */
  startLine?: number;
  /** The lines (joined with `\n`), or for a library piece the text to show. */
  text: string;
  tier: ContextTier;
  /** Higher is more relevant within the tier. */
  score: number;
  /** What the piece is, as the left-out list names it: `method CsvRow.cell(String)`. */
  label: string;
  /** Why it is shown: `root cause: java.lang.NullPointerException`, `called by the test`. */
  reason?: string;
  /** Heading of a library piece: `java.util.List (JDK)`. */
  heading?: string;
}

export interface PackResult {
  /** In the order they were taken (tier, then score). */
  included: ContextPiece[];
  /** Pieces that did not fit, in the same order. */
  omitted: ContextPiece[];
  /** Estimated tokens of the included pieces as rendered. */
  tokens: number;
}

/** Supporting (`other`) pieces may add this share of what the other tiers took... */
export const SUPPORTING_SHARE = 0.25;
/** ...or this many tokens, whichever is more: a small class's other methods fit beside a small failure. */
export const SUPPORTING_FLOOR = 300;

/** Tokens a new file heading and its fences cost beyond the lines. */
const FILE_OVERHEAD = 24;

export function orderPieces(pieces: readonly ContextPiece[]): ContextPiece[] {
  return pieces
    .map((piece, index) => ({ piece, index }))
    .sort(
      (a, b) =>
        CONTEXT_TIERS.indexOf(a.piece.tier) - CONTEXT_TIERS.indexOf(b.piece.tier) ||
        b.piece.score - a.piece.score ||
        a.index - b.index,
    )
    .map(({ piece }) => piece);
}

/**
 * Takes pieces in order while they fit `budgetTokens`. Lines already taken for another
 * piece of the same file cost nothing again, so a method inside a class already shown is
 * cheap. A piece that does not fit is left out whole; smaller ones after it may still fit. Supporting pieces
 * (tier `other`) must also fit their allowance beside what the other tiers took.
 */
export function packContext(pieces: readonly ContextPiece[], budgetTokens: number): PackResult {
  if (!Number.isFinite(budgetTokens) || budgetTokens < 0)
    throw new RangeError(`budgetTokens must be a non-negative number, got ${budgetTokens}`);
  const taken = new Map<string, Set<number>>();
  const included: ContextPiece[] = [];
  const omitted: ContextPiece[] = [];
  let tokens = 0;
  let core = 0;
  let supporting = 0;
  for (const piece of orderPieces(pieces)) {
    const cost = marginalCost(piece, taken);
    const isSupporting = piece.tier === 'other';
    if (
      tokens + cost > budgetTokens ||
      (isSupporting && cost > 0 && supporting + cost > Math.max(SUPPORTING_FLOOR, core * SUPPORTING_SHARE))
    ) {
      omitted.push(piece);
      continue;
    }
    tokens += cost;
    if (isSupporting) supporting += cost;
    else core += cost;
    included.push(piece);
    if (piece.path !== undefined && piece.startLine !== undefined) {
      const lines = taken.get(piece.path) ?? new Set<number>();
      pieceLines(piece).forEach((_, offset) => lines.add(piece.startLine! + offset));
      taken.set(piece.path, lines);
    }
  }
  return { included, omitted, tokens };
}

function pieceLines(piece: ContextPiece): string[] {
  return piece.text.replace(/\r\n/g, '\n').split('\n');
}

function marginalCost(piece: ContextPiece, taken: ReadonlyMap<string, Set<number>>): number {
  if (piece.path === undefined || piece.startLine === undefined)
    return estimateTokens(`${piece.heading ?? piece.label}\n${piece.text}`) + FILE_OVERHEAD;
  const lines = taken.get(piece.path);
  const fresh = pieceLines(piece)
    .map((text, offset) => ({ text, number: piece.startLine! + offset }))
    .filter((line) => !lines?.has(line.number));
  if (fresh.length === 0) return 0;
  // Numbered as rendered; a new run of lines opens a fence of its own.
  const body = fresh.map((line) => `${line.number} | ${line.text}`).join('\n');
  return estimateTokens(body) + (lines ? 8 : FILE_OVERHEAD + estimateTokens(piece.path));
}
