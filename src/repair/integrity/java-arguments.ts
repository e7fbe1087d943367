/**
 * A call's arguments read from Java text without a parser: the commas at the top level between the brackets, found in
 * the masked text (comments and literals blanked, so a comma or bracket inside a string is not one) and taken from
 * the real text. Used by the rules and the behaviour verdict alike.
 */

/** The arguments between `open` and `close`, split at top-level commas, each trimmed. */
export function splitTopLevel(text: string, masked: string, open: number, close: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = open;
  for (let at = open; at < close; at++) {
    const char = masked[at];
    if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ')' || char === ']' || char === '}') depth--;
    else if (char === ',' && depth === 0) {
      out.push(text.slice(start, at).trim());
      start = at + 1;
    }
  }
  out.push(text.slice(start, close).trim());
  return out;
}
