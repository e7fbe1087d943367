/**
 * One-line bugs for a real project (`npm run bench:verify -- --project DIR`): the bench
 * finds lines of the five shapes below in the project's main code and writes one of them
 * into a copy. Pure: the same sources always give the same bugs, in the same order.
 *
 *   off-by-one          `for (int i = 0; i < n; i++)` runs one short (`i < n - 1`)
 *   inverted-condition  `if (a == b)` becomes `if (a != b)` (not a null test)
 *   wrong-constant      `return true;` returns the other boolean
 *   missing-null-check  a one-line `if (x == null) return ...;` guard is deleted
 *   compile-error       `return x;` loses its semicolon
 *
 * A line is only a candidate in a class that has a test class of its own (`FooTest` for
 * `Foo`), since a bug no test catches is not a repair; classes named by fewer test files
 * come first, so that a bug fails a few tests rather than the whole suite. Whether a test
 * really catches it is found out by the user's build the bench runs: it then takes the
 * next candidate of the same kind.
 *
 * Each bug carries the replies a model gives: the right fix, one that compiles and leaves
 * the test failing (the bug written another way), and one that does not compile.
 */
import { unifiedDiff } from './verify-projects.js';

export const BUG_KINDS = [
  'off-by-one',
  'inverted-condition',
  'wrong-constant',
  'missing-null-check',
  'compile-error',
] as const;
export type ProjectBugKind = (typeof BUG_KINDS)[number];

export interface ProjectBug {
  kind: ProjectBugKind;
  /** Project-relative path, forward slashes. */
  file: string;
  /** 1-based line of the bug in the correct file. */
  line: number;
  correct: string;
  broken: string;
  replies: { fix: string; testStillFails?: string; doesNotCompile: string };
}

interface LineMutation {
  /** The line as the bug writes it; null deletes it. */
  broken: string | null;
  /** The bug written another way: compiles, same behaviour. */
  stillWrong?: string;
  prose: string;
}

type Mutator = (line: string) => LineMutation | undefined;

const MUTATORS: Record<ProjectBugKind, Mutator> = {
  'off-by-one': (line) => {
    const match = /for \(int (\w+) = 0; \1 < ([\w.()]+); \1\+\+\)/.exec(line);
    if (!match) return undefined;
    const [whole, index, bound] = match;
    return {
      broken: line.replace(whole, `for (int ${index} = 0; ${index} < ${bound} - 1; ${index}++)`),
      stillWrong: line.replace(whole, `for (int ${index} = 0; ${index} < -1 + ${bound}; ${index}++)`),
      prose: `The loop stops one element short of \`${bound}\`:`,
    };
  },
  'inverted-condition': (line) => {
    const match = /\bif \((\w+) == (\w+)\)/.exec(line);
    // A null test is the missing-null-check's line; inverting it only makes an NPE.
    if (!match || match[2] === 'null') return undefined;
    const [whole, left, right] = match;
    return {
      broken: line.replace(whole, `if (${left} != ${right})`),
      stillWrong: line.replace(whole, `if (!(${left} == ${right}))`),
      prose: `The condition is inverted: it should test \`${left} == ${right}\`:`,
    };
  },
  'wrong-constant': (line) => {
    const match = /^(\s*)return (true|false);\s*$/.exec(line);
    if (!match) return undefined;
    const other = match[2] === 'true' ? 'false' : 'true';
    return {
      broken: `${match[1]}return ${other};`,
      stillWrong: `${match[1]}return !${match[2]};`,
      prose: `This should return \`${match[2]}\`:`,
    };
  },
  'missing-null-check': (line) => {
    const match = /^(\s*)if \((\w+) == null\) return\b[^;]*;\s*$/.exec(line);
    if (!match) return undefined;
    return {
      broken: null,
      stillWrong: `${match[1]}// ${match[2]} is checked by the caller`,
      prose: `\`${match[2]}\` may be null here; the guard is missing:`,
    };
  },
  'compile-error': (line) => {
    const match = /^(\s*)return (\w+);\s*$/.exec(line);
    if (!match) return undefined;
    return { broken: `${match[1]}return ${match[2]}`, prose: 'The statement is missing its semicolon:' };
  },
};

/** Main and test sources of the project, project-relative path to content. */
export function findProjectBugs(files: ReadonlyMap<string, string>, perKind = 3): ProjectBug[] {
  const tests = [...files].filter(([file]) => /(^|\/)src\/test\/java\/.*\.java$/.test(file));
  const testNames = new Set(tests.map(([file]) => file.slice(file.lastIndexOf('/') + 1, -'.java'.length)));
  const mentions = (name: string) => tests.filter(([, text]) => new RegExp(`\\b${name}\\b`).test(text)).length;
  const mains = [...files]
    .filter(([file]) => /(^|\/)src\/main\/java\/.*\.java$/.test(file))
    .map(([file, text]) => ({ file, text, name: file.slice(file.lastIndexOf('/') + 1, -'.java'.length) }))
    .filter((main) => testNames.has(`${main.name}Test`))
    .map((main) => ({ ...main, mentions: mentions(main.name) }))
    .sort((a, b) => a.mentions - b.mentions || a.file.localeCompare(b.file));

  const bugs: ProjectBug[] = [];
  for (const kind of BUG_KINDS) {
    let found = 0;
    for (const main of mains) {
      if (found >= perKind) break;
      const lines = main.text.split('\n');
      // One bug per class and kind: the next candidate should be a different class.
      const at = lines.findIndex(
        (line, index) => !isComment(line) && !inBlockComment(lines, index) && MUTATORS[kind](line) !== undefined,
      );
      if (at < 0) continue;
      bugs.push(makeBug(kind, main.file, main.text, lines, at, MUTATORS[kind](lines[at]!)!));
      found++;
    }
  }
  return bugs;
}

function makeBug(
  kind: ProjectBugKind,
  file: string,
  correct: string,
  lines: string[],
  at: number,
  mutation: LineMutation,
): ProjectBug {
  const withLine = (line: string | null) =>
    [...lines.slice(0, at), ...(line === null ? [] : [line]), ...lines.slice(at + 1)].join('\n');
  const broken = withLine(mutation.broken);
  const brokenLines = broken.split('\n');
  // A reply that does not compile: the right line with a misspelt keyword or a dropped semicolon.
  const right = lines[at]!;
  const notCompiling = right.includes('return ') ? right.replace('return ', 'retrun ') : right.replace(/\)\s*$/, '');
  const againstBroken = (line: string) =>
    (mutation.broken === null
      ? [...brokenLines.slice(0, at), line, ...brokenLines.slice(at)]
      : [...brokenLines.slice(0, at), line, ...brokenLines.slice(at + 1)]
    ).join('\n');
  const reply = (prose: string, after: string) => `${prose}\n\n\`\`\`diff\n${unifiedDiff(file, broken, after)}\`\`\`\n`;
  return {
    kind,
    file,
    line: at + 1,
    correct,
    broken,
    replies: {
      fix: reply(mutation.prose, correct),
      ...(mutation.stillWrong !== undefined
        ? { testStillFails: reply(`${mutation.prose} (written more clearly)`, againstBroken(mutation.stillWrong)) }
        : {}),
      doesNotCompile: reply(mutation.prose, againstBroken(notCompiling === right ? `${right} @` : notCompiling)),
    },
  };
}

function isComment(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*');
}

/** Inside a `/* ... *\/` block that began on an earlier line. */
function inBlockComment(lines: string[], index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const line = lines[i]!;
    const close = line.lastIndexOf('*/');
    const open = line.lastIndexOf('/*');
    if (open > close) return true;
    if (close >= 0) return false;
  }
  return false;
}
