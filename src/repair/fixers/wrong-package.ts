/**
 * A package declaration that does not match the file's folder. javac says nothing about
 * the file itself; the break shows up elsewhere (checked on a real build): "duplicate
 * class: com.acme.utils.Slugs" on the misplaced file, and "cannot access com.acme.util.Slugs"
 * with `bad source file: <path>` in the file that imports it. Either one leads here; the
 * fix rewrites the declaration to the package the folder implies.
 */
import path from 'node:path';
import type { Diagnostic } from '../../diagnose/types.js';
import { isPlacedCompileError } from './support/diagnostic-text.js';
import { joinLines, readJavaHeader, splitLines } from '../../java/index.js';
import { packageImpliedByPath } from '../../codebase/index.js';
import type { FixCandidate, Fixer, SourceView } from '../../plugins/contracts.js';

const NAME = 'wrong-package';
const DUPLICATE_CLASS = /^duplicate class: ([\w$.]+)$/;
const CANNOT_ACCESS = /^cannot access ([\w$.]+)$/;

function handles(diagnostic: Diagnostic): boolean {
  return (
    isPlacedCompileError(diagnostic) &&
    (DUPLICATE_CLASS.test(diagnostic.message) || CANNOT_ACCESS.test(diagnostic.message))
  );
}

function badSourceFile(diagnostic: Diagnostic, root: string): string | undefined {
  for (const line of diagnostic.details ?? []) {
    const match = /bad source file:\s+(.+?\.java)\s*$/.exec(line);
    const reported = match?.[1];
    if (!reported) continue;
    if (!path.isAbsolute(reported)) return reported.split(path.sep).join('/');
    const relative = path.relative(root, reported);
    return relative.startsWith('..') ? undefined : relative.split(path.sep).join('/');
  }
  return undefined;
}

/** The text with its package declaration replaced by the one its path implies, or undefined when they already agree. */
export function correctPackage(
  file: string,
  text: string,
): { after: string; declared: string; implied: string } | undefined {
  const implied = packageImpliedByPath(file);
  if (!implied) return undefined;
  const source = splitLines(text);
  const header = readJavaHeader(text);
  if (header.packageName === undefined || header.packageLine === undefined || header.packageName === implied)
    return undefined;
  const index = header.packageLine - 1;
  const original = source.lines[index] ?? '';
  const rewritten = original.replace(/package\s+[\w$.\s]+?\s*;/, `package ${implied};`);
  // A declaration wrapped over several lines is not rewritten by a one-line edit.
  if (rewritten === original) return undefined;
  source.lines[index] = rewritten;
  return { after: joinLines(source), declared: header.packageName, implied };
}

async function propose(diagnostics: Diagnostic[], view: SourceView): Promise<FixCandidate[]> {
  const files = new Set<string>();
  for (const diagnostic of diagnostics.filter(handles)) {
    if (!isPlacedCompileError(diagnostic)) continue;
    const target = DUPLICATE_CLASS.test(diagnostic.message) ? diagnostic.file : badSourceFile(diagnostic, view.root);
    if (target) files.add(target);
  }
  const candidates: FixCandidate[] = [];
  for (const file of files) {
    const before = await view.read(file);
    if (before === undefined) continue;
    const correction = correctPackage(file, before);
    if (!correction) continue;
    candidates.push({
      fixer: NAME,
      changeSet: { files: [{ path: file, before, after: correction.after }] },
      confidence: 0.85,
      reason: `${file} declares package ${correction.declared} but its folder is package ${correction.implied}`,
    });
  }
  return candidates;
}

export const wrongPackageFixer: Fixer = { name: NAME, handles, propose };
