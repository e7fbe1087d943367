/**
 * No import circle in src/: `mvnx/layers` keeps the top-level folders one-way, and this
 * holds every file to it, inside a folder too (scripts/import-graph.mjs). A circle is
 * broken by moving what both sides need into the lower module or a small one of its own.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCircles, findImportCircles, importGraph } from '../../scripts/import-graph.mjs';

const src = path.resolve(import.meta.dirname, '../../src');
const fixture = path.resolve(import.meta.dirname, '../fixtures/import-circles');

describe('import circles', () => {
  it('src/ has none', () => {
    const circles = findImportCircles(src);
    expect(circles, `import circles in src/:\n${describeCircles(circles)}`).toEqual([]);
  });

  it('finds a circle round three files, through import type, export from and import()', () => {
    expect(findImportCircles(fixture)).toEqual([['circle-a.ts', 'circle-b.ts', 'circle-c.ts']]);
  });

  it('reads imports, not comments: a file named in a comment is not imported', () => {
    const graph = importGraph(fixture);
    expect(graph.get('circle-a.ts')).toEqual(['circle-b.ts']);
    expect(graph.get('circle-leaf.ts')).toEqual(['circle-a.ts']);
  });

  it('follows imports across folders of src/ (`../x.js` is `x.ts`)', () => {
    const graph = importGraph(src);
    expect(graph.get('plugins/check.ts')).toContain('plugins/contracts.ts');
    expect(graph.get('plugins/contracts.ts')).toContain('diagnose/types.ts');
  });
});
