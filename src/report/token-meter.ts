/**
 * What the model has written so far in one call, and how fast: the live line of the
 * progress display (issue 42). Counts with mvnx's own token estimate; the rate runs from
 * the first token, so a long prompt's evaluation does not drag it down.
 */
import { estimateTokens } from '../model/context-window.js';

export class TokenMeter {
  private count = 0;
  private firstAt: number | undefined;
  private lastAt: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  add(text: string): void {
    const at = this.now();
    this.firstAt ??= at;
    this.lastAt = at;
    this.count += estimateTokens(text);
  }

  get tokens(): number {
    return this.count;
  }

  /** Tokens per second since the first token; undefined until a second has passed. */
  rate(): number | undefined {
    if (this.firstAt === undefined || this.lastAt === undefined) return undefined;
    const seconds = (this.lastAt - this.firstAt) / 1000;
    return seconds >= 1 ? this.count / seconds : undefined;
  }

  /** `142 tokens, 9.3 tokens/s` */
  describe(): string {
    const rate = this.rate();
    return `${this.count} tokens${rate === undefined ? '' : `, ${rate.toFixed(1)} tokens/s`}`;
  }
}
