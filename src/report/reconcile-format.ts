/** `mvnx runs --reconcile` as text: one line per outcome that changed. */
import type { ReconcileReport } from './reconcile.js';

export function formatReconcile(report: ReconcileReport): string {
  const lines: string[] = [];
  if (report.note) lines.push(`mvnx: ${report.note}`);
  if (report.checked === 0) {
    lines.push(
      'No verified fixes to reconcile (runs with a fix whose outcome can still change, from the last 90 days).',
    );
    return lines.join('\n');
  }
  for (const change of report.changes) {
    for (const event of change.events)
      lines.push(`${change.runId}: ${event.outcome} (${event.evidence}, ${event.at.slice(0, 10)})`);
  }
  lines.push(`${report.checked} verified fix(es) checked, ${report.changes.length} outcome(s) changed.`);
  return lines.join('\n');
}
