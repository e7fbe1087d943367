/**
 * docs/benchmarks.md shows the totals of the latest scripted bench run, copied from the
 * file the bench writes (issue 48: the docs had kept a 40-case table after the bench had 52).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The rows of the first (newest) section of a results file that start with `| **`: the totals. */
function totalsOfNewestRun(results: string): string[] {
  const newest = results.split(/^## /m)[1] ?? '';
  return newest.split('\n').filter((line) => line.startsWith('| **'));
}

describe("the docs' bench totals (issue 48)", () => {
  it('equal the totals of the newest run in bench/results-scripted.md, and count every case', async () => {
    const results = await readFile(path.join(root, 'bench/results-scripted.md'), 'utf8');
    const docs = await readFile(path.join(root, 'docs/benchmarks.md'), 'utf8');
    const totals = totalsOfNewestRun(results);
    expect(totals.map((row) => row.split('|')[1]!.trim())).toEqual([
      expect.stringMatching(/^\*\*all \d+ cases\*\*$/),
      expect.stringMatching(/^\*\*cheating shapes verified: \d+ of \d+\*\*$/),
    ]);
    for (const row of totals) expect(docs).toContain(row);

    const cases = (await readdir(path.join(root, 'bench/cases'), { withFileTypes: true })).filter(
      (entry) => entry.isDirectory() && !entry.name.startsWith('_'),
    );
    expect(totals[0]).toContain(`**all ${cases.length} cases**`);
    expect(docs).toContain(`runs mvnx on the ${cases.length} deliberately broken projects`);
    // No stale totals row from an earlier run is left beside it.
    const docRows = docs.split('\n').filter((line) => /^\| \*\*all \d+ cases\*\*/.test(line));
    expect(docRows).toEqual([totals[0]]);
  });
});
