/**
 * Non-code failures as the log parser collects them: one per category and module, the
 * most informative message kept (a later line often says more than the "Failed to
 * execute goal" header did), and a message that ends in ':' completed by the next line.
 */
import { CATEGORY_REASONS, matchNonCode, type NonCodeCategory } from './categories.js';
import { diagnosticFingerprint } from './fingerprint.js';
import { relativisePathsIn } from './log-paths.js';
import { truncate } from './text.js';
import type { Diagnostic } from './types.js';

const MAX_MESSAGE = 500;

export class NonCodeFailures {
  private readonly byKey = new Map<string, Diagnostic>();
  /** Key of a failure whose message ended in ':' (the next line explains it). */
  private awaiting: string | undefined;

  /** `projectRoot`: the root as the log names it, for relative paths in messages; undefined keeps them. */
  constructor(private readonly projectRoot: string | undefined) {}

  values(): Diagnostic[] {
    return [...this.byKey.values()];
  }

  add(category: NonCodeCategory, rawText: string, module: string | undefined, reason?: string): void {
    const text = rawText.replace(/\s*-> \[Help \d+\]\s*$/, '');
    const key = `${category}\u0000${module ?? ''}`;
    this.awaiting = text.trimEnd().endsWith(':') ? key : undefined;
    const seen = this.byKey.get(key);
    const informative = text.trim() !== '' && !/^Failed to execute goal/.test(text);
    if (seen) {
      if (informative && (seen.message === '' || /^Failed to execute goal/.test(seen.message)))
        this.byKey.set(key, this.diagnostic(category, text, module, reason));
      return;
    }
    this.byKey.set(key, this.diagnostic(category, text, module, reason));
  }

  /** Any other error line: completes a failure that was waiting for its explanation. */
  next(header: string): void {
    if (this.awaiting && header !== '' && !/^-> \[Help/.test(header)) {
      const seen = this.byKey.get(this.awaiting);
      if (seen) {
        const text = `${seen.message} ${header}`;
        this.byKey.set(
          this.awaiting,
          this.diagnostic(
            seen.category as NonCodeCategory,
            text,
            seen.module,
            matchNonCode(text)?.reason ?? seen.reason,
          ),
        );
      }
    }
    this.awaiting = undefined;
  }

  diagnostic(category: NonCodeCategory, text: string, module: string | undefined, reason?: string): Diagnostic {
    const root = this.projectRoot;
    const why = reason ?? CATEGORY_REASONS[category];
    const d: Diagnostic = {
      kind: 'other',
      category,
      fixable: false,
      message: truncate(root === undefined ? text.trim() : relativisePathsIn(text.trim(), root), MAX_MESSAGE),
      reason: root === undefined ? why : relativisePathsIn(why, root),
      fingerprint: '',
      ...(module ? { module } : {}),
    };
    d.fingerprint = diagnosticFingerprint(d);
    return d;
  }
}
