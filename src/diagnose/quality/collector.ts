/**
 * Quality findings are candidates until their gate fails the build: a checkstyle report
 * that only warns, or a tool run with failOnViolation=false, must not send anything to
 * a fixer. The gate's failed goal (`Failed to execute goal ...:check ... on project X`)
 * promotes them; a finding printed without a module (-q hides the goal headers) joins
 * its tool's failure.
 */
import { relativisePathsIn, toForwardSlashes } from '../log-paths.js';
import { truncate } from '../text.js';
import type { QualityFailure, QualityFinding } from '../types.js';

const MAX_FINDINGS = 5_000;

export class QualityCollector {
  private readonly candidates: QualityFinding[] = [];
  private readonly failed = new Map<string, QualityFailure>();
  capped = false;

  collect(findings: QualityFinding[], runningModule: (tool: string) => string | undefined): void {
    for (const finding of findings) {
      if (this.candidates.length >= MAX_FINDINGS) {
        this.capped = true;
        return;
      }
      const module = finding.module ?? runningModule(finding.tool);
      this.candidates.push({ ...finding, ...(module ? { module } : {}) });
    }
  }

  fail(input: { tool: string; module: string; goal: string; message: string; projectRoot?: string }): void {
    const key = `${input.tool}\u0000${input.module}`;
    if (this.failed.has(key)) return;
    const message = input.message.replace(/\s*-> \[Help \d+\]\s*$/, '').trim();
    const report = /For more details see: (.+)$/.exec(message)?.[1]?.trim();
    this.failed.set(key, {
      tool: input.tool,
      module: input.module,
      goal: input.goal,
      message: truncate(input.projectRoot === undefined ? message : relativisePathsIn(message, input.projectRoot), 500),
      ...(report ? { reportPath: toForwardSlashes(report) } : {}),
    });
  }

  failures(): QualityFailure[] {
    return [...this.failed.values()];
  }

  /** The findings of gates that failed, each once. */
  promoted(): QualityFinding[] {
    const failures = this.failures();
    const out: QualityFinding[] = [];
    const seen = new Set<string>();
    for (const finding of this.candidates) {
      const failed = failures.filter((f) => f.tool === finding.tool);
      const owner = finding.module
        ? failed.find((f) => f.module === finding.module)
        : failed.length === 1
          ? failed[0]
          : undefined;
      if (!owner && !(finding.module === undefined && failed.length > 1)) continue;
      const promoted = { ...finding, ...(owner?.module ? { module: owner.module } : {}) };
      const key = `${promoted.tool}\u0000${promoted.module ?? ''}\u0000${promoted.file ?? promoted.className ?? ''}\u0000${promoted.line ?? ''}\u0000${promoted.rule ?? ''}\u0000${promoted.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(promoted);
    }
    return out;
  }
}
