/**
 * Identifiers split into the words they are made of, the way a developer reads them:
 * `fastSortArray` is fast + sort + array, `parseHTTPResponse` is parse + http + response,
 * `MAX_RETRY_COUNT` is max + retry + count. search_code_base ranks lines by how many of
 * the query's words they hold, and the tool-name matcher compares names word by word.
 */

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

/** Lower-case words of one identifier, in order. */
export function subTokens(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .split(/[\s_$\-.]+/)
    .map((word) => word.toLowerCase())
    .filter((word) => word !== '');
}

/** The identifiers written in a piece of text, in order. */
export function identifiersIn(text: string): string[] {
  return text.match(IDENTIFIER) ?? [];
}

export interface SearchTerms {
  /** The pattern as written, for the exact (case-sensitive) match that ranks first. */
  literal: string;
  /** Distinct words of the pattern's identifiers. */
  words: string[];
  /** Runs of two or more consecutive words (`sortarray` of fastSortArray), joined. */
  runs: string[];
}

/** Words shorter than this only count when the pattern has no longer ones (`is`, `to`, `of` match everywhere). */
const MIN_WORD = 3;

export function searchTerms(pattern: string): SearchTerms {
  const perIdentifier = identifiersIn(pattern).map(subTokens);
  const all = [...new Set(perIdentifier.flat())];
  const long = all.filter((word) => word.length >= MIN_WORD);
  const runs = new Set<string>();
  for (const words of perIdentifier) {
    for (let from = 0; from < words.length; from++)
      for (let to = from + 2; to <= words.length; to++)
        if (to - from < words.length) runs.add(words.slice(from, to).join(''));
  }
  return { literal: pattern, words: long.length > 0 ? long : all, runs: [...runs] };
}

export interface LineScore {
  /** Distinct query words found among the line's identifiers' words. */
  hits: number;
  /** The words found, in query order. */
  found: string[];
  /** The pattern occurs literally in the line. */
  exact: boolean;
  /** Some identifier holds a run of the query's words (`sortArray`). */
  run: boolean;
}

/** How well one line matches; undefined when it holds none of the words. */
export function scoreLine(line: string, terms: SearchTerms): LineScore | undefined {
  const exact = terms.literal !== '' && line.includes(terms.literal);
  const identifiers = identifiersIn(line);
  const lineWords = new Set(identifiers.flatMap(subTokens));
  const found = terms.words.filter((word) => lineWords.has(word));
  if (!exact && found.length === 0) return undefined;
  const joined = identifiers.map((identifier) => subTokens(identifier).join(''));
  const run = terms.runs.some((candidate) => joined.some((identifier) => identifier.includes(candidate)));
  return { hits: found.length, found, exact, run };
}

/** Best first: exact matches, then more words, then a run of words, then position. */
export function compareScores(a: LineScore, b: LineScore): number {
  return Number(b.exact) - Number(a.exact) || b.hits - a.hits || Number(b.run) - Number(a.run);
}
