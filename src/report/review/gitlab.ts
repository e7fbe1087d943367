/**
 * GitLab: one merge request thread for the summary and one diff thread per suggestion
 * (POST /projects/:id/merge_requests/:iid/discussions with a `position`), each note
 * carrying a ```suggestion:-N+0 block. The REST API is used directly with fetch: the
 * calls are few and plain JSON, and no maintained client runs on Node 20 without pulling
 * in more than these calls need. The next run finds its notes by their hidden markers.
 */
import type { GitlabTarget } from './context.js';
import { fetchWithTimeout, type PostResult, type ReviewPlan } from './plan.js';
import {
  fitsDiff,
  noFixBody,
  readDiffLines,
  reviewBody,
  REVIEW_MARKER,
  SUGGESTION_MARKER,
  suggestionBody,
  type DiffLines,
  type Suggestion,
} from './suggestions.js';

interface Note {
  id: number;
  body: string;
  position?: { new_path?: string; new_line?: number | null } | null;
}
interface Discussion {
  id: string;
  notes: Note[];
}
interface MergeRequest {
  web_url?: string;
  diff_refs?: { base_sha: string; head_sha: string; start_sha: string };
}
interface MergeRequestDiff {
  old_path: string;
  new_path: string;
  diff: string;
}

export class GitlabApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function client(target: GitlabTarget, timeoutMs: number) {
  const request = fetchWithTimeout(timeoutMs);
  const project = `${target.apiUrl}/projects/${encodeURIComponent(target.projectId)}`;
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const response = await request(`${project}${path}`, {
      method,
      headers: {
        'PRIVATE-TOKEN': target.token,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const detail = /"(?:message|error)"\s*:\s*"?([^"}]*)/.exec(text)?.[1] ?? response.statusText;
      throw new GitlabApiError(
        response.status,
        `GitLab answered ${response.status} to ${method} ${path.split('?')[0]}: ${detail}`,
      );
    }
    return response;
  };
  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    (await (await call(method, path, body)).json()) as T;
  /** Every page of a list (GitLab says where the next page is in x-next-page). */
  const all = async <T>(path: string): Promise<T[]> => {
    const items: T[] = [];
    for (let page = '1'; page;) {
      const response = await call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
      items.push(...((await response.json()) as T[]));
      page = response.headers.get('x-next-page') ?? '';
    }
    return items;
  };
  return { call, json, all };
}

export async function postGitlabSuggestions(
  target: GitlabTarget,
  plan: ReviewPlan,
  options: { timeoutMs?: number } = {},
): Promise<PostResult> {
  const api = client(target, options.timeoutMs ?? 20_000);
  const mr = `/merge_requests/${target.mergeRequestIid}`;
  const discussions = await api.all<Discussion>(`${mr}/discussions`);
  const mine = (marker: string) =>
    discussions.flatMap((discussion) =>
      discussion.notes.filter((note) => note.body.includes(marker)).map((note) => ({ discussion, note })),
    );
  const summary = mine(REVIEW_MARKER)[0];
  const lineNotes = mine(SUGGESTION_MARKER);
  const runLink = target.jobUrl ? `${target.jobUrl}/artifacts/file/${plan.recordPath}/run.json` : undefined;
  const removeNote = (entry: { discussion: Discussion; note: Note }) =>
    api.call('DELETE', `${mr}/discussions/${entry.discussion.id}/notes/${entry.note.id}`);

  if (plan.noFixReason !== undefined) {
    if (!summary) return { message: 'no verified fix and no earlier mvnx thread: nothing posted' };
    await api.call('PUT', `${mr}/discussions/${summary.discussion.id}/notes/${summary.note.id}`, {
      body: noFixBody(plan.runId, plan.noFixReason, runLink),
    });
    for (const entry of lineNotes) await removeNote(entry);
    return {
      message: `updated the mvnx thread on merge request !${target.mergeRequestIid}: no verified fix this time`,
    };
  }

  const request = await api.json<MergeRequest>('GET', mr);
  const refs = request.diff_refs;
  if (!refs)
    throw new GitlabApiError(
      0,
      `merge request !${target.mergeRequestIid} has no diff_refs yet (its diff is still being prepared)`,
    );
  const changes = await api.all<MergeRequestDiff>(`${mr}/diffs`);
  const diffs = new Map<string, { lines: DiffLines; oldPath: string }>();
  const notInline = new Set<string>(plan.wholeFiles.map((file) => `${file}: created, deleted or renamed`));
  for (const path of new Set(plan.suggestions.map((suggestion) => suggestion.path))) {
    const change = changes.find((candidate) => candidate.new_path === path);
    if (!change) {
      notInline.add(`${path}: not changed by this merge request`);
      continue;
    }
    // Line numbers hold only where the merge request head has the very text the fix was made against.
    const raw = await api
      .call('GET', `/repository/files/${encodeURIComponent(path)}/raw?ref=${encodeURIComponent(refs.head_sha)}`)
      .then((response) => response.text())
      .catch(() => undefined);
    if (raw !== plan.before.get(path)) notInline.add(`${path}: the merge request head differs from the built file`);
    else diffs.set(path, { lines: readDiffLines(change.diff), oldPath: change.old_path });
  }
  const inline = plan.suggestions.filter((suggestion) => fitsDiff(suggestion, diffs.get(suggestion.path)?.lines));
  for (const suggestion of plan.suggestions) {
    if (diffs.has(suggestion.path) && !inline.includes(suggestion))
      notInline.add(`${suggestion.path}:${suggestion.startLine}: outside the merge request's diff`);
  }

  const body = reviewBody({
    why: plan.why,
    diff: plan.fixDiff,
    notInline: [...notInline],
    inline: inline.length,
    ...(runLink ? { runLink } : {}),
  });
  if (summary) await api.call('PUT', `${mr}/discussions/${summary.discussion.id}/notes/${summary.note.id}`, { body });
  else await api.call('POST', `${mr}/discussions`, { body });

  const note = `Verified by mvnx run ${plan.runId}.`;
  const kept = new Set<number>();
  for (const suggestion of inline) {
    const text = suggestionBody(suggestion, 'gitlab', note);
    // A GitLab suggestion sits on the range's last line and reaches N lines up.
    const same = lineNotes.find(
      (entry) =>
        !kept.has(entry.note.id) &&
        entry.note.position?.new_path === suggestion.path &&
        entry.note.position.new_line === suggestion.endLine &&
        entry.note.body.includes(`suggestion:-${suggestion.endLine - suggestion.startLine}+0`),
    );
    if (same) {
      kept.add(same.note.id);
      if (same.note.body !== text)
        await api.call('PUT', `${mr}/discussions/${same.discussion.id}/notes/${same.note.id}`, { body: text });
      continue;
    }
    await api.call('POST', `${mr}/discussions`, {
      body: text,
      position: positionOf(suggestion, diffs.get(suggestion.path)!, refs),
    });
  }
  for (const entry of lineNotes) if (!kept.has(entry.note.id)) await removeNote(entry);
  return {
    message: `${summary ? 'updated' : 'posted'} ${inline.length} suggestion(s) on merge request !${target.mergeRequestIid}`,
    ...(request.web_url ? { url: request.web_url } : {}),
  };
}

/** An added line is named by new_line only; an unchanged line by both old_line and new_line. */
function positionOf(
  suggestion: Suggestion,
  diff: { lines: DiffLines; oldPath: string },
  refs: NonNullable<MergeRequest['diff_refs']>,
) {
  const oldLine = diff.lines.oldOf.get(suggestion.endLine);
  return {
    position_type: 'text',
    base_sha: refs.base_sha,
    start_sha: refs.start_sha,
    head_sha: refs.head_sha,
    old_path: diff.oldPath,
    new_path: suggestion.path,
    new_line: suggestion.endLine,
    // Stryker disable next-line ConditionalExpression: an old_line of undefined is left out of the JSON body, the same
    // as no field
    ...(oldLine !== undefined ? { old_line: oldLine } : {}),
  };
}
