/**
 * "unreported exception X; must be caught or declared to be thrown" inside a private or
 * package-private method: declare `throws X` on that method (importing X when needed).
 * Public and protected methods are API, and lambdas or initializers cannot declare it, so
 * those are left to the model.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { byFile, isPlacedCompileError } from './support/diagnostic-text.js';
import {
  enclosingMethodAt,
  headerOf,
  offsetAt,
  parseJava,
  viewJavaFile,
  type JavaHeader,
  type JavaParseResult,
} from '../../java/index.js';
import { insertImport } from './support/insert-import.js';
import type { FixCandidate, Fixer, SourceView } from '../../plugins/contracts.js';

const NAME = 'missing-throws';
const UNREPORTED = /^unreported exception ([\w$.]+); must be caught or declared to be thrown$/;

function handles(diagnostic: Diagnostic): boolean {
  return (
    isPlacedCompileError(diagnostic) && typeof diagnostic.column === 'number' && UNREPORTED.test(diagnostic.message)
  );
}

interface Declaration {
  headerEnd: number;
  hasThrows: boolean;
  method: string;
  exceptions: string[];
}

/** How the exception is written in this file, and the import it needs, if any. */
function spelling(header: JavaHeader, exception: string): { name: string; importName?: string } {
  const simpleName = exception.slice(exception.lastIndexOf('.') + 1);
  const pkg = exception.slice(0, exception.lastIndexOf('.'));
  if (pkg === 'java.lang' || pkg === (header.packageName ?? '')) return { name: simpleName };
  const clash = header.imports.find((entry) => !entry.isStatic && entry.simpleName === simpleName);
  if (clash) return clash.name === exception ? { name: simpleName } : { name: exception };
  return { name: simpleName, importName: exception };
}

/**
 * The file with `throws` added for each unreported exception, or undefined when any is out of bounds for a local fix.
 */
export function declareThrows(
  text: string,
  sites: { line: number; column: number; exception: string }[],
  parsed: JavaParseResult = parseJava(text),
): string | undefined {
  // javac reports an unreported exception only in a file that parses.
  if (!parsed.ok) return undefined;
  const header = headerOf(parsed.file);
  const declarations = new Map<number, Declaration>();
  for (const site of sites) {
    const method = enclosingMethodAt(parsed.file, offsetAt(text, site.line, site.column));
    if (!method || method.inInterface || method.annotations.includes('Override')) return undefined;
    if (method.method.modifiers.includes('public') || method.method.modifiers.includes('protected')) return undefined;
    const declaration = declarations.get(method.headerEnd) ?? {
      headerEnd: method.headerEnd,
      hasThrows: method.thrown.length > 0,
      method: method.method.name,
      exceptions: [],
    };
    if (!declaration.exceptions.includes(site.exception)) declaration.exceptions.push(site.exception);
    declarations.set(method.headerEnd, declaration);
  }
  let after = text;
  const imports: string[] = [];
  // From the bottom up, so earlier offsets stay valid.
  for (const declaration of [...declarations.values()].sort((a, b) => b.headerEnd - a.headerEnd)) {
    const names = declaration.exceptions.map((exception) => {
      const written = spelling(header, exception);
      if (written.importName) imports.push(written.importName);
      return written.name;
    });
    const clause = `${declaration.hasThrows ? ', ' : ' throws '}${names.join(', ')}`;
    after = after.slice(0, declaration.headerEnd) + clause + after.slice(declaration.headerEnd);
  }
  for (const importName of imports) after = insertImport(after, importName);
  return after;
}

async function propose(diagnostics: Diagnostic[], view: SourceView): Promise<FixCandidate[]> {
  const placed = diagnostics.filter(handles).filter(isPlacedCompileError);
  const candidates: FixCandidate[] = [];
  for (const [file, group] of byFile(placed)) {
    const viewed = await viewJavaFile(view, file);
    if (viewed === undefined) continue;
    const before = viewed.text;
    const sites = group.map((d) => ({
      line: d.line,
      column: d.column as number,
      exception: UNREPORTED.exec(d.message)?.[1] ?? '',
    }));
    const after = declareThrows(before, sites, viewed.parsed);
    if (after === undefined || after === before) continue;
    const exceptions = [...new Set(sites.map((site) => site.exception))].join(', ');
    candidates.push({
      fixer: NAME,
      changeSet: { files: [{ path: file, before, after }] },
      confidence: 0.8,
      reason: `unreported ${exceptions}: declare it on the non-public method that throws it in ${file}`,
    });
  }
  return candidates;
}

export const missingThrowsFixer: Fixer = { name: NAME, handles, propose };
