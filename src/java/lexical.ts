/**
 * The lexical layer of the Java-source module: line handling, and text with its
 * comments and literals blanked out. It reads any text, also a file that does not parse
 * (a missing semicolon, an unclosed brace), and it is fast enough to scan every file of
 * a big project, which the parser is not (java-parser takes milliseconds per file). The
 * readers over masked text below are the fallback of header.ts, not a second parser.
 */

export interface SourceLines {
  lines: string[];
  /** The file's own line ending, kept when the file is written back. */
  eol: '\n' | '\r\n';
}

export function splitLines(text: string): SourceLines {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return { lines: text.split(eol), eol };
}

export function joinLines(source: SourceLines): string {
  return source.lines.join(source.eol);
}

/**
 * Replaces the contents of comments, string, text-block and char literals with spaces,
 * keeping every offset and line break, so that searches for code never match inside them.
 */
export function maskCommentsAndLiterals(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let i = from; i < to && i < out.length; i++) if (out[i] !== '\n' && out[i] !== '\r') out[i] = ' ';
  };
  let i = 0;
  while (i < text.length) {
    const rest2 = text.slice(i, i + 2);
    if (rest2 === '//') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (rest2 === '/*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      const stop = end === -1 ? text.length : end + 3;
      blank(i + 3, stop - 3);
      i = stop;
    } else if (text[i] === '"' || text[i] === "'") {
      const quote = text[i];
      let j = i + 1;
      while (j < text.length && text[j] !== quote && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
    } else {
      i++;
    }
  }
  return out.join('');
}

export interface ImportLine {
  /** 0-based line index. */
  index: number;
  isStatic: boolean;
  /** `java.util.List`, or `java.util.*` for an on-demand import. */
  name: string;
  /** Simple name imported (`List`), or `*`. */
  simpleName: string;
}

const IMPORT_LINE = /^\s*import\s+(static\s+)?([\w$]+(?:\s*\.\s*[\w$]+)*(?:\s*\.\s*\*)?)\s*;\s*$/;

/** The import declarations of a file whose lines were already masked. */
export function findImports(maskedLines: string[]): ImportLine[] {
  const imports: ImportLine[] = [];
  maskedLines.forEach((line, index) => {
    const match = IMPORT_LINE.exec(line);
    if (!match) return;
    const name = (match[2] ?? '').replace(/\s+/g, '');
    imports.push({ index, isStatic: Boolean(match[1]), name, simpleName: name.slice(name.lastIndexOf('.') + 1) });
  });
  return imports;
}

const PACKAGE_LINE = /^\s*package\s+([\w$]+(?:\s*\.\s*[\w$]+)*)\s*;/;

export interface PackageLine {
  index: number;
  name: string;
}

export function findPackage(maskedLines: string[]): PackageLine | undefined {
  for (const [index, line] of maskedLines.entries()) {
    const match = PACKAGE_LINE.exec(line);
    if (match?.[1]) return { index, name: match[1].replace(/\s+/g, '') };
  }
  return undefined;
}

const TYPE_KEYWORD = /\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)/g;

/** Names of the types declared at the top level of a masked file. */
export function topLevelTypeNames(masked: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let scanned = 0;
  for (const match of masked.matchAll(TYPE_KEYWORD)) {
    for (; scanned < match.index; scanned++) {
      if (masked[scanned] === '{') depth++;
      else if (masked[scanned] === '}') depth--;
    }
    // `.class` literals and `@interface` both pass the regex; only the declaration counts.
    const before = masked.slice(Math.max(0, match.index - 1), match.index);
    if (depth === 0 && before !== '.' && match[1]) names.push(match[1]);
  }
  return names;
}

/** True when `name` appears as a whole identifier in masked code outside the given lines. */
export function usesIdentifier(maskedLines: string[], name: string, ignoredLines: Set<number>): boolean {
  const pattern = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
  return maskedLines.some((line, index) => !ignoredLines.has(index) && pattern.test(line));
}
