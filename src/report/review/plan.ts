/** What a platform client posts: the same plan for GitHub and GitLab, made from the run. */
import { createHash } from 'node:crypto';
import type { Suggestion } from './suggestions.js';

export interface ReviewPlan {
  runId: string;
  /** The run record's folder in the job's artifacts, relative to the repository root. */
  recordPath: string;
  /** Candidate suggestions, before checking where the diff allows them. */
  suggestions: Suggestion[];
  /**
   * The fixed files as the fix found them: a suggestion's lines are valid only where the pull request head has the same
   * text.
   */
  before: Map<string, string>;
  /** The whole verified patch (unified diff). */
  fixDiff: string;
  /** Files the fix creates, deletes, renames or changes as binary: never a line suggestion. */
  wholeFiles: string[];
  why: string;
  /** Set when the run has no verified fix: only an earlier mvnx review is updated, none is created. */
  noFixReason?: string;
}

export interface PostResult {
  /** One line for the console and the run record. */
  message: string;
  url?: string;
}

/** git's blob id of a text: what GitHub returns as a pull request file's `sha`. */
export function gitBlobSha(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A fetch that gives up after `ms`, so a hung API never holds the build's exit. */
export function fetchWithTimeout(ms: number, base: typeof fetch = fetch): typeof fetch {
  return (input, init) => base(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(ms) });
}
