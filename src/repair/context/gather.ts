/**
 * What the model is shown about a failure: context pieces for every fixable diagnostic
 * (see failures.ts for tests, symbols.ts for compile errors), read through the tree the
 * current attempt sees, so the code shown is the code a patch will be applied to. The
 * prompt stage packs them into the model's window (model/prompts/context-pack.ts).
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { MAX_CONTEXT_FAILURES, type ContextPiece } from '../../model/prompts/index.js';
import type { TypeIndex } from '../../plugins/contracts.js';
import { testFailureContext } from './failures.js';
import { linesPiece } from './pieces.js';
import { ProjectSources, type SourceAccess } from './sources.js';
import { compileErrorContext } from './symbols.js';
import { withUnreadFieldsSupporting } from './supporting.js';

export interface GatherInput {
  diagnostics: Diagnostic[];
  access: SourceAccess;
  /** JDK and jar lookups for library members; without it only project sources are read. */
  types?: TypeIndex;
}

/** A later diagnostic's pieces rank just below an earlier one's of the same tier. */
const PER_DIAGNOSTIC = 0.5;

export async function gatherContext(input: GatherInput): Promise<ContextPiece[]> {
  const sources = new ProjectSources(input.access, input.types);
  const out: ContextPiece[] = [];
  const seen = new Set<string>();
  // Context for the failures the prompt shows in full: a bug that fails 152 tests needs no 152 test files read and
  // parsed.
  for (const [index, diagnostic] of input.diagnostics
    .filter((d) => d.fixable)
    .slice(0, MAX_CONTEXT_FAILURES)
    .entries()) {
    let pieces: ContextPiece[];
    if (diagnostic.kind === 'test') pieces = await testFailureContext(diagnostic, sources);
    // A javac error, a -Werror warning, a javadoc error or a quality finding in Java code: the
    // method it names and what it uses.
    else if ((diagnostic.kind === 'compile' || diagnostic.kind === 'quality') && diagnostic.file?.endsWith('.java'))
      pieces = await compileErrorContext(diagnostic, sources);
    else pieces = await plainLines(diagnostic, input.access);
    for (const piece of pieces) {
      const key = `${piece.path ?? piece.heading}\u0000${piece.startLine ?? ''}\u0000${piece.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...piece, score: piece.score - index * PER_DIAGNOSTIC });
    }
  }
  return withUnreadFieldsSupporting(out);
}

/** A file that is not Java (a pom, a resource): the lines around the one named. */
async function plainLines(diagnostic: Diagnostic, access: SourceAccess): Promise<ContextPiece[]> {
  if (!diagnostic.file) return [];
  const text = await access.read(diagnostic.file);
  if (text === undefined) return [];
  const line = diagnostic.line ?? 1;
  const piece = linesPiece(diagnostic.file, text, line - 12, line + 12, `lines around line ${line}`, {
    tier: 'primary',
    score: 100,
    reason: diagnostic.message.slice(0, 120),
  });
  return piece ? [piece] : [];
}
