/** The one paragraph a reviewer reads before taking a suggestion: what failed, who fixed it, how it was checked. */
import { redact } from '../../model/redact.js';
import type { RunRecord } from '../run-record.js';

function failure(record: RunRecord): string {
  const first = record.diagnostics[0];
  if (!first) return 'the build failed';
  const where = first.file ? `\`${first.file}${first.line ? `:${first.line}` : ''}\` ` : '';
  const what = first.test ? `${first.test}: ${first.message}` : first.message;
  const more = record.diagnostics.length > 1 ? ` (and ${record.diagnostics.length - 1} more)` : '';
  return `the build failed: ${where}${what}${more}`;
}

export function whyParagraph(record: RunRecord): string {
  const verified = record.attempts.find((attempt) => attempt.outcome === 'verified');
  const by =
    verified?.source === 'fixer'
      ? `the deterministic quick-fix \`${verified.fixer ?? 'fixer'}\``
      : verified?.source === 'agent'
        ? `an agent session with ${record.model?.name ?? 'the model'}`
        : `the code model ${record.model?.name ?? ''}`.trimEnd();
  const files = verified?.filesChanged.map((file) => `\`${file}\``).join(', ') ?? 'the code';
  const sandbox =
    record.sandbox?.kind && record.sandbox.kind !== 'none'
      ? `a ${record.sandbox.kind} sandbox with the network off`
      : 'a separate workspace (no sandbox was available)';
  const command = `mvn ${record.mavenArgs.join(' ')}`.trim();
  const text =
    `Mvnx looked at this commit because ${failure(record)}. ${by[0]!.toUpperCase()}${by.slice(1)} changed ${files} (attempt ${verified?.n ?? '?'}), ` +
    `and mvnx built the change in ${sandbox}: the failing tests ran and passed, \`${command}\` passed, and no test that passed before failed, went missing or was weakened. ` +
    `Risk ${record.risk ?? 'unknown'}; the policy tier is ${record.tier}, so the fix is suggested here rather than applied.`;
  // Test messages and Maven arguments come from the build: they may carry a secret.
  return redact(text);
}
