import type { Diagnostic } from '../../../diagnose/types.js';

export interface MissingSymbol {
  kind: string;
  name: string;
}

/** `symbol:   class List` -> {kind: 'class', name: 'List'} from a javac diagnostic's details. */
export function missingSymbol(diagnostic: Diagnostic): MissingSymbol | undefined {
  for (const line of diagnostic.details ?? []) {
    const match = /^\s*(?:\[ERROR\]\s*)?symbol:\s+(\w+)\s+([\w$]+)/.exec(line);
    if (match?.[1] && match[2]) return { kind: match[1], name: match[2] };
  }
  return undefined;
}

/** `location: package com.acme.legacy` -> 'com.acme.legacy'. */
export function symbolLocation(diagnostic: Diagnostic): string | undefined {
  for (const line of diagnostic.details ?? []) {
    const match = /^\s*(?:\[ERROR\]\s*)?location:\s+(.+?)\s*$/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/** True for a javac compile diagnostic with a file and line, the only kind fixers can place. */
export function isPlacedCompileError(
  diagnostic: Diagnostic,
): diagnostic is Diagnostic & { file: string; line: number } {
  return (
    diagnostic.kind === 'compile' &&
    typeof diagnostic.file === 'string' &&
    typeof diagnostic.line === 'number' &&
    diagnostic.file.endsWith('.java')
  );
}

/** Groups diagnostics by file, keeping the first-seen order. */
export function byFile<T extends { file: string }>(diagnostics: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const diagnostic of diagnostics) {
    const group = groups.get(diagnostic.file) ?? [];
    group.push(diagnostic);
    groups.set(diagnostic.file, group);
  }
  return groups;
}
