/**
 * Which parts of a source file the model sees. In order of what helps a repair most:
 * the lines right at the error, the package and imports (half of all compile errors are
 * about them), the class line, a window around the error, then the whole enclosing
 * method. Each part is taken only when it fits the budget, so the most useful survive.
 */
import { findBraceBlocks, type BraceBlock } from './java-blocks.js';

export interface SourceExcerpt {
  /** Project-root relative, forward slashes. */
  path: string;
  /** The excerpt's lines joined with `\n`, without line numbers. */
  text: string;
  /** 1-based number of the excerpt's first line. */
  startLine: number;
}

const NEAR = 2;
const WINDOW = 8;
/** Gaps this small are filled in: a reader loses more over a two-line hole than the lines cost. */
const FILLABLE_GAP = 2;

export function selectSourceExcerpts(fileText: string, path: string, focusLines: number[], budgetChars: number): SourceExcerpt[] {
  if (!Number.isFinite(budgetChars) || budgetChars <= 0) throw new RangeError(`budgetChars must be a positive number, got ${budgetChars}`);
  for (const line of focusLines) {
    if (!Number.isInteger(line)) throw new RangeError(`focus lines must be integers, got ${line}`);
  }
  if (fileText === '') return [];
  const lines = fileText.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const last = lines.length;
  const focus = [...new Set((focusLines.length > 0 ? focusLines : [1]).map((line) => Math.min(Math.max(line, 1), last)))].sort((a, b) => a - b);
  const blocks = findBraceBlocks(lines);

  const chosen = new Set<number>();
  let used = 0;
  const cost = (line: number) => (lines[line - 1] ?? '').length + 1;
  /** Adds the whole range or nothing; returns whether it was added. */
  const take = (from: number, to: number): boolean => {
    let extra = 0;
    for (let line = Math.max(1, from); line <= Math.min(last, to); line++) if (!chosen.has(line)) extra += cost(line);
    if (used + extra > budgetChars) return false;
    for (let line = Math.max(1, from); line <= Math.min(last, to); line++) chosen.add(line);
    used += extra;
    return true;
  };

  for (const line of focus) {
    for (let reach = NEAR; reach >= 0 && !take(line - reach, line + reach); reach--);
  }
  const header = headerRange(lines);
  if (header && !take(header.from, header.to)) take(header.from, header.from);
  for (const type of outerTypes(blocks, focus)) take(type.declarationStart, type.open);
  for (const line of focus) take(line - WINDOW, line + WINDOW);
  for (const line of focus) {
    const method = enclosingMethod(blocks, line);
    if (method) take(method.declarationStart, method.close);
  }
  fillSmallGaps(chosen, take);

  if (chosen.size === 0) {
    // Not even the focus line fits whole: a cut line still tells the model where it is.
    const line = focus[0] as number;
    return [{ path, text: (lines[line - 1] ?? '').slice(0, Math.max(0, Math.floor(budgetChars) - 1)), startLine: line }];
  }
  return toExcerpts(path, lines, chosen);
}

/** From the package line (or the first import) to the last import. */
function headerRange(lines: readonly string[]): { from: number; to: number } | undefined {
  let from: number | undefined;
  let to: number | undefined;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index] ?? '';
    if (/^\s*(?:package|import)\s+[\w.*\s]+;/.test(text)) {
      from ??= index + 1;
      to = index + 1;
    } else if (from !== undefined && /^\s*(?:(?:public|final|abstract|sealed)\s+)*(?:class|interface|enum|record|@interface)\b/.test(text)) {
      break;
    }
  }
  return from !== undefined && to !== undefined ? { from, to } : undefined;
}

function outerTypes(blocks: readonly BraceBlock[], focus: readonly number[]): BraceBlock[] {
  const types = blocks.filter((block) => block.kind === 'type' && focus.some((line) => block.declarationStart <= line && line <= block.close));
  return types.filter((type) => !types.some((other) => other !== type && other.open < type.open && type.close <= other.close));
}

function enclosingMethod(blocks: readonly BraceBlock[], line: number): BraceBlock | undefined {
  let innermost: BraceBlock | undefined;
  for (const block of blocks) {
    if (block.kind !== 'method' || line < block.declarationStart || line > block.close) continue;
    if (!innermost || block.open >= innermost.open) innermost = block;
  }
  return innermost;
}

function fillSmallGaps(chosen: Set<number>, take: (from: number, to: number) => boolean): void {
  const sorted = [...chosen].sort((a, b) => a - b);
  for (let index = 1; index < sorted.length; index++) {
    const previous = sorted[index - 1] as number;
    const current = sorted[index] as number;
    const gap = current - previous - 1;
    if (gap > 0 && gap <= FILLABLE_GAP) take(previous + 1, current - 1);
  }
}

function toExcerpts(path: string, lines: readonly string[], chosen: Set<number>): SourceExcerpt[] {
  const sorted = [...chosen].sort((a, b) => a - b);
  const excerpts: SourceExcerpt[] = [];
  let start = sorted[0] as number;
  let previous = start;
  const flush = () => excerpts.push({ path, startLine: start, text: lines.slice(start - 1, previous).join('\n') });
  for (const line of sorted.slice(1)) {
    if (line !== previous + 1) {
      flush();
      start = line;
    }
    previous = line;
  }
  flush();
  return excerpts;
}
