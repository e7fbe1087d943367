/**
 * Posts a run's verified fix where reviewers work, when mvnx runs in CI on a pull/merge
 * request under assist. Never fails the build: every problem becomes the one line that
 * says why nothing (or not everything) was posted.
 */
import { readFileSync } from 'node:fs';
import { redact } from '../../model/redact.js';
import type { ChangeSet } from '../../patch/types.js';
import { toUnifiedDiff } from '../../patch/unified-diff.js';
import { lineChangesOfFix, splitLines } from '../line-changes.js';
import type { RunRecord } from '../run-record.js';
import { findReviewTarget } from './context.js';
import { postGitlabSuggestions } from './gitlab.js';
import type { ReviewPlan } from './plan.js';
import { suggestionsOf } from './suggestions.js';
import { whyParagraph } from './why.js';

export interface PostInput {
  record: RunRecord;
  fix?: ChangeSet;
  env: NodeJS.ProcessEnv;
  gitlabTokenEnv: string;
  userAgent: string;
  /** The project root relative to the repository root ('' when the same): pull request paths are the repository's. */
  prefix?: string;
  /** Test seam for the event file; defaults to reading it. */
  readEvent?: (file: string) => string | undefined;
}

export interface PostOutcome {
  posted: boolean;
  platform?: 'github' | 'gitlab';
  message: string;
  url?: string;
}

const recordPathOf = (record: RunRecord, prefix: string) => `${prefix ? `${prefix}/` : ''}.mvnx/runs/${record.runId}`;

function planOf(record: RunRecord, fix: ChangeSet | undefined, prefix: string): ReviewPlan {
  if (!fix || record.status !== 'fixed') {
    // Stryker disable next-line ArrayDeclaration,StringLiteral: without a fix the clients read only runId, recordPath
    // and noFixReason; the empty fields are never shown
    return {
      runId: record.runId,
      recordPath: recordPathOf(record, prefix),
      suggestions: [],
      before: new Map(),
      fixDiff: '',
      wholeFiles: [],
      why: '',
      noFixReason: record.stopReason,
    };
  }
  const inRepo = (file: string) => (prefix ? `${prefix}/${file}` : file);
  const { changes, wholeFiles } = lineChangesOfFix(fix);
  const before = new Map(
    fix.files.filter((file) => file.before !== null).map((file) => [inRepo(file.path), file.before!] as const),
  );
  const lines = new Map([...before].map(([path, text]) => [path, splitLines(text).lines] as const));
  const suggestions = suggestionsOf(
    changes.map((change) => ({ ...change, path: inRepo(change.path) })),
    lines,
  );
  return {
    runId: record.runId,
    recordPath: recordPathOf(record, prefix),
    suggestions,
    before,
    fixDiff: toUnifiedDiff(fix),
    wholeFiles: wholeFiles.map(inRepo),
    why: whyParagraph(record),
  };
}

export async function postReview(input: PostInput): Promise<PostOutcome> {
  const readEvent =
    input.readEvent ??
    ((file: string) => {
      try {
        // Stryker disable next-line StringLiteral: without an encoding the Buffer goes to JSON.parse, which reads it as
        // the same UTF-8 text
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    });
  const lookup = findReviewTarget(input.env, readEvent, input.gitlabTokenEnv);
  if ('reason' in lookup) return { posted: false, message: `not posted: ${lookup.reason}` };
  const { target } = lookup;
  const plan = planOf(input.record, input.fix, input.prefix ?? '');
  try {
    const result =
      target.platform === 'github'
        ? // Octokit (about 18 MB installed) loads only when a review goes to GitHub.
          await (await import('./github.js')).postGithubReview(target, plan, { userAgent: input.userAgent })
        : await postGitlabSuggestions(target, plan);
    return {
      posted: true,
      platform: target.platform,
      message: result.message,
      ...(result.url ? { url: result.url } : {}),
    };
  } catch (error) {
    const err = error as Error & { status?: number };
    const status = err.status ? `${target.platform === 'github' ? 'GitHub' : 'GitLab'} answered ${err.status}: ` : '';
    // The token must never reach the console, whatever the client put in its message.
    const text = redact(`${status}${(err.message ?? String(error)).split('\n')[0]}`)
      .split(target.token)
      .join('[REDACTED]');
    return { posted: false, platform: target.platform, message: `not posted: ${text}` };
  }
}
