/**
 * -Werror under -q: Maven hides every [WARNING] line, so the log names only
 * `File.java: warnings found and -Werror specified`, with no line. The repair recompiles
 * the failing modules without -q (in its workspace) and merges what that log says: the
 * warnings, each a compile diagnostic with file, line, column and lint category.
 */
import { diagnosisFingerprint } from './fingerprint.js';
import { WERROR_MESSAGE } from './javac-lines.js';
import type { Diagnosis, Diagnostic } from './types.js';

/** A -Werror failure whose warnings the log did not show. */
export function isHiddenWarningsFailure(d: Diagnostic): boolean {
  return d.kind === 'compile' && d.line === undefined && d.message === WERROR_MESSAGE;
}

export function needsWarningRecovery(diagnosis: Diagnosis): boolean {
  return diagnosis.diagnostics.some(isHiddenWarningsFailure);
}

/**
 * The first diagnosis with its line-less -Werror failures replaced by the warnings the
 * recompile found in the same modules. Unchanged when the recompile found none.
 */
export function mergeRecoveredWarnings(original: Diagnosis, recompiled: Diagnosis): Diagnosis {
  const hidden = original.diagnostics.filter(isHiddenWarningsFailure);
  const modules = new Set(hidden.map((d) => d.module ?? ''));
  const recovered = recompiled.diagnostics.filter(
    (d) =>
      d.kind === 'compile' &&
      d.lint !== undefined &&
      d.line !== undefined &&
      (modules.has(d.module ?? '') || modules.has('')),
  );
  if (recovered.length === 0) return original;
  const diagnostics: Diagnostic[] = [];
  let inserted = false;
  for (const d of original.diagnostics) {
    if (!isHiddenWarningsFailure(d)) diagnostics.push(d);
    else if (!inserted) {
      diagnostics.push(...recovered);
      inserted = true;
    }
  }
  return {
    ...original,
    diagnostics,
    fingerprint: diagnosisFingerprint(diagnostics),
    warnings: [
      ...original.warnings,
      `the log hid the warnings that -Werror turned into errors (-q); ${recovered.length} were recovered by compiling again without -q`,
    ],
  };
}
