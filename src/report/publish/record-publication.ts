/**
 * A run record's `publication` and `publications` after a request was opened or updated: the newest request is the
 * publication, every request is named once in `publications`, and entries of a fix put on a bot's branch stay.
 */
import type { RunRecord } from '../run-record.js';

type PublicationEntry = NonNullable<RunRecord['publications']>[number];

/** The record with this request as its publication, and named in `publications` (every request mvnx opened). */
export function recordPublication(
  record: RunRecord,
  publication: NonNullable<RunRecord['publication']>,
): Pick<RunRecord, 'publication' | 'publications'> {
  // A request is named once (by forge and number); a fix put on a bot's branch (target) is kept as it is.
  const sameRequest = (a: PublicationEntry, b: PublicationEntry) =>
    !('target' in a) && !('target' in b) && a.forge === b.forge && a.number === b.number;
  const known = [...(record.publications ?? []), ...(record.publication ? [record.publication] : [])];
  const earlier: PublicationEntry[] = [];
  for (const one of known)
    if (!sameRequest(one, publication) && !earlier.some((e) => sameRequest(e, one) || e === one)) earlier.push(one);
  return { publication, publications: [...earlier, publication] };
}
