/**
 * "method does not override or implement a method from a supertype": an `@Override` whose
 * supertype method is gone, the usual break after a dependency's new major removed a
 * deprecated method of a listener or adapter. javac points at the annotation's `@`
 * (checked on javac 17). The fix removes that one annotation, only when the position holds
 * exactly `@Override` (or `@java.lang.Override`) on a method's declaration; the method
 * itself stays, since code may still call it. Read lexically, so methods of anonymous
 * classes, where listeners live, are covered too. Removing it may not be the whole fix
 * (the method may have been renamed), so the confidence is moderate: verification runs the tests. A file whose class
 * extends or implements a type javac cannot find is left alone: its supertype is missing, not its method (a class
 * replaced by another in a dependency's new major), and the annotation is what keeps the later fix honest.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { byFile, isPlacedCompileError, missingSymbol } from './support/diagnostic-text.js';
import { joinLines, maskCommentsAndLiterals, offsetAt, splitLines } from '../../java/index.js';
import type { FixCandidate, Fixer, FixerContext, SourceView } from '../../plugins/contracts.js';

const NAME = 'stale-override';
const MESSAGE = 'method does not override or implement a method from a supertype';
const OVERRIDE = /@(?:java\.lang\.)?Override(?![\w$])/y;
const ANNOTATION = String.raw`@[\w$.]+\s*(?:\((?:[^()]|\([^()]*\))*\))?`;
const MODIFIER = String.raw`(?:public|protected|private|static|final|abstract|synchronized|native|default|strictfp)(?![\w$])`;
/**
 * What may follow the annotation up to a method's name and `(`: annotations, modifiers, type parameters, the result
 * type.
 */
const METHOD_DECLARATION = new RegExp(
  String.raw`^\s*(?:(?:${ANNOTATION}|${MODIFIER})\s*)*(?:<[^;{}()=]*>\s*)?[\w$.]+(?:\s*<[^;{}()=]*>)?(?:\s*\[\s*\])*\s+[\w$]+\s*\(`,
);

function handles(diagnostic: Diagnostic): boolean {
  return isPlacedCompileError(diagnostic) && diagnostic.message === MESSAGE;
}

/**
 * javac's column of the character at `index` of a line: tabs advance to the next multiple of 8 (checked on javac 17).
 */
function javacColumn(lineText: string, index: number): number {
  let column = 0;
  for (const char of lineText.slice(0, index)) column = char === '\t' ? (Math.floor(column / 8) + 1) * 8 : column + 1;
  return column + 1;
}

/** The length of the `@Override` at `at` of a line when it annotates a method's declaration. */
function overrideLength(maskedLine: string, rest: string, at: number): number | undefined {
  OVERRIDE.lastIndex = at;
  const match = OVERRIDE.exec(maskedLine);
  if (!match) return undefined;
  return METHOD_DECLARATION.test(rest.slice(at + match[0].length)) ? match[0].length : undefined;
}

interface Site {
  line: number;
  column?: number;
}

/**
 * The text without the `@Override`s javac reported, or undefined when any site holds no
 * method's `@Override` (a site without a column: its line must hold exactly one).
 */
export function removeStaleOverrides(text: string, sites: Site[]): string | undefined {
  const source = splitLines(text);
  const maskedText = maskCommentsAndLiterals(text);
  const masked = splitLines(maskedText).lines;
  const removals: { index: number; at: number; length: number }[] = [];
  for (const site of sites) {
    const index = site.line - 1;
    const maskedLine = masked[index];
    if (maskedLine === undefined || index < 0) return undefined;
    // What follows the line too: a method's name may sit on the next one.
    const rest = maskedText.slice(offsetAt(maskedText, site.line, 1));
    const overrides = [...maskedLine.matchAll(/@/g)].flatMap(({ index: at = 0 }) => {
      const length = overrideLength(maskedLine, rest, at);
      return length === undefined ? [] : [{ index, at, length }];
    });
    const chosen =
      site.column === undefined
        ? overrides.length === 1
          ? overrides[0]
          : undefined
        : overrides.find((found) => javacColumn(maskedLine, found.at) === site.column);
    if (!chosen) return undefined;
    if (!removals.some((known) => known.index === chosen.index && known.at === chosen.at)) removals.push(chosen);
  }
  // From the bottom up and right to left, so that each removal leaves the others' places as they were.
  for (const { index, at, length } of removals.sort((a, b) => b.index - a.index || b.at - a.at)) {
    const original = source.lines[index] ?? '';
    const kept = `${original.slice(0, at)}${original.slice(at + length).replace(/^[ \t]+/, '')}`;
    // An annotation on a line of its own goes with its line; one beside code or a comment leaves them.
    if (kept.trim() === '') source.lines.splice(index, 1);
    else source.lines[index] = kept;
  }
  return joinLines(source);
}

/** Classes javac reported it cannot find in `file` (`symbol:   class Handler`). */
function unresolvedClasses(diagnostics: readonly Diagnostic[], file: string): string[] {
  return diagnostics
    .filter((d) => d.file === file && d.message.startsWith('cannot find symbol'))
    .flatMap((d) => {
      const symbol = missingSymbol(d);
      return symbol?.kind === 'class' ? [symbol.name] : [];
    });
}

/** Whether a class of the (masked) text extends or implements one of `names`. */
function extendsAnyOf(maskedText: string, names: string[]): boolean {
  return names.some((name) =>
    new RegExp(String.raw`\b(?:extends|implements)\b[^{;]*(?<![\w$.])${name.replace(/\$/g, '\\$')}(?![\w$])`).test(
      maskedText,
    ),
  );
}

async function propose(diagnostics: Diagnostic[], view: SourceView, context: FixerContext): Promise<FixCandidate[]> {
  const candidates: FixCandidate[] = [];
  for (const [file, group] of byFile(diagnostics.filter(handles).filter(isPlacedCompileError))) {
    const before = await view.read(file);
    if (before === undefined) continue;
    if (extendsAnyOf(maskCommentsAndLiterals(before), unresolvedClasses(context.buildDiagnostics ?? [], file)))
      continue;
    const after = removeStaleOverrides(
      before,
      group.map((d) => ({ line: d.line, ...(d.column !== undefined ? { column: d.column } : {}) })),
    );
    if (after === undefined) continue;
    const lines = group.map((d) => d.line).join(', ');
    candidates.push({
      fixer: NAME,
      changeSet: { files: [{ path: file, before, after }] },
      confidence: 0.6,
      reason: `${MESSAGE}: remove the @Override at ${file}:${lines}`,
    });
  }
  return candidates;
}

export const staleOverrideFixer: Fixer = { name: NAME, handles, propose };
