/**
 * The words of a published fix: the commit message with its trailers, and the request's
 * title and description (the run's summary: the failure, the diff's size, the risk and its
 * reasons, the command that verified it, the tests that ran). Pure; every text goes
 * through the redaction of build output, which may carry a secret.
 */
import { parsePatch } from 'diff';
import { redact } from '../../model/redact.js';
import type { RunRecord } from '../run-record.js';

/** Hidden in every description mvnx writes: how the next run knows the request is its own. */
export const PUBLICATION_MARKER = '<!-- mvnx-publication -->';

export function verifiedAttempt(record: RunRecord) {
  return record.attempts.find((attempt) => attempt.outcome === 'verified');
}

/** The fix's identity (its verified attempt's fingerprint), or undefined for a run without one. */
export function fixFingerprint(record: RunRecord): string | undefined {
  return verifiedAttempt(record)?.fingerprint || undefined;
}

/** `mvnx/fix-<first 12 characters of the fingerprint>`: the same fix always lands on the same branch. */
export function branchFor(fingerprint: string): string {
  return `mvnx/fix-${fingerprint
    .replace(/[^0-9a-zA-Z]/g, '')
    .slice(0, 12)
    .toLowerCase()}`;
}

export interface DiffStat {
  path: string;
  added: number;
  removed: number;
}

export function diffStats(patchText: string): DiffStat[] {
  return parsePatch(patchText).map((file) => {
    const name = (
      file.newFileName && file.newFileName !== '/dev/null' ? file.newFileName : (file.oldFileName ?? '?')
    ).replace(/^[ab]\//, '');
    let added = 0;
    let removed = 0;
    for (const hunk of file.hunks) {
      added += hunk.lines.filter((line) => line.startsWith('+')).length;
      removed += hunk.lines.filter((line) => line.startsWith('-')).length;
    }
    return { path: name, added, removed };
  });
}

function failureLine(record: RunRecord): string {
  const first = record.diagnostics[0];
  if (!first) return 'the build failed';
  const where = first.file ? `${first.file}${first.line ? `:${first.line}` : ''}: ` : '';
  return `${where}${first.test ? `${first.test}: ` : ''}${first.message}`.split('\n')[0]!.slice(0, 200);
}

function riskReasons(record: RunRecord): string {
  return record.decisions.find((line) => line.startsWith('risk ')) ?? `risk ${record.risk ?? 'unknown'}`;
}

function verificationCommand(record: RunRecord): string {
  const verdict = verifiedAttempt(record)?.verdict;
  return `mvn ${(verdict?.args ?? record.mavenArgs).join(' ')}`.trim();
}

function testsThatRan(record: RunRecord): string[] {
  const failing = [
    ...new Set(record.diagnostics.map((diagnostic) => diagnostic.test).filter((test): test is string => Boolean(test))),
  ];
  const lines = failing.length > 0 ? [`the tests that failed, now passing: ${failing.join(', ')}`] : [];
  const verdict = verifiedAttempt(record)?.verdict;
  // verify.tests affected: only the test classes that can reach the change ran in the module it touches.
  const selected =
    verdict?.tests && verdict.tests.fromYourBuild.length > 0
      ? `; in the module the fix touches, ${verdict.tests.why.replace(/your build$/, 'the failed build')}`
      : '';
  if (verdict?.scope === 'affected' && verdict.testsFromYourBuild.length > 0)
    lines.push(
      `every test of the modules the fix can affect; the passing tests of ${verdict.testsFromYourBuild.join(', ')} were taken from the failed build${selected}`,
    );
  else if (selected) lines.push(selected.slice(2));
  else lines.push('every test of the build');
  return lines;
}

export function requestTitle(record: RunRecord): string {
  return redact(`mvnx: fix ${failureLine(record)}`).slice(0, 120);
}

/** The commit's message: what was fixed, then the trailers git interpret-trailers reads. */
export function commitMessage(record: RunRecord, patchText: string): string {
  const stats = diffStats(patchText);
  const body = [
    `Verified by mvnx run ${record.runId}: the build failed with ${failureLine(record)};`,
    `this change to ${stats.map((stat) => stat.path).join(', ')} makes \`${verificationCommand(record)}\` pass.`,
  ].join('\n');
  const trailers = [
    `Mvnx-Run: ${record.runId}`,
    `Mvnx-Fingerprint: ${fixFingerprint(record) ?? 'unknown'}`,
    `Mvnx-Risk: ${record.risk ?? 'unknown'}`,
  ].join('\n');
  return redact(`${requestTitle(record)}\n\n${body}\n\n${trailers}\n`);
}

export interface DescriptionExtras {
  /** The CI run's page, where the run record is kept. */
  runUrl?: string;
  /** Why the forge will not merge it on its own, when it will not. */
  autoMergeNote?: string;
}

export function requestDescription(record: RunRecord, patchText: string, extras: DescriptionExtras = {}): string {
  const stats = diffStats(patchText);
  const verified = verifiedAttempt(record);
  const by =
    verified?.source === 'fixer'
      ? `the quick-fix \`${verified.fixer ?? 'fixer'}\``
      : `${verified?.source === 'agent' ? 'an agent session with' : 'the code model'} ${record.model?.name ?? ''}`.trim();
  const lines = [
    PUBLICATION_MARKER,
    `**The failure:** ${failureLine(record)}${record.diagnostics.length > 1 ? ` (and ${record.diagnostics.length - 1} more)` : ''}`,
    '',
    `**The fix** by ${by}, ${stats.reduce((sum, stat) => sum + stat.added, 0)} line(s) added, ${stats.reduce((sum, stat) => sum + stat.removed, 0)} removed:`,
    ...stats.map((stat) => `- \`${stat.path}\` +${stat.added} -${stat.removed}`),
    '',
    `**Risk:** ${riskReasons(record)}`,
    '',
    `**Verified with** \`${verificationCommand(record)}\` in ${record.sandbox?.isolated ? `a ${record.sandbox.kind} sandbox` : 'a separate workspace'}. Tests that ran:`,
    ...testsThatRan(record).map((line) => `- ${line}`),
    '',
    `Run \`${record.runId}\`, fingerprint \`${fixFingerprint(record) ?? 'unknown'}\`${extras.runUrl ? `; the run record is in the artifacts of ${extras.runUrl}` : ''}.`,
    ...(extras.autoMergeNote ? ['', `**Auto-merge:** ${extras.autoMergeNote}`] : []),
  ];
  return redact(lines.join('\n'));
}
