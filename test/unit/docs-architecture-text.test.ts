/**
 * docs/ARCHITECTURE.md reads in a terminal and a diff (issue 48: table cells of up to
 * 2,000 characters on one line): no line is longer than a wrapped paragraph allows.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('docs/ARCHITECTURE.md', () => {
  it('has no line over 140 characters and no "While Then" slip', async () => {
    const text = await readFile(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
    const long = text
      .split('\n')
      .map((line, i) => ({ line: i + 1, length: line.length }))
      .filter((entry) => entry.length > 140);
    expect(long).toEqual([]);
    expect(text).not.toMatch(/\bWhile\s+Then\b/);
  });
});
