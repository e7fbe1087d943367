/**
 * GitHub: a pull request review whose comments carry ```suggestion blocks on the changed
 * lines (POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews). The next run finds that
 * review by its hidden marker and updates it (PUT .../reviews/{id}), edits its line
 * comments in place, adds new ones and deletes the ones for lines the new fix no longer touches.
 */
import { newOctokit } from '../octokit.js';
import type { GithubTarget } from './context.js';
import { fetchWithTimeout, gitBlobSha, type PostResult, type ReviewPlan } from './plan.js';
import {
  fitsDiff,
  noFixBody,
  readDiffLines,
  reviewBody,
  samePlace,
  SUGGESTION_MARKER,
  REVIEW_MARKER,
  suggestionBody,
  type DiffLines,
  type Suggestion,
} from './suggestions.js';

interface ExistingComment {
  id: number;
  path: string;
  line: number | null;
  start_line?: number | null;
  body: string;
}

const placeOf = (comment: ExistingComment) => ({
  path: comment.path,
  startLine: comment.start_line ?? comment.line ?? 0,
  endLine: comment.line ?? 0,
});

function commentParams(suggestion: Suggestion, body: string) {
  return {
    path: suggestion.path,
    line: suggestion.endLine,
    side: 'RIGHT' as const,
    ...(suggestion.startLine < suggestion.endLine
      ? { start_line: suggestion.startLine, start_side: 'RIGHT' as const }
      : {}),
    body,
  };
}

export async function postGithubReview(
  target: GithubTarget,
  plan: ReviewPlan,
  options: { userAgent: string; timeoutMs?: number },
): Promise<PostResult> {
  const quiet = () => undefined;
  // Octokit logs failed requests itself; mvnx says it once, in its own line.
  const octokit = await newOctokit({
    auth: target.token,
    baseUrl: target.apiUrl,
    userAgent: options.userAgent,
    // Stryker disable next-line ObjectLiteral: Octokit's own log lines only go to the console; what is posted and
    // returned is the same
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    request: { fetch: fetchWithTimeout(options.timeoutMs ?? 20_000) },
  });
  const pull = { owner: target.owner, repo: target.repo, pull_number: target.pullNumber };

  const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, { ...pull, per_page: 100 });
  const existing = reviews.find((review) => review.body?.includes(REVIEW_MARKER));
  // Stryker disable next-line ArrayDeclaration: without an earlier review the comments list is read only on the update
  // path, which needs one
  const comments = existing
    ? (
        (await octokit.paginate(octokit.rest.pulls.listReviewComments, { ...pull, per_page: 100 })) as ExistingComment[]
      ).filter((comment) => comment.body.includes(SUGGESTION_MARKER))
    : [];

  if (plan.noFixReason !== undefined) {
    if (!existing) return { message: 'no verified fix and no earlier mvnx review: nothing posted' };
    await octokit.rest.pulls.updateReview({
      ...pull,
      review_id: existing.id,
      body: noFixBody(plan.runId, plan.noFixReason, target.runUrl),
    });
    for (const comment of comments)
      await octokit.rest.pulls.deleteReviewComment({ owner: target.owner, repo: target.repo, comment_id: comment.id });
    return {
      message: `updated the mvnx review on pull request #${target.pullNumber}: no verified fix this time`,
      url: existing.html_url,
    };
  }

  // Line numbers hold only where the pull request head has the very text the fix was made against.
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, { ...pull, per_page: 100 });
  const diffs = new Map<string, DiffLines | undefined>();
  const notInline = new Set<string>(plan.wholeFiles.map((file) => `${file}: created, deleted or renamed`));
  for (const path of new Set(plan.suggestions.map((suggestion) => suggestion.path))) {
    const file = files.find((candidate) => candidate.filename === path);
    if (!file) notInline.add(`${path}: not changed by this pull request`);
    else if (file.sha !== gitBlobSha(plan.before.get(path) ?? ''))
      notInline.add(`${path}: the pull request head differs from the built file`);
    else diffs.set(path, file.patch ? readDiffLines(file.patch) : undefined);
  }
  const inline = plan.suggestions.filter(
    (suggestion) => diffs.has(suggestion.path) && fitsDiff(suggestion, diffs.get(suggestion.path)),
  );
  for (const suggestion of plan.suggestions) {
    if (diffs.has(suggestion.path) && !inline.includes(suggestion))
      notInline.add(`${suggestion.path}:${suggestion.startLine}: outside the pull request's diff`);
  }
  const note = `Verified by mvnx run ${plan.runId}.`;
  const body = reviewBody({
    why: plan.why,
    diff: plan.fixDiff,
    notInline: [...notInline],
    inline: inline.length,
    ...(target.runUrl ? { runLink: `${target.runUrl} (artifact mvnx-runs, ${plan.recordPath}/run.json)` } : {}),
  });

  if (!existing) {
    const created = await octokit.rest.pulls.createReview({
      ...pull,
      commit_id: target.headSha,
      event: 'COMMENT',
      body,
      // Stryker disable next-line StringLiteral: suggestionBody tells only 'gitlab' apart, so any other platform name
      // gives GitHub's block
      comments: inline.map((suggestion) => commentParams(suggestion, suggestionBody(suggestion, 'github', note))),
    });
    return {
      message: `posted a review with ${inline.length} suggestion(s) on pull request #${target.pullNumber}`,
      url: created.data.html_url,
    };
  }

  await octokit.rest.pulls.updateReview({ ...pull, review_id: existing.id, body });
  const kept = new Set<number>();
  for (const suggestion of inline) {
    // Stryker disable next-line StringLiteral: suggestionBody tells only 'gitlab' apart, so any other platform name
    // gives GitHub's block
    const text = suggestionBody(suggestion, 'github', note);
    const same = comments.find((comment) => !kept.has(comment.id) && samePlace(placeOf(comment), suggestion));
    if (same) {
      kept.add(same.id);
      if (same.body !== text)
        await octokit.rest.pulls.updateReviewComment({
          owner: target.owner,
          repo: target.repo,
          comment_id: same.id,
          body: text,
        });
    } else {
      await octokit.rest.pulls.createReviewComment({
        ...pull,
        commit_id: target.headSha,
        ...commentParams(suggestion, text),
      });
    }
  }
  for (const comment of comments)
    if (!kept.has(comment.id))
      await octokit.rest.pulls.deleteReviewComment({ owner: target.owner, repo: target.repo, comment_id: comment.id });
  return {
    message: `updated the mvnx review on pull request #${target.pullNumber} (${inline.length} suggestion(s))`,
    url: existing.html_url,
  };
}
