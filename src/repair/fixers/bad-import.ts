/**
 * Imports that by themselves break the build:
 * - an import of a package or class that does not exist, when nothing in the file uses
 *   the imported name (javac: "package x does not exist" or "cannot find symbol" with
 *   `location: package x`, reported on the import line) -> remove it;
 * - two single-type imports of the same simple name (javac: "a type with the same simple
 *   name is already defined by the single-type-import of Q", on the second one) -> remove
 *   one, the less preferred first.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { isPlacedCompileError, symbolLocation } from './support/diagnostic-text.js';
import { joinLines, readJavaHeader, splitLines, usesSimpleName, type JavaImport } from '../../java/index.js';
import { packageRank } from './support/package-preference.js';
import type { FixCandidate, Fixer, SourceView } from '../../plugins/contracts.js';

const NAME = 'bad-import';
const MISSING_PACKAGE = /^package ([\w$.]+) does not exist$/;
const CONFLICT =
  /^a type with the same simple name(?: [\w$]+)? is already defined by the single-type-import of ([\w$.]+)$/;

function handles(diagnostic: Diagnostic): boolean {
  if (!isPlacedCompileError(diagnostic)) return false;
  if (MISSING_PACKAGE.test(diagnostic.message) || CONFLICT.test(diagnostic.message)) return true;
  return diagnostic.message === 'cannot find symbol' && (symbolLocation(diagnostic) ?? '').startsWith('package ');
}

/** The text without the import declaration's lines. */
function withoutImport(text: string, entry: JavaImport): string {
  const source = splitLines(text);
  source.lines.splice(entry.line - 1, entry.endLine - entry.line + 1);
  return joinLines(source);
}

function importAt(imports: JavaImport[], line: number): JavaImport | undefined {
  return imports.find((entry) => entry.line <= line && line <= entry.endLine);
}

function removeUnusedMissingImport(
  text: string,
  line: number,
): { after: string; name: string; confidence: number } | undefined {
  const target = importAt(readJavaHeader(text).imports, line);
  if (!target) return undefined;
  if (target.simpleName === '*') return { after: withoutImport(text, target), name: target.name, confidence: 0.6 };
  if (usesSimpleName(text, target.simpleName)) return undefined;
  return { after: withoutImport(text, target), name: target.name, confidence: 0.9 };
}

function resolveConflict(
  text: string,
  line: number,
  earlier: string,
): { keep: string; drop: string; after: string; confidence: number }[] {
  const imports = readJavaHeader(text).imports;
  const reported = importAt(imports, line);
  const first = imports.find((entry) => !entry.isStatic && entry.name === earlier);
  if (!reported || !first || reported.simpleName !== first.simpleName) return [];
  const reportedPreferred = packageRank(reported.name) < packageRank(first.name);
  const options = [
    {
      keep: first.name,
      drop: reported.name,
      after: withoutImport(text, reported),
      confidence: reportedPreferred ? 0.4 : 0.7,
    },
    {
      keep: reported.name,
      drop: first.name,
      after: withoutImport(text, first),
      confidence: reportedPreferred ? 0.7 : 0.4,
    },
  ];
  return options.sort((a, b) => b.confidence - a.confidence);
}

async function propose(diagnostics: Diagnostic[], view: SourceView): Promise<FixCandidate[]> {
  const candidates: FixCandidate[] = [];
  for (const diagnostic of diagnostics.filter(handles)) {
    if (!isPlacedCompileError(diagnostic)) continue;
    const before = await view.read(diagnostic.file);
    if (before === undefined) continue;
    const conflict = CONFLICT.exec(diagnostic.message);
    if (conflict) {
      for (const option of resolveConflict(before, diagnostic.line, conflict[1] ?? '')) {
        candidates.push({
          fixer: NAME,
          changeSet: { files: [{ path: diagnostic.file, before, after: option.after }] },
          confidence: option.confidence,
          reason: `conflicting imports in ${diagnostic.file}: keep ${option.keep}, remove ${option.drop}`,
        });
      }
      continue;
    }
    const removal = removeUnusedMissingImport(before, diagnostic.line);
    if (!removal) continue;
    candidates.push({
      fixer: NAME,
      changeSet: { files: [{ path: diagnostic.file, before, after: removal.after }] },
      confidence: removal.confidence,
      reason: `${diagnostic.message}: remove the unused import ${removal.name} from ${diagnostic.file}`,
    });
  }
  return candidates;
}

export const badImportFixer: Fixer = { name: NAME, handles, propose };
