/**
 * The "Build failure" section of a prompt when a bug fails many tests at once (a wrong
 * constant in jsoup's Printer fails 152): every failure in full came to about 46,000
 * tokens, five times a 7B model's window, and the call was refused. The first failures are
 * shown in full while they fit a share of the window; the next ones one line each, then a
 * count. Pure; the order is the diagnosis's, which the context gathering follows too.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { estimateTokens } from '../context-window.js';

/** Failures shown in full at most. */
export const MAX_FULL_FAILURES = 8;
/**
 * Failures whose code is gathered (repair/context/gather.ts): a later failure's pieces rank
 * below the first ones' and rarely fit the window, but each costs parses of the classes
 * its test uses (jsoup, 8 failures of Printer: 35 files parsed for 18,000 characters shown).
 */
export const MAX_CONTEXT_FAILURES = 3;
/** One-line failures listed after those, at most. */
const MAX_LISTED_FAILURES = 30;
/** The failure may take at most this share of the prompt's budget (the first one always shows). */
export const FAILURE_SHARE = 0.35;

export function failureSection(
  diagnostics: readonly Diagnostic[],
  render: (d: Diagnostic, index: number) => string,
  budgetTokens: number,
): string {
  const limit = Math.max(0, Math.floor(budgetTokens * FAILURE_SHARE));
  const blocks: string[] = [];
  let spent = 0;
  let shown = 0;
  for (const [index, diagnostic] of diagnostics.entries()) {
    if (shown >= MAX_FULL_FAILURES) break;
    const block = render(diagnostic, index);
    const cost = estimateTokens(block) + 1;
    if (shown > 0 && spent + cost > limit) break;
    blocks.push(block);
    spent += cost;
    shown++;
  }
  const listed: string[] = [];
  for (const [index, diagnostic] of diagnostics.entries()) {
    if (index < shown) continue;
    if (listed.length >= MAX_LISTED_FAILURES) break;
    const line = `${index + 1}. ${oneLine(diagnostic)}`;
    const cost = estimateTokens(line) + 1;
    if (spent + cost > limit) break;
    listed.push(line);
    spent += cost;
  }
  const rest = diagnostics.length - shown - listed.length;
  const parts = [blocks.join('\n\n')];
  if (listed.length > 0) parts.push(`More failures, one line each:\n${listed.join('\n')}`);
  if (rest > 0)
    parts.push(`... and ${rest} more ${rest === 1 ? 'failure' : 'failures'} not shown (${diagnostics.length} in all).`);
  return parts.join('\n\n');
}

function oneLine(diagnostic: Diagnostic): string {
  const what =
    diagnostic.kind === 'test'
      ? (diagnostic.test ?? diagnostic.testFailure?.className ?? 'a test')
      : [diagnostic.file, diagnostic.line].filter((p) => p !== undefined).join(':') || diagnostic.kind;
  const message = diagnostic.message.split('\n')[0]!.trim();
  return `${what}: ${message.length > 160 ? `${message.slice(0, 157)}...` : message}`;
}
