/**
 * `return <literal>;` whose literal has the wrong type for the declared return type, where
 * exactly one rewrite keeps the written value: `"42"` in an int method becomes `42`, `7`
 * in a String method becomes `"7"`, `5L` in an int method becomes `5`. A value that would
 * change (`return 1.5;` in an int method) is refused: that is a decision, not a typo.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { isPlacedCompileError } from './support/diagnostic-text.js';
import {
  enclosingMethodAt,
  joinLines,
  offsetAt,
  parseJava,
  splitLines,
  viewJavaFile,
  type JavaParseResult,
} from '../../java/index.js';
import type { FixCandidate, Fixer, SourceView } from '../../plugins/contracts.js';

const NAME = 'literal-return';
const CANNOT_CONVERT = /^incompatible types: ([\w$.]+) cannot be converted to ([\w$.]+)$/;
const LOSSY = /^incompatible types: possible lossy conversion from (\w+) to (\w+)$/;
const RETURN_LITERAL = /^(\s*return\s+)("(?:[^"\\]|\\.)*"|-?\d[\w.]*|true|false)(\s*;.*)$/;

const INTEGRAL_RANGE: Record<string, [bigint, bigint]> = {
  byte: [-128n, 127n],
  short: [-32768n, 32767n],
  int: [-2147483648n, 2147483647n],
  long: [-9223372036854775808n, 9223372036854775807n],
};

function handles(diagnostic: Diagnostic): boolean {
  return (
    isPlacedCompileError(diagnostic) &&
    typeof diagnostic.column === 'number' &&
    (CANNOT_CONVERT.test(diagnostic.message) || LOSSY.test(diagnostic.message))
  );
}

/** The literal rewritten for `target`, or undefined when no rewrite keeps the value exactly. */
export function convertLiteral(literal: string, target: string): string | undefined {
  const isString = literal.startsWith('"');
  if (target === 'String' || target === 'java.lang.String') {
    if (isString) return undefined;
    return /^(?:-?\d+|true|false)$/.test(literal) ? `"${literal}"` : undefined;
  }
  if (!isString) {
    const longLiteral = /^(-?\d+)[lL]$/.exec(literal);
    const digits = longLiteral?.[1];
    if (digits && target in INTEGRAL_RANGE) return fits(digits, target) ? digits : undefined;
    return undefined;
  }
  const content = literal.slice(1, -1);
  if (target in INTEGRAL_RANGE)
    return /^-?\d+$/.test(content) && !/^-?0\d/.test(content) && fits(content, target)
      ? `${content}${target === 'long' && !fits(content, 'int') ? 'L' : ''}`
      : undefined;
  if (target === 'double') return /^-?\d+\.\d+$/.test(content) ? content : undefined;
  if (target === 'boolean') return content === 'true' || content === 'false' ? content : undefined;
  return undefined;
}

function fits(digits: string, target: string): boolean {
  const range = INTEGRAL_RANGE[target];
  if (!range) return false;
  const value = BigInt(digits);
  return value >= range[0] && value <= range[1];
}

/** The fixed text, or undefined when the diagnostic is not an unambiguous literal return. */
export function rewriteLiteralReturn(
  text: string,
  line: number,
  column: number,
  target: string,
  parsedText?: JavaParseResult,
): string | undefined {
  const source = splitLines(text);
  const original = source.lines[line - 1];
  const match = original === undefined ? null : RETURN_LITERAL.exec(original);
  const [, prefix, literal, suffix] = match ?? [];
  if (prefix === undefined || literal === undefined || suffix === undefined || prefix.length !== column - 1)
    return undefined;
  const parsed = parsedText ?? parseJava(text);
  const method = parsed.ok ? enclosingMethodAt(parsed.file, offsetAt(text, line, column)) : undefined;
  const declared = method?.returnType;
  if (!declared || (declared !== target && `java.lang.${declared}` !== target)) return undefined;
  const converted = convertLiteral(literal, declared);
  if (converted === undefined) return undefined;
  source.lines[line - 1] = `${prefix}${converted}${suffix}`;
  return joinLines(source);
}

async function propose(diagnostics: Diagnostic[], view: SourceView): Promise<FixCandidate[]> {
  const candidates: FixCandidate[] = [];
  for (const diagnostic of diagnostics.filter(handles)) {
    if (!isPlacedCompileError(diagnostic) || diagnostic.column === undefined) continue;
    const conversion = CANNOT_CONVERT.exec(diagnostic.message) ?? LOSSY.exec(diagnostic.message);
    const target = conversion?.[2];
    const viewed = target ? await viewJavaFile(view, diagnostic.file) : undefined;
    if (!target || viewed === undefined) continue;
    const before = viewed.text;
    const after = rewriteLiteralReturn(before, diagnostic.line, diagnostic.column, target, viewed.parsed);
    if (after === undefined) continue;
    candidates.push({
      fixer: NAME,
      changeSet: { files: [{ path: diagnostic.file, before, after }] },
      confidence: 0.85,
      reason: `${diagnostic.message}: rewrite the returned literal as ${target} at ${diagnostic.file}:${diagnostic.line}`,
    });
  }
  return candidates;
}

export const literalReturnFixer: Fixer = { name: NAME, handles, propose };
