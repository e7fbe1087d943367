/**
 * The part of a text that a patch changed, quoted for a reason the model and a reviewer
 * read: two long annotations or statements that differ in one `@CsvSource` row or one
 * matcher are named by that row or matcher, not by their first characters.
 */

/** Java-ish tokens: words and numbers, string and char literals, single punctuation. */
const TOKEN = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[\p{L}\p{N}_$.]+|\S/gu;

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

function tokens(text: string): { text: string; start: number; end: number }[] {
  return [...text.matchAll(TOKEN)].map((match) => ({
    text: match[0],
    start: match.index,
    end: match.index + match[0].length,
  }));
}

export interface DifferingPart {
  /** The changed part before (empty when something was only added). */
  removed: string;
  /** The changed part after (empty when something was only deleted). */
  added: string;
  /** The call or annotation whose arguments the change sits in: `assertEquals`, `@CsvSource`. */
  within?: string;
}

/**
 * What differs between `before` and `after`, token by token: the common start and end are
 * cut off, then the middle is widened to balanced brackets (`is(5)` to `greaterThan(0)`,
 * not `is(5` to `greaterThan(0`) and to a whole list item (`"3, 9"`, not `, "3, 9"`).
 * Undefined when the two differ only in white space.
 */
export function differingPart(before: string, after: string): DifferingPart | undefined {
  const a = tokens(before);
  const b = tokens(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head]!.text === b[head]!.text) head++;
  if (head === a.length && head === b.length) return undefined;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail]!.text === b[b.length - 1 - tail]!.text
  )
    tail++;
  // Widen both sides alike until each middle is balanced: the same tokens are taken from the common parts.
  for (let guard = 0; guard < 64; guard++) {
    const unbalanced = imbalance(a.slice(head, a.length - tail)) || imbalance(b.slice(head, b.length - tail));
    if (unbalanced === 0) break;
    if (unbalanced > 0 && tail > 0) tail--;
    else if (unbalanced < 0 && head > 0) head--;
    else break;
  }
  const quote = (list: { text: string; start: number; end: number }[], text: string, from: number, to: number) =>
    from < to ? text.slice(list[from]!.start, list[to - 1]!.end) : '';
  // A removed or added list item is quoted without the comma that separated it.
  const trimSeparator = (text: string) => text.replace(/^\s*,\s*|\s*,\s*$/g, '');
  const within = enclosingCall(a.slice(0, head));
  return {
    removed: trimSeparator(quote(a, before, head, a.length - tail)),
    added: trimSeparator(quote(b, after, head, b.length - tail)),
    ...(within ? { within } : {}),
  };
}

/** The name before the innermost `(` still open at the end of `prefix`. */
function enclosingCall(prefix: { text: string }[]): string | undefined {
  const open: number[] = [];
  prefix.forEach((token, index) => {
    if (OPENERS[token.text]) open.push(index);
    else if (Object.values(OPENERS).includes(token.text)) open.pop();
  });
  for (let at = open.length - 1; at >= 0; at--) {
    const index = open[at]!;
    if (prefix[index]!.text !== '(' || index === 0) continue;
    const name = prefix[index - 1]!.text;
    if (!/^[\p{L}_$][\p{L}\p{N}_$.]*$/u.test(name)) return undefined;
    return index > 1 && prefix[index - 2]!.text === '@' ? `@${name}` : name;
  }
  return undefined;
}

/** How alike two texts are, 0 to 1: the share of tokens in their common start and end. */
export function similarity(before: string, after: string): number {
  const a = tokens(before);
  const b = tokens(after);
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  let head = 0;
  while (head < a.length && head < b.length && a[head]!.text === b[head]!.text) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail]!.text === b[b.length - 1 - tail]!.text
  )
    tail++;
  return (head + tail) / longest;
}

/** Positive: more openers than closers (widen to the right); negative: the other way. */
function imbalance(list: { text: string }[]): number {
  let depth = 0;
  let lowest = 0;
  for (const token of list) {
    if (OPENERS[token.text]) depth++;
    else if (Object.values(OPENERS).includes(token.text)) depth--;
    lowest = Math.min(lowest, depth);
  }
  return lowest < 0 ? -1 : depth > 0 ? 1 : 0;
}

/** `` `x` became `y` ``, `` added `y` ``, `` deleted `x` ``, each side cut to `max` characters. */
export function describeDifference(before: string, after: string, max = 120): string | undefined {
  const part = differingPart(before, after);
  if (!part) return undefined;
  const cut = (text: string) => {
    // Stryker disable next-line MethodExpression: a part runs from its first token's start to its last token's end (a
    // leading comma cut with its white space), so it has no white space to trim
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
  };
  const within = part.within ? ` in \`${part.within}(...)\`` : '';
  if (part.removed === '') return `added \`${cut(part.added)}\`${within}`;
  if (part.added === '') return `deleted \`${cut(part.removed)}\`${within}`;
  return `\`${cut(part.removed)}\` became \`${cut(part.added)}\`${within}`;
}
