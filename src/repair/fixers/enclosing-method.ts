/** Finds the method declaration around a position in masked Java source. */

export interface MethodDeclaration {
  name: string;
  modifiers: string[];
  annotations: string[];
  /** Undefined for constructors. */
  returnType?: string;
  /** Types already listed after `throws`. */
  thrown: string[];
  /** Offset just after the last character of the header (before the whitespace and `{`). */
  headerEnd: number;
  /** True when the method is declared inside an interface, where it is implicitly public. */
  inInterface: boolean;
}

const CONTROL_HEADER = /^(?:(?:else\s+)?if\b|for\b|while\b|switch\b|catch\b|synchronized\b|try\b|else\b|do\b|finally\b|static$|$)/;
const ANONYMOUS_CLASS = /\bnew\s+[\w$.]+\s*(?:<[^>]*>)?\s*\([^)]*\)$/;
const TYPE_HEADER = /(?:^|\s)(class|interface|enum|record)\s+[\w$]+/;
const MODIFIER = 'public|protected|private|static|final|synchronized|abstract|native|strictfp|default';
const METHOD_HEADER = new RegExp(
  '^((?:@[\\w$.]+(?:\\([^)]*\\))?\\s*)*)' +
    `((?:(?:${MODIFIER})\\s+)*)` +
    '(?:<[^>]*(?:<[^>]*>[^>]*)*>\\s*)?' +
    '(?:([\\w$.]+(?:\\s*<.*>)?(?:\\s*\\[\\s*\\])*)\\s+)?' +
    '([\\w$]+)\\s*\\(([^)]*)\\)\\s*' +
    '(?:throws\\s+([\\w$.,\\s]+?))?$',
);

interface Block {
  brace: number;
  header: string;
  headerEnd: number;
}

function enclosingBlocks(masked: string, offset: number): Block[] {
  const blocks: Block[] = [];
  let depth = 0;
  for (let i = offset - 1; i >= 0; i--) {
    const char = masked[i];
    if (char === '}') depth++;
    else if (char === '{') {
      if (depth > 0) {
        depth--;
        continue;
      }
      let start = i - 1;
      while (start >= 0 && !';{}'.includes(masked[start] ?? '')) start--;
      const raw = masked.slice(start + 1, i);
      let headerEnd = i;
      while (headerEnd > 0 && /\s/.test(masked[headerEnd - 1] ?? '')) headerEnd--;
      blocks.push({ brace: i, header: raw.replace(/\s+/g, ' ').trim(), headerEnd });
    }
  }
  return blocks;
}

/**
 * The method or constructor whose body contains `offset`, or undefined when the position
 * is inside a lambda, an anonymous class, an initializer, or outside any method.
 */
export function findEnclosingMethod(masked: string, offset: number): MethodDeclaration | undefined {
  const blocks = enclosingBlocks(masked, offset);
  for (const [i, { header, headerEnd }] of blocks.entries()) {
    if (header.endsWith('->') || ANONYMOUS_CLASS.test(header) || TYPE_HEADER.test(header)) return undefined;
    if (CONTROL_HEADER.test(header)) continue;
    const match = METHOD_HEADER.exec(header);
    if (!match) continue;
    const owner = blocks[i + 1];
    if (!owner || !TYPE_HEADER.test(owner.header)) return undefined;
    return {
      name: match[4] ?? '',
      annotations: ((match[1] ?? '').match(/@[\w$.]+/g) ?? []).map((a) => a.slice(1)),
      modifiers: (match[2] ?? '').trim() === '' ? [] : (match[2] ?? '').trim().split(/\s+/),
      returnType: match[3]?.replace(/\s+/g, ''),
      thrown: match[6] ? match[6].split(',').map((t) => t.trim()).filter(Boolean) : [],
      headerEnd,
      inInterface: /(?:^|\s)interface\s/.test(owner.header) || owner.header.startsWith('interface '),
    };
  }
  return undefined;
}
