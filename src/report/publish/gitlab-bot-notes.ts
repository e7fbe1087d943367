/**
 * The one note mvnx keeps on a dependency bot's merge request (GitLab), as bot-comment.ts does on GitHub: found again
 * by its marker and edited, never posted twice. GitLab REST (docs.gitlab.com/api/notes): GET
 * /projects/:id/merge_requests/:iid/notes (paged, per_page at most 100), POST .../notes {body}, PUT
 * .../notes/:note_id {body}; the merge request by GET .../merge_requests/:iid, or by its source branch.
 */
import { BOT_COMMENT_MARKER, type BotComments } from './bot-comment.js';
import type { ForgeTarget } from './forge.js';
import { gitlabProjectApi } from './gitlab-requests.js';
import type { RateLimitOptions } from './rate-limit.js';

interface MergeRequestPage {
  iid: number;
  web_url: string;
}

interface Note {
  id: number;
  body?: string;
  system?: boolean;
}

const PER_PAGE = 100;
/** 2,000 notes: a merge request with more is not looked through further (a second note would then be posted). */
const MAX_PAGES = 20;

export function gitlabBotNotes(
  target: ForgeTarget,
  options: { timeoutMs?: number; rateLimit?: RateLimitOptions } = {},
): BotComments {
  const call = gitlabProjectApi(target, options);
  const notes = (iid: number) => `/merge_requests/${iid}/notes`;
  return {
    async pull(bot) {
      if (bot.number) {
        const found = await call<MergeRequestPage>('GET', `/merge_requests/${bot.number}`);
        return { number: found.iid, url: found.web_url };
      }
      const open = await call<MergeRequestPage[]>(
        'GET',
        `/merge_requests?state=opened&source_branch=${encodeURIComponent(bot.branch)}`,
      );
      return open[0] ? { number: open[0].iid, url: open[0].web_url } : undefined;
    },
    async upsert(iid, body) {
      let mine: Note | undefined;
      for (let page = 1; page <= MAX_PAGES && !mine; page += 1) {
        const found = await call<Note[]>(
          'GET',
          `${notes(iid)}?sort=asc&order_by=created_at&per_page=${PER_PAGE}&page=${page}`,
        );
        mine = found.find((note) => !note.system && note.body?.includes(BOT_COMMENT_MARKER));
        if (found.length < PER_PAGE) break;
      }
      if (mine) {
        await call('PUT', `${notes(iid)}/${mine.id}`, { body });
        return 'updated';
      }
      await call('POST', notes(iid), { body });
      return 'posted';
    },
  };
}
