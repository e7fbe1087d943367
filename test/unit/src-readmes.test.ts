import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every folder of src/ says what it promises in a README.md (src/patch/README.md is the
// model), docs/ARCHITECTURE.md links each one, and the tests a README names as holding its
// invariants exist, so a new folder gets a README and a renamed test is not left cited.

const root = path.resolve(import.meta.dirname, '../..');

/** Folders under `tree`/src (not src itself), project-relative with forward slashes. */
async function srcFolders(tree: string): Promise<string[]> {
  const entries = await readdir(path.join(tree, 'src'), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => path.relative(tree, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

async function foldersWithoutReadme(tree: string): Promise<string[]> {
  return (await srcFolders(tree)).filter((folder) => !existsSync(path.join(tree, folder, 'README.md')));
}

/** READMEs of src/ that docs/ARCHITECTURE.md does not link (a link ends in `<folder>/README.md`). */
async function readmesNotLinked(tree: string): Promise<string[]> {
  const architecture = await readFile(path.join(tree, 'docs', 'ARCHITECTURE.md'), 'utf8');
  const linked = new Set([...architecture.matchAll(/\]\((?:\.\.\/)?(src\/[\w/-]+\/README\.md)\)/g)].map((m) => m[1]));
  return (await srcFolders(tree))
    .map((folder) => `${folder}/README.md`)
    .filter((readme) => existsSync(path.join(tree, readme)) && !linked.has(readme));
}

/** Test files a README under src/ names (`test/unit/x.test.ts`) that do not exist. */
async function citedTestsMissing(tree: string): Promise<string[]> {
  const missing: string[] = [];
  for (const folder of await srcFolders(tree)) {
    const readme = path.join(tree, folder, 'README.md');
    if (!existsSync(readme)) continue;
    for (const [cited] of (await readFile(readme, 'utf8')).matchAll(/test\/(?:unit|integration)\/[\w.-]+\.test\.ts/g)) {
      if (!existsSync(path.join(tree, cited))) missing.push(`${folder}/README.md: ${cited}`);
    }
  }
  return missing;
}

describe('a README.md in every folder of src/', () => {
  it('finds a folder without one, a README not linked from docs/ARCHITECTURE.md, and a cited test that does not exist', async () => {
    const tree = await mkdtemp(path.join(os.tmpdir(), 'mvnx-readmes-'));
    try {
      for (const folder of ['src/stage', 'src/stage/inner', 'src/other', 'docs', 'test/unit'])
        await mkdir(path.join(tree, folder), { recursive: true });
      await writeFile(
        path.join(tree, 'src/stage/README.md'),
        'Shown by `test/unit/stage.test.ts` and `test/unit/gone.test.ts`.\n',
      );
      await writeFile(path.join(tree, 'src/other/README.md'), '# other\n');
      await writeFile(path.join(tree, 'test/unit/stage.test.ts'), '');
      await writeFile(path.join(tree, 'docs/ARCHITECTURE.md'), '[stage](../src/stage/README.md)\n');
      expect(await foldersWithoutReadme(tree)).toEqual(['src/stage/inner']);
      expect(await readmesNotLinked(tree)).toEqual(['src/other/README.md']);
      expect(await citedTestsMissing(tree)).toEqual(['src/stage/README.md: test/unit/gone.test.ts']);
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });

  it('holds for src/ as it is', async () => {
    expect(await srcFolders(root)).toContain('src/repair/integrity');
    expect(await foldersWithoutReadme(root)).toEqual([]);
    expect(await readmesNotLinked(root)).toEqual([]);
    expect(await citedTestsMissing(root)).toEqual([]);
  });
});
