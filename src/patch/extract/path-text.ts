/**
 * Paths as models write them: decorated with markdown, quoted, prefixed with `a/`, `./`
 * or a timestamp. These helpers turn them into the root-relative form the rest of the
 * pipeline checks; they never decide whether a path is safe (validation does).
 */

const GIT_QUOTE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  '"': '"',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  r: '\r',
  v: '\v',
};

/** Undo git's C-style quoting ("a/sp\303\244ce") so the real bytes reach validation. */
function unquoteGitPath(quoted: string): string {
  const body = quoted.slice(1, -1);
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch !== '\\') {
      // Stryker disable next-line StringLiteral: Buffer.from reads an empty encoding name as UTF-8, its default
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      // Stryker disable next-line StringLiteral: Buffer.from reads an empty encoding name as UTF-8, its default
      bytes.push(...Buffer.from(GIT_QUOTE_ESCAPES[next] ?? next, 'utf8'));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The path from a `---`/`+++` header: drops the timestamp after a tab, quotes, one
 * `a/` or `b/` prefix and `./`. Returns null for /dev/null.
 */
export function cleanHeaderPath(raw: string): string | null {
  let text = raw.trim();
  if (text.startsWith('"')) {
    const end = findClosingQuote(text);
    text = unquoteGitPath(text.slice(0, end + 1));
  } else {
    text = text.split('\t')[0] ?? '';
    // `--- src/A.java 2024-01-01 10:00:00.000 +0100`: a date after spaces is not part of the path.
    text = text.replace(/\s+\d{4}-\d{2}-\d{2}[\sT]\d{2}:\d{2}.*$/, '').trim();
  }
  if (text === '/dev/null' || text === 'dev/null') return null;
  return normaliseRelative(text.replace(/^[ab]\//, ''));
}

function findClosingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  // Stryker disable next-line ArithmeticOperator: an unclosed quote runs to the end either way: slice() stops at the
  // end of the text
  return text.length - 1;
}

/** Both paths of `diff --git a/x b/y`, when they can be told apart. */
export function parseDiffGitPaths(rest: string): { oldPath: string; newPath: string } | undefined {
  const text = rest.trim();
  if (text.startsWith('"')) {
    const end = findClosingQuote(text);
    const oldRaw = text.slice(0, end + 1);
    const newRaw = text.slice(end + 1).trim();
    const oldPath = cleanHeaderPath(oldRaw);
    const newPath = cleanHeaderPath(newRaw);
    return oldPath !== null && newPath !== null ? { oldPath, newPath } : undefined;
  }
  // Unquoted: `a/x b/x`. Split at " b/" so paths with spaces still work.
  const split = text.indexOf(' b/');
  if (split > 0) {
    const oldPath = cleanHeaderPath(text.slice(0, split));
    const newPath = cleanHeaderPath(text.slice(split + 1));
    if (oldPath !== null && newPath !== null) return { oldPath, newPath };
  }
  // `git diff --no-prefix` of a path with spaces: `my file.txt my file.txt`, the same name twice around the middle
  // space (git writes it so when the file keeps its name).
  const half = (text.length - 1) / 2;
  if (Number.isInteger(half) && text[half] === ' ' && text.slice(0, half) === text.slice(half + 1)) {
    const same = cleanHeaderPath(text.slice(0, half));
    if (same !== null) return { oldPath: same, newPath: same };
  }
  const parts = text.split(/\s+/);
  if (parts.length === 2) {
    const oldPath = cleanHeaderPath(parts[0] as string);
    const newPath = cleanHeaderPath(parts[1] as string);
    if (oldPath !== null && newPath !== null) return { oldPath, newPath };
  }
  return undefined;
}

/** Forward slashes, no leading `./`. Absolute paths and `..` stay visible for validation. */
export function normaliseRelative(path: string): string {
  let text = path.replace(/\\/g, '/');
  while (text.startsWith('./')) text = text.slice(2);
  return text.replace(/\/{2,}/g, '/');
}

/**
 * A line that names a file on its own, as models write before a fenced block:
 * `src/Foo.java`, `**src/Foo.java**`, `### File: src/Foo.java`, `` `pom.xml`: ``.
 */
export function pathFromMentionLine(line: string): string | undefined {
  // Prose ending in a quoted path: "In `src/Foo.java`:", "Update **pom.xml**:".
  const quotedAtEnd = /(?:`|\*\*)([^`*\s]+\.[A-Za-z0-9]+)(?:`|\*\*)\s*:?\s*$/.exec(line);
  if (quotedAtEnd && /\s/.test(line.trim())) return normaliseRelative(quotedAtEnd[1] as string);
  let text = line.trim();
  text = text.replace(/^(?:#{1,6}\s*|[-*>]\s+)+/, '');
  text = text.replace(/^(?:\*\*|__)?(?:file(?:name)?|path)\s*:\s*/i, '');
  text = text.replace(/^[*_`"']+|[*_`"':]+$/g, '').trim();
  text = text
    .replace(/^(?:file(?:name)?|path)\s*:\s*/i, '')
    .replace(/^[*_`"']+|[*_`"':]+$/g, '')
    .trim();
  if (text === '' || /\s/.test(text)) return undefined;
  if (!/[./]/.test(text) || /^[.]+$/.test(text)) return undefined;
  if (/^(?:```|~~~|<{3,}|={3,}|>{3,}|@@|---|\+\+\+)/.test(text)) return undefined;
  return normaliseRelative(text);
}
