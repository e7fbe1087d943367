/**
 * "Fix lines in prompt": could a model have written the true fix from what it was shown?
 * A model cannot fix a line it never saw, nor call a member whose name it was never told.
 * For a case with a known fix (`fix.patch`), every line the fix removes or changes, the
 * line an insertion goes after, and every identifier the fix introduces that already
 * exists in the project must appear in the first prompt. Pure functions of text.
 */

export interface FixCoverageItem {
  kind: 'line' | 'anchor' | 'identifier';
  /** The trimmed line, or the identifier. */
  text: string;
  found: boolean;
}

export interface FixCoverage {
  items: FixCoverageItem[];
  /** True when every item was found (and there was at least one). */
  complete: boolean;
}

interface Hunk {
  removed: string[];
  added: string[];
  /**
   * For a hunk that only inserts: the nearest line above the insertion that says
   * something (`}` alone does not), which the model must see to place it.
   */
  anchor?: string;
}

const JAVA_KEYWORDS = new Set(
  'abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while var record yield sealed permits true false null'.split(
    ' ',
  ),
);

/** A line with letters or digits: `}` alone proves nothing about what was shown. */
const meaningful = (line: string) => /[\p{L}\p{N}]/u.test(line);

export function parseFixHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  let previous: string | undefined;
  let above: string[] = [];
  for (const raw of patch.replace(/\r\n/g, '\n').split('\n')) {
    if (raw.startsWith('@@')) {
      current = { removed: [], added: [] };
      hunks.push(current);
      previous = undefined;
      above = [];
      continue;
    }
    if (
      !current ||
      raw.startsWith('--- ') ||
      raw.startsWith('+++ ') ||
      raw.startsWith('diff ') ||
      raw.startsWith('index ')
    )
      continue;
    const body = raw.slice(1);
    if (raw.startsWith('-')) current.removed.push(body);
    else if (raw.startsWith('+')) {
      if (current.added.length === 0 && current.removed.length === 0 && previous !== undefined) {
        current.anchor = [...above].reverse().find(meaningful) ?? previous;
      }
      current.added.push(body);
    } else if (raw.startsWith(' ')) {
      previous = body;
      above.push(body);
    }
  }
  return hunks;
}

/**
 * Identifiers of Java code with string and char literals, comments and package names
 * (`java.time.` in `java.time.LocalDate`) taken out: a package is not a member the
 * project declares, whoever else mentions it.
 */
export function javaIdentifiers(code: string): Set<string> {
  const bare = code
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/.*$/gm, ' ')
    .replace(/"(?:[^"\\\n]|\\.)*"/g, ' ')
    .replace(/'(?:[^'\\\n]|\\.)*'/g, ' ')
    .replace(/^\s*(?:package|import)\s+(?:static\s+)?[\w.]*\.(?=[\w*]+\s*;)/gm, ' ')
    .replace(/\b(?:[a-z_][\w]*\.)+(?=[A-Z])/g, ' ');
  const out = new Set<string>();
  for (const match of bare.matchAll(/[A-Za-z_$][\w$]*/g)) if (!JAVA_KEYWORDS.has(match[0])) out.add(match[0]);
  return out;
}

/** The prompt's lines as code: a `  12 | ` line-number gutter is taken off. */
function promptLines(prompt: string): Set<string> {
  const out = new Set<string>();
  for (const line of prompt.replace(/\r\n/g, '\n').split('\n')) {
    out.add(line.trim());
    const code = /^\s*\d+ \| ?(.*)$/.exec(line);
    if (code) out.add(code[1]!.trim());
  }
  return out;
}

/**
 * Which parts of `patch` the prompt holds. `projectIdentifiers` are the identifiers of the
 * broken project's sources: an identifier the fix introduces counts only when the
 * project already has it (a JDK method the model must know is not the prompt's job).
 */
export function fixCoverage(patch: string, prompt: string, projectIdentifiers: ReadonlySet<string>): FixCoverage {
  const hunks = parseFixHunks(patch);
  const lines = promptLines(prompt);
  const words = new Set(prompt.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const items: FixCoverageItem[] = [];
  const seen = new Set<string>();
  const add = (kind: FixCoverageItem['kind'], text: string, found: boolean) => {
    const key = `${kind}\u0000${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    items.push({ kind, text, found });
  };
  const removedIdentifiers = javaIdentifiers(hunks.flatMap((hunk) => hunk.removed).join('\n'));
  for (const hunk of hunks) {
    for (const line of hunk.removed.map((text) => text.trim()).filter(meaningful)) add('line', line, lines.has(line));
    if (hunk.removed.length === 0 && hunk.anchor !== undefined && meaningful(hunk.anchor))
      add('anchor', hunk.anchor.trim(), lines.has(hunk.anchor.trim()));
  }
  for (const identifier of javaIdentifiers(hunks.flatMap((hunk) => hunk.added).join('\n'))) {
    if (removedIdentifiers.has(identifier) || !projectIdentifiers.has(identifier)) continue;
    add('identifier', identifier, words.has(identifier));
  }
  return { items, complete: items.length > 0 && items.every((item) => item.found) };
}
