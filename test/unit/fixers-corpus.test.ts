import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSourceView } from '../../src/codebase/index.js';
import { createDefaultFixerRegistry } from '../../src/repair/fixers/index.js';
import { loadFixture, MECHANICAL_FIXTURES, OTHER_FIXTURES, readExpected } from './fixers-support.js';

let cacheDir: string;
beforeAll(async () => {
  cacheDir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-fixers-cache-'));
});
afterAll(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

describe('fixers on the real javac output of the fixture corpus', () => {
  it.each(MECHANICAL_FIXTURES)(
    '$name: $fixer proposes exactly the expected fix first',
    async ({ name, fixer, files }) => {
      const fixture = await loadFixture(name);
      expect(fixture.diagnostics.length).toBeGreaterThan(0);
      const candidates = await createDefaultFixerRegistry().propose(
        fixture.diagnostics,
        createSourceView(fixture.root),
        { cacheDir },
      );
      const [best] = candidates;
      expect(best?.fixer).toBe(fixer);
      expect(best?.changeSet.files.map((file) => file.path)).toEqual(files);
      for (const change of best!.changeSet.files) {
        expect(change.before).toBe(await readFile(path.join(fixture.root, change.path), 'utf8'));
        expect(change.after).toBe(await readExpected(name, change.path));
      }
      expect(best!.confidence).toBeGreaterThanOrEqual(0.5);
      expect(best!.reason).not.toBe('');
    },
  );

  it.each(OTHER_FIXTURES)('%s: no fixer proposes anything', async (name) => {
    const fixture = await loadFixture(name);
    expect(fixture.diagnostics.length).toBeGreaterThan(0);
    const candidates = await createDefaultFixerRegistry().propose(fixture.diagnostics, createSourceView(fixture.root), {
      cacheDir,
    });
    expect(candidates).toEqual([]);
  });

  it('offers the runner-up class as a lower-confidence alternative when a name is ambiguous', async () => {
    const fixture = await loadFixture('import-jdk-ambiguous');
    const candidates = await createDefaultFixerRegistry().propose(fixture.diagnostics, createSourceView(fixture.root), {
      cacheDir,
    });
    const imports = candidates.map((c) => /import (java\.\w+\.List);/.exec(c.changeSet.files[0]!.after!)?.[1]);
    expect(imports).toEqual(['java.util.List', 'java.awt.List']);
    expect(candidates[0]!.confidence).toBeGreaterThan(candidates[1]!.confidence);
  });

  it('keeps CRLF line endings when it inserts an import', async () => {
    const fixture = await loadFixture('import-sorted-crlf');
    const [best] = await createDefaultFixerRegistry().propose(fixture.diagnostics, createSourceView(fixture.root), {
      cacheDir,
    });
    expect(best!.changeSet.files[0]!.after).toContain('import java.util.HashMap;\r\nimport java.util.List;\r\n');
    expect(best!.changeSet.files[0]!.after!.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('proposes one wrong-package change although two diagnostics point at the file', async () => {
    const fixture = await loadFixture('wrong-package');
    const candidates = await createDefaultFixerRegistry().propose(fixture.diagnostics, createSourceView(fixture.root), {
      cacheDir,
    });
    expect(candidates.filter((c) => c.fixer === 'wrong-package')).toHaveLength(1);
  });
});
