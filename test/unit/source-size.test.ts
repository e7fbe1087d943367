import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ESLint, Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The limits live in eslint.config.js (`max-lines`), so `npm run lint` and an editor show
// them; this file proves the configured rule fails on an oversize file, and checks src/
// itself as part of `npm test`.

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });
const linter = new Linter({ configType: 'flat' });

/** The `max-lines` setting the project's ESLint config gives this file (a path under root). */
async function maxLinesSetting(file: string): Promise<Linter.RuleEntry | undefined> {
  const config = (await eslint.calculateConfigForFile(path.join(root, file))) as Linter.Config;
  return config.rules?.['max-lines'];
}

/**
 * The messages of that setting alone, on this text, as if it were that file. The rule only
 * counts lines, so the texts here are plain JavaScript and need no TypeScript parser.
 */
async function lengthMessages(file: string, text: string): Promise<Linter.LintMessage[]> {
  const setting = await maxLinesSetting(file);
  if (setting === undefined) throw new Error(`eslint.config.js sets no max-lines for ${file}`);
  return linter.verify(text, [{ files: ['**/*.ts'], rules: { 'max-lines': setting } }], path.join(root, file));
}

/** The configured maximum (the rule's `max` option). */
async function maxLinesOf(file: string): Promise<number> {
  const setting = await maxLinesSetting(file);
  const options = Array.isArray(setting) ? (setting[1] as { max?: number } | undefined) : undefined;
  if (options?.max === undefined) throw new Error(`eslint.config.js sets no max-lines maximum for ${file}`);
  return options.max;
}

/** Lines as ESLint's max-lines counts them (and `wc -l`): a final newline ends the last line, it does not start one. */
const lineCount = (text: string) =>
  text.split(/\r\n|[\r\n\u2028\u2029]/).length - (/[\r\n\u2028\u2029]$/.test(text) ? 1 : 0);

/** `lines` lines of code, each ending in a newline, as `wc -l` counts them. */
const fileOf = (lines: number) => Array.from({ length: lines }, (_, i) => `export const v${i} = ${i};\n`).join('');

/** The .ts files under `tree`/src that break the limit the project's config sets for the same path. */
async function oversizeFiles(tree: string): Promise<string[]> {
  const entries = await readdir(path.join(tree, 'src'), { withFileTypes: true, recursive: true });
  const over: string[] = [];
  for (const entry of entries.filter((e) => e.isFile() && e.name.endsWith('.ts'))) {
    const file = path.relative(tree, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    const lines = lineCount(await readFile(path.join(tree, file), 'utf8'));
    const max = await maxLinesOf(file);
    if (lines > max) over.push(`${file}: ${lines} lines, at most ${max}`);
  }
  return over.sort();
}

describe('source file length', () => {
  // Loading eslint.config.js (typescript-eslint) is the slow part; once, ahead of the tests.
  beforeAll(async () => {
    await maxLinesSetting('src/repair/loop/repair-loop.ts');
  }, 120_000);

  it('refuses a file of 401 lines anywhere under src/, and accepts 400', async () => {
    for (const file of ['src/bench/new-module.ts', 'src/repair/agent/new-tool.ts', 'src/shared/errors.ts']) {
      const over = await lengthMessages(file, fileOf(401));
      expect(over.map((m) => m.ruleId)).toEqual(['max-lines']);
      expect(over[0]!.message).toContain('Maximum allowed is 400');
      expect(await lengthMessages(file, fileOf(400))).toEqual([]);
    }
  });

  it('refuses src/repair/loop/repair-loop.ts at 300 lines, and accepts 299', async () => {
    const over = await lengthMessages('src/repair/loop/repair-loop.ts', fileOf(300));
    expect(over.map((m) => m.ruleId)).toEqual(['max-lines']);
    expect(over[0]!.message).toContain('Maximum allowed is 299');
    expect(await lengthMessages('src/repair/loop/repair-loop.ts', fileOf(299))).toEqual([]);
  });

  it('counts blank and comment lines too, as wc -l does', async () => {
    const padded = fileOf(200) + '\n'.repeat(100) + '// why\n'.repeat(100) + 'export const last = 1;\n';
    expect(await lengthMessages('src/bench/new-module.ts', padded)).toHaveLength(1);
  });

  it('counts lines the way the rule does', async () => {
    for (const text of [fileOf(400), fileOf(400).trimEnd(), fileOf(399) + '\n', fileOf(401)]) {
      expect((await lengthMessages('src/bench/new-module.ts', text)).length > 0).toBe(lineCount(text) > 400);
    }
    expect(lineCount(fileOf(400))).toBe(400);
  });

  it('finds the oversize files of a tree, and only those', async () => {
    const tree = await mkdtemp(path.join(os.tmpdir(), 'mvnx-size-'));
    try {
      const files: Record<string, number> = {
        'src/bench/big.ts': 401,
        'src/bench/fits.ts': 400,
        'src/repair/loop/repair-loop.ts': 300,
        'src/app/repair-session.ts': 300,
      };
      for (const [file, lines] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(tree, file)), { recursive: true });
        await writeFile(path.join(tree, file), fileOf(lines));
      }
      expect(await oversizeFiles(tree)).toEqual([
        'src/bench/big.ts: 401 lines, at most 400',
        'src/repair/loop/repair-loop.ts: 300 lines, at most 299',
      ]);
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });

  it('holds for every .ts file under src/ as it is', async () => {
    expect(await oversizeFiles(root)).toEqual([]);
  });
});
