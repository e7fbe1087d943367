/**
 * Fingerprints: what "the same failure again" means, for no-progress detection.
 *
 * A diagnostic's fingerprint is the sha-256 (hex) of a JSON array of:
 *   kind, category, file (project-relative, forward slashes), module, test id,
 *   the normalised message, and the normalised javac continuation lines; then, only
 *   when set (so that fingerprints of javac and test diagnostics stay what they were),
 *   the tool, rule and lint category.
 *
 * Left out, and why:
 *   - line and column: an edit above the error moves it without fixing it ("line
 *     drift"); the same message in the same file is the same failure for the loop.
 *   - absolute paths: the workspace copy lives elsewhere than the real tree; any
 *     absolute path inside a message is reduced to its last segment.
 *   - timestamps, durations, object hashes (`@1b6d3586`) and temp-file names:
 *     they change on every run.
 *   - the stack trace of a test failure: frames shift with unrelated edits; the
 *     test id, failure message and first project file identify it.
 *   - ordering: `diagnosisFingerprint` sorts the diagnostic fingerprints first, so
 *     reactor order or parallel builds do not change it. Duplicates are kept, so two
 *     identical errors and one differ.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from './types.js';

// Segments exclude the separators, so a path splits one way only (no catastrophic backtracking).
const ABSOLUTE_PATH = /(?:[A-Za-z]:[\\/]|\/)(?:[^\s:'"()[\]<>,\\/]+[\\/])+([^\s:'"()[\]<>,\\/]+)/g;
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}[:-]\d{2}[:-]\d{2}(?:[.,_]\d+)?Z?\b/g;
const DURATION = /\b\d+(?:[.,]\d+)?\s?(?:ms|s|sec|seconds|milliseconds)\b/g;
const IDENTITY_HASH = /@[0-9a-f]{4,}\b/g;
const TEMP_NAME = /\b(surefire|junit|tmp)[\w-]*\d{6,}[\w-]*/g;

export function normaliseForFingerprint(text: string): string {
  return text
    .replace(ABSOLUTE_PATH, '$1')
    .replace(TIMESTAMP, '<time>')
    .replace(DURATION, '<duration>')
    .replace(IDENTITY_HASH, '@<hash>')
    .replace(TEMP_NAME, '$1<tmp>')
    .replace(/\s+/g, ' ')
    .trim();
}

export function diagnosticFingerprint(d: Omit<Diagnostic, 'fingerprint'> & { fingerprint?: string }): string {
  const identity: unknown[] = [
    d.kind,
    d.category,
    d.file ?? '',
    d.module ?? '',
    d.test ?? '',
    normaliseForFingerprint(d.message),
    (d.details ?? []).map(normaliseForFingerprint),
  ];
  if (d.tool !== undefined || d.rule !== undefined || d.lint !== undefined)
    identity.push(d.tool ?? '', d.rule ?? '', d.lint ?? '');
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}

export function diagnosisFingerprint(ds: Diagnostic[]): string {
  const sorted = ds.map((d) => d.fingerprint || diagnosticFingerprint(d)).sort();
  return createHash('sha256').update(sorted.join('\n')).digest('hex');
}
