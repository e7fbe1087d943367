import path from 'node:path';
import type { RunRecord } from './run-record.js';

/**
 * The few lines mvnx prints after a failed build, in the order a reader needs them: why
 * mvnx repaired, where the record is (or why it could not be written), and last what
 * happened and what to do next, each a plain sentence.
 */
export function renderSummary(
  record: RunRecord,
  where: {
    recordDir: string;
    projectRoot: string;
    /** Why the record could not be written, when it could not. */ unwritable?: string;
  },
): string {
  const dir = path.relative(where.projectRoot, where.recordDir).split(path.sep).join('/') || '.';
  const lines: string[] = [];
  const reasons = record.decisions.filter((reason) => !reason.startsWith('diagnosis:')).slice(-3);
  if (reasons.length > 0 && record.status !== 'skipped') lines.push(`mvnx: why: ${reasons.join('; ')}`);
  lines.push(
    where.unwritable
      ? `mvnx: the run record could not be written to ${dir}: ${where.unwritable}`
      : `mvnx: details in ${dir}/run.json`,
  );
  return `${[...lines, ...outcomeLines(record, dir, where.unwritable)].join('\n')}\n`;
}

function outcomeLines(record: RunRecord, dir: string, unwritable: string | undefined): string[] {
  const verified = record.attempts.find((a) => a.outcome === 'verified');
  const files = verified?.filesChanged.join(', ') ?? '';
  const by = verified
    ? verified.source === 'fixer'
      ? `quick-fix ${verified.fixer ?? ''}`.trim()
      : verified.source
    : '';
  const lines: string[] = [];
  switch (record.status) {
    case 'fixed':
      if (record.applied) {
        lines.push(`mvnx: fixed ${files} (${by}, attempt ${verified?.n}) and applied it; the build passes now.`);
      } else if (unwritable) {
        // No fix.patch to point at: the diff was printed above, and `mvnx apply` would find no record.
        lines.push(
          `mvnx: verified fix for ${files} (${by}, attempt ${verified?.n}): the diff above; apply it with git apply.`,
        );
      } else if (record.action === 'apply') {
        // Tier auto could not apply it (a file changed since, or the command still failed in place): `mvnx apply`
        // would refuse the same way, so the next step is the patch itself.
        const why = record.decisions.findLast((reason) => /^(not applied|rolled back):/.test(reason));
        lines.push(
          `mvnx: verified fix for ${files} (${by}) in ${dir}/fix.patch was ${why ?? 'not applied'}.`,
          `mvnx: check whether it still applies with: git apply --check ${dir}/fix.patch`,
        );
      } else if (record.action === 'record') {
        lines.push(
          `mvnx: monitor: a verified fix for ${files} (${by}) is recorded in ${dir}/fix.patch; nothing was changed.`,
        );
      } else {
        lines.push(`mvnx: verified fix for ${files} (${by}, risk ${record.risk ?? 'unknown'}) in ${dir}/fix.patch.`);
        lines.push(`mvnx: apply it with: mvnx apply ${record.runId}`);
      }
      if (verified?.failingTestEdits?.length) {
        lines.push(
          `mvnx: careful: this fix edits the test that failed (tests.allowFailingTestEdits): ${verified.failingTestEdits.join('; ')}`,
        );
      }
      break;
    case 'skipped':
      lines.push(`mvnx: not repairing: ${record.message ?? record.decisions.at(-1) ?? record.stopReason}.`);
      break;
    case 'error':
      lines.push(`mvnx: the repair stopped on an error: ${oneSentence(record.message ?? 'unknown')}.`);
      break;
    default:
      if (record.stopReason === 'flaky') {
        lines.push(
          `mvnx: ${record.message ?? 'the failing tests passed when re-run'}: a flaky failure, not one a patch should fix; ${
            record.discardedModelCalls
              ? `the model request made beside the re-check was discarded unused (${record.discardedModelCalls})`
              : 'no model was asked'
          }.`,
        );
        break;
      }
      lines.push(noFixSentence(record));
  }
  return lines;
}

/** "no fix was tried: <why>." or "no verified fix after 2 attempts: <why>.": one sentence, whatever the reason said. */
export function noFixSentence(record: Pick<RunRecord, 'attempts' | 'stopReason' | 'message'>): string {
  const n = record.attempts.length;
  const head = n === 0 ? 'no fix was tried' : `no verified fix after ${n} attempt${n === 1 ? '' : 's'}`;
  return `mvnx: ${head}: ${oneSentence(record.message ?? record.stopReason.replace(/-/g, ' '))}.`;
}

/** Sentences joined by semicolons, the first letter of each lower-cased unless it starts a name (HTTP, GET). */
function oneSentence(text: string): string {
  return text
    .trim()
    .replace(/[.;:]+$/, '')
    .split(/(?<=[a-z0-9)`'"])\.\s+(?=[A-Z])/)
    .map((part) => (/^[A-Z][a-z]/.test(part) ? part[0]!.toLowerCase() + part.slice(1) : part))
    .join('; ');
}
