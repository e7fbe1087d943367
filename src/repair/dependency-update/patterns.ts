/**
 * A fix per update, not per file: once an attempt changed one site of the update (a
 * model's edit adopted as progress), the change of that line (old call -> new call) is a
 * pattern, and the same pattern is written at the other sites javac still reports,
 * before the model is asked again. Patterns are read from the tree as the attempt sees
 * it against the original files; each is a token-level edit with the arguments that both
 * sides share turned into wildcards (`connect(host)` -> `open(host, Options.defaults())`
 * applies to `connect(url)`).
 */
import { diffArrays } from 'diff';

export interface LinePattern {
  /** The old code, as written at the first site. */
  from: string;
  to: string;
  regex: RegExp;
  /** `$1`-style template of the new code. */
  template: string;
}

const TOKEN = /[\w$]+|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\S/g;
const WILDCARD = '([\\w$.]+|"(?:\\\\.|[^"\\\\])*"|\'(?:\\\\.|[^\'\\\\])*\')';

interface Token {
  text: string;
  at: number;
}

const tokens = (line: string): Token[] =>
  [...line.matchAll(TOKEN)].map((match) => ({ text: match[0], at: match.index }));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A variable or a literal: what differs from site to site. Type and member names stay literal. */
const isArgument = (text: string) => /^[a-z_][\w$]*$/.test(text) || /^["'\d]/.test(text);

/** The pattern of one changed line, or undefined when nothing general can be read from it. */
export function patternOfLine(before: string, after: string): LinePattern | undefined {
  const a = tokens(before);
  const b = tokens(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix]!.text === b[prefix]!.text) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix]!.text === b[b.length - 1 - suffix]!.text
  )
    suffix++;
  // Start at a name (a member called or selected, a type, `new`), never inside the arguments.
  const isAnchor = (index: number) => {
    const text = a[index]!.text;
    return (
      text === 'new' ||
      /^[A-Z][\w$]*$/.test(text) ||
      (/^[a-z_$][\w$]*$/.test(text) && ['(', '.'].includes(a[index + 1]?.text ?? ''))
    );
  };
  while (prefix > 0 && prefix < a.length - suffix && !isAnchor(prefix)) prefix--;
  const oldPart = a.slice(prefix, a.length - suffix);
  const newPart = b.slice(prefix, b.length - suffix);
  if (oldPart.length === 0 || !isAnchor(prefix)) return undefined;
  // The first word of the old code stays literal, so that a pattern never matches any call at all.
  const captured: string[] = [];
  const regexParts = oldPart.map((token, index) => {
    if (index > 0 && isArgument(token.text) && newPart.some((other) => other.text === token.text)) {
      if (!captured.includes(token.text)) captured.push(token.text);
      return WILDCARD;
    }
    return escape(token.text);
  });
  const newText = after.slice(
    newPart[0]?.at ?? b[prefix]?.at ?? after.length,
    newPart.length > 0 ? newPart.at(-1)!.at + newPart.at(-1)!.text.length : (b[prefix]?.at ?? after.length),
  );
  let template = newText.replace(/\$/g, '$$$$');
  captured.forEach((text, index) => {
    template = template.replace(new RegExp(`(?<![\\w$."'])${escape(text)}(?![\\w$"'])`, 'g'), `$${index + 1}`);
  });
  // A repeated argument must be the same text at every place: backreferences after the first.
  const seen = new Map<string, number>();
  let group = 0;
  const regexSource = oldPart
    .map((token, index) => {
      const part = regexParts[index]!;
      if (part !== WILDCARD) return part;
      group++;
      const first = seen.get(token.text);
      if (first !== undefined) return `\\${first}`;
      seen.set(token.text, group);
      return part;
    })
    .join('\\s*');
  const fromText = before.slice(oldPart[0]!.at, oldPart.at(-1)!.at + oldPart.at(-1)!.text.length);
  return {
    from: fromText,
    to: newText,
    regex: new RegExp(`(?<![\\w$])${regexSource}`),
    template: renumber(template, captured, seen),
  };
}

/** Template groups follow the regex's numbering (only first occurrences are groups). */
function renumber(template: string, captured: string[], seen: Map<string, number>): string {
  return template.replace(/\$(\d+)/g, (whole, n: string) => {
    const name = captured[Number(n) - 1];
    const group = name === undefined ? undefined : seen.get(name);
    return group === undefined ? whole : `$${group}`;
  });
}

/** Changed line pairs between two versions of a file (runs of equal length replaced line for line). */
export function changedLines(before: string, after: string): { before: string; after: string }[] {
  const out: { before: string; after: string }[] = [];
  const parts = diffArrays(before.split('\n'), after.split('\n'));
  for (let i = 0; i < parts.length - 1; i++) {
    const removed = parts[i]!;
    const added = parts[i + 1]!;
    if (!removed.removed || !added.added || removed.value.length !== added.value.length) continue;
    removed.value.forEach((line, index) => out.push({ before: line, after: added.value[index]! }));
  }
  return out;
}

/** The patterns an attempt's tree holds: every changed line of every changed file. */
export function patternsOf(files: { before: string; after: string }[]): LinePattern[] {
  const out: LinePattern[] = [];
  for (const file of files) {
    for (const pair of changedLines(file.before, file.after)) {
      const pattern = patternOfLine(pair.before, pair.after);
      if (
        pattern &&
        !out.some((known) => known.regex.source === pattern.regex.source && known.template === pattern.template)
      )
        out.push(pattern);
    }
  }
  return out;
}

/** `line` with the first pattern that matches written in, or undefined. */
export function applyPatterns(
  line: string,
  patterns: readonly LinePattern[],
): { line: string; pattern: LinePattern } | undefined {
  for (const pattern of patterns) {
    const match = pattern.regex.exec(line);
    if (!match) continue;
    const written = pattern.template.replace(/\$(\d+)|\$\$/g, (whole, n?: string) =>
      n === undefined ? '$' : (match[Number(n)] ?? whole),
    );
    return { line: `${line.slice(0, match.index)}${written}${line.slice(match.index + match[0].length)}`, pattern };
  }
  return undefined;
}
