/**
 * search_code_base: grep the project. It matches the words of identifiers, not only the
 * literal text: `fastSortArray` also finds lines with `sortArray`, `fast` or `array`,
 * ranked by how many of those words they hold.
 */
import { compareScores, scoreLine, searchTerms, type LineScore } from '../sub-tokens.js';
import { BadCall, clip, defineTool, fit, given, plural } from './support/tool-kit.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../../../plugins/contracts.js';

const MAX_HITS = 50;
/** Files bigger than this are generated or data, not code to read. */
const MAX_SEARCHED_FILE_CHARS = 1_000_000;

interface Hit {
  file: string;
  line: number;
  text: string;
  score: LineScore;
}

export const searchCodeBase = defineTool(
  'search_code_base',
  `find code by words (fastSortArray also finds sortArray, fast, sort, array), best first; path:line: text, at most ${MAX_HITS}`,
  {
    pattern: { type: 'string', description: 'an identifier or a bit of code, e.g. calculateTotal or price * percent' },
    glob: {
      type: 'string',
      description: 'which files, default **/*.java; without / it matches file names anywhere',
      optional: true,
    },
  },
  async (args, view) => {
    const pattern = args.pattern;
    if (typeof pattern !== 'string' || pattern.trim() === '')
      throw new BadCall(`search_code_base needs "pattern" (the code or identifier to look for)${given(pattern)}`);
    if (/[\r\n]/.test(pattern))
      throw new BadCall('search_code_base matches within one line: "pattern" cannot hold a line break');
    const rawGlob = args.glob ?? '';
    if (typeof rawGlob !== 'string')
      throw new BadCall(`search_code_base needs "glob" as text such as "**/*.java"${given(rawGlob)}`);
    let glob = rawGlob.trim().replace(/\\/g, '/') || '**/*.java';
    if (glob.startsWith('/') || glob.split('/').includes('..'))
      throw new BadCall(`search_code_base refuses glob "${rawGlob}": files outside the project are not readable`);
    if (!glob.includes('/')) glob = `**/${glob}`;
    const terms = searchTerms(pattern.trim());
    const files = [...(await view.list(glob))].sort();
    const hits: Hit[] = [];
    for (const file of files) {
      const content = await view.read(file);
      // Jars and class files match globs like **/* and would print noise.
      if (content === undefined || content.includes('\0') || content.length > MAX_SEARCHED_FILE_CHARS) continue;
      content
        .replace(/\r\n/g, '\n')
        .split('\n')
        .forEach((line, index) => {
          const score = scoreLine(line, terms);
          if (score) hits.push({ file, line: index + 1, text: line, score });
        });
    }
    if (hits.length === 0) {
      const none = files.length === 0 ? ` (no file matches the glob ${JSON.stringify(glob)})` : '';
      const words = terms.words.length > 1 ? ` nor any of its words (${terms.words.join(', ')})` : '';
      return {
        ok: true,
        output: `no match for ${JSON.stringify(pattern)}${words} in ${plural(files.length, 'file', 'files')}${none}`,
      };
    }
    // A stable sort keeps path and line order among equal scores.
    hits.sort((a, b) => compareScores(a.score, b.score));
    const exact = hits.filter((hit) => hit.score.exact).length;
    const head =
      terms.words.length > 1
        ? `${plural(hits.length, 'line matches', 'lines match')} (${exact} exactly; words: ${terms.words.join(', ')}), best first:`
        : `${plural(hits.length, 'line matches', 'lines match')} (${exact} exactly), best first:`;
    const rows = hits
      .slice(0, MAX_HITS)
      .map(
        (hit) =>
          `${hit.file}:${hit.line}: ${clip(hit.text.trim())}${hit.score.exact || terms.words.length < 2 ? '' : `  [${hit.score.found.join(', ')}]`}`,
      );
    const tail = (k: number) =>
      hits.length > k
        ? `... ${plural(hits.length - k, 'more match', 'more matches')} not shown: narrow the pattern or the glob`
        : '';
    return { ok: true, output: `${head}\n${fit(rows, tail, MAX_TOOL_OUTPUT_CHARS - head.length - 1)}` };
  },
);
