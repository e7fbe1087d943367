/**
 * Which context pieces earn their place: for a case with a known fix (`fix.patch`), each
 * piece the first prompt included is judged by what the fix does with it. A piece is
 *
 *   edited      the fix changes one of its lines (or inserts next to one)
 *   referenced  it shows a name the fix introduces (a member the fix calls, of the
 *               project or a library, a field it reads, a type it names)
 *   expectation the failing test: the model reads what is expected there, the fix never
 *               touches it (counted apart, never as unused)
 *   unused      none of these
 *
 * Pure functions of the pieces and the patch text. What the
 * bench measures with them (`npm run bench:context`) decides what the packer takes.
 */
import { parsePatch } from 'diff';
import type { ContextPiece } from '../model/prompts/index.js';
import { javaIdentifiers } from './fix-coverage.js';

export type PieceUse = 'edited' | 'referenced' | 'expectation' | 'unused';

/** A hunk as the fix changes the file it had: the old lines it touches (1-based, inclusive). */
export interface FixTouch {
  path: string;
  /** Old line numbers removed or changed; for a pure insertion, the lines on either side of it. */
  lines: number[];
}

export interface FixShape {
  touches: FixTouch[];
  /**
   * Names the fix adds that its removed lines did not have (`add` where `push` was): a member of the project or of a
   * library the model had to be told of. Java keywords are not names.
   */
  introduced: Set<string>;
}

const stripPrefix = (name: string | undefined) => (name ?? '').replace(/^[ab]\//, '');

/** Where the fix lands and which names it brings in. */
export function fixShape(patch: string): FixShape {
  const touches: FixTouch[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  for (const file of parsePatch(patch)) {
    const path = stripPrefix(file.oldFileName);
    if (path === '' || path === '/dev/null') continue;
    const lines: number[] = [];
    for (const hunk of file.hunks) {
      let old = hunk.oldStart;
      // Lines added right after removed ones replace them; added after context lines are an insertion.
      let replacing = false;
      for (const line of hunk.lines) {
        if (line.startsWith('-')) {
          lines.push(old);
          removed.push(line.slice(1));
          old += 1;
          replacing = true;
        } else if (line.startsWith('+')) {
          // An insertion sits between old - 1 and old: both neighbours place it.
          if (!replacing) lines.push(old - 1, old);
          added.push(line.slice(1));
        } else if (line.startsWith(' ')) {
          old += 1;
          replacing = false;
        }
      }
    }
    touches.push({ path, lines: [...new Set(lines)].filter((n) => n >= 1) });
  }
  const before = javaIdentifiers(removed.join('\n'));
  const introduced = new Set([...javaIdentifiers(added.join('\n'))].filter((name) => !before.has(name)));
  return { touches, introduced };
}

/** What the fix does with one included piece. */
export function pieceUse(piece: ContextPiece, fix: FixShape): PieceUse {
  if (piece.path !== undefined && piece.startLine !== undefined) {
    const first = piece.startLine;
    const last = first + piece.text.split('\n').length - 1;
    const touch = fix.touches.find((candidate) => candidate.path === piece.path);
    if (touch?.lines.some((line) => line >= first && line <= last)) return 'edited';
  }
  if (fix.introduced.size > 0) {
    const names = new Set(piece.text.match(/[A-Za-z_$][\w$]*/g) ?? []);
    if ([...fix.introduced].some((name) => names.has(name))) return 'referenced';
  }
  return piece.tier === 'test' ? 'expectation' : 'unused';
}

/**
 * The kind of a piece, for the table: why it is shown with the names taken out
 * (`rest of Series` -> `rest of the class`), and what it is (`method`, `imports`, ...).
 */
export function pieceKind(piece: ContextPiece): string {
  const reason = (piece.reason ?? '')
    .replace(/^(where it fails|where javac fails|where .+ fails):.*$/, 'where it fails')
    .replace(/^on the failing call path .*$/, 'on the failing call path')
    .replace(/^rest of .*$/, 'rest of the class')
    .replace(/^fields of (?!the test).*$/, 'fields of the class')
    .replace(/^code under test: .*$/, 'code under test')
    .replace(/^called by the test .*$/, 'called by the test')
    .replace(/^called by .*$/, 'called deeper')
    .replace(/^a type with a name near .*$/, 'a type with a near name')
    .replace(/^declarations .* may mean: .*\(a supertype\)$/, 'declarations the symbol may mean, a supertype')
    .replace(/^declarations (?!the symbol ).* may mean.*$/, 'declarations the symbol may mean')
    .replace(/^(the type|a member|members?) .*$/, 'the symbol javac names');
  const what = /^(imports of|declaration of|field|declaration|members of|lines|part of|start of)/.exec(
    piece.label,
  )?.[1];
  const shape = what ?? (/^(method|constructor)\b/.test(piece.label) ? 'method' : 'other');
  return `${piece.tier} · ${reason || 'no reason'} · ${shape}`;
}

export interface KindUse {
  kind: string;
  /** Included pieces of this kind, over all cases. */
  pieces: number;
  /** Cases where at least one piece of this kind was included. */
  cases: number;
  tokens: number;
  edited: number;
  referenced: number;
  expectation: number;
  unused: number;
  /** Cases where a piece of this kind was edited or referenced. */
  casesUsed: number;
}

export interface CasePieces {
  name: string;
  pieces: { piece: ContextPiece; use: PieceUse; tokens: number }[];
}

/** Per kind of piece over every case: how often it was shown, what it cost, and how often the fix used it. */
export function kindUse(cases: readonly CasePieces[]): KindUse[] {
  const rows = new Map<string, KindUse & { seen: Set<string>; used: Set<string> }>();
  for (const entry of cases)
    for (const { piece, use, tokens } of entry.pieces) {
      const kind = pieceKind(piece);
      const row = rows.get(kind) ?? {
        kind,
        pieces: 0,
        cases: 0,
        tokens: 0,
        edited: 0,
        referenced: 0,
        expectation: 0,
        unused: 0,
        casesUsed: 0,
        seen: new Set<string>(),
        used: new Set<string>(),
      };
      row.pieces += 1;
      row.tokens += tokens;
      row[use] += 1;
      row.seen.add(entry.name);
      if (use === 'edited' || use === 'referenced') row.used.add(entry.name);
      rows.set(kind, row);
    }
  return [...rows.values()]
    .map(({ seen, used, ...row }) => ({ ...row, cases: seen.size, casesUsed: used.size }))
    .sort((a, b) => b.tokens - a.tokens || a.kind.localeCompare(b.kind));
}

export function formatKindUse(rows: readonly KindUse[]): string {
  const total = rows.reduce((sum, row) => sum + row.tokens, 0) || 1;
  const lines = [
    '| tier · why shown · what | pieces | in cases | tokens | share | edited | referenced | expectation | unused | cases that used it |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.kind} | ${row.pieces} | ${row.cases} | ${row.tokens} | ${Math.round((100 * row.tokens) / total)}% | ${row.edited} | ${row.referenced} | ${row.expectation} | ${row.unused} | ${row.casesUsed} |`,
    ),
  ];
  return lines.join('\n');
}
