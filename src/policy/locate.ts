/**
 * Maps a field path of a parsed YAML/JSON config back to its line, so that a validation
 * error can point at it. JSON is parsed with the YAML parser too: it is valid YAML 1.2
 * and that gives both formats the same ranges.
 */
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node } from 'yaml';
import { MvnxError } from '../shared/errors.js';

export type FieldPath = readonly PropertyKey[];

export interface ParsedText {
  value: unknown;
  /** Line (1-based) of the node at `path`; with `key`, of that key inside the map at `path`. */
  lineOf: (path: FieldPath, key?: string) => number | undefined;
}

/** Parses YAML or JSON text; a syntax error becomes a one-line MvnxError naming file and line. */
export function parseConfigText(text: string, fileLabel: string, format: 'yaml' | 'json'): ParsedText {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntaxError = (offset: number | undefined, reason: string): MvnxError => {
    // Parsers often notice an unclosed bracket at the end of the text; point at the last real line instead.
    const lastLine = text.trimEnd().split('\n').length;
    const line = offset === undefined ? undefined : Math.min(lineCounter.linePos(offset).line, lastLine);
    return new MvnxError(
      `Invalid config ${fileLabel}${line === undefined ? '' : `:${line}`}: syntax error: ${reason}`,
      2,
    );
  };
  if (format === 'json') {
    // YAML accepts much that JSON does not (trailing commas, bare words): JSON.parse decides.
    try {
      JSON.parse(text);
    } catch (error) {
      const message = (error as Error).message;
      const position = / at position (\d+)/.exec(message);
      if (position) throw syntaxError(Number(position[1]), message.replace(/ in JSON at position \d+.*$/s, ''));
      if (!doc.errors[0]) throw syntaxError(undefined, `${message.split(',')[0]!} (not valid JSON)`);
    }
  }
  const firstError = doc.errors[0];
  // prettyErrors: false keeps the message free of yaml's own " at line L, column C:" and source excerpt: the line is
  // ours.
  if (firstError) throw syntaxError(firstError.pos[0], firstError.message.split('\n')[0]!);
  const lineOf = (path: FieldPath, key?: string): number | undefined => {
    let node: unknown = doc.contents;
    let line = rangeLine(node, lineCounter);
    const steps = key === undefined ? path : [...path, key];
    for (const [index, step] of steps.entries()) {
      const isLast = index === steps.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
        if (!pair) return line;
        // An unknown key is reported on the key's own line, a bad value on the value's.
        line =
          (isLast && key !== undefined
            ? rangeLine(pair.key, lineCounter)
            : rangeLine(pair.value ?? pair.key, lineCounter)) ?? line;
        node = pair.value;
      } else if (isSeq(node) && typeof step === 'number') {
        node = node.items[step];
        line = rangeLine(node, lineCounter) ?? line;
      } else {
        return line;
      }
    }
    return line;
  };
  return { value: doc.toJS(), lineOf };
}

function rangeLine(node: unknown, lineCounter: LineCounter): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? lineCounter.linePos(range[0]).line : undefined;
}
