/**
 * Every relative link a user of the installed package follows resolves inside it (issue 48):
 * the links of the README and of the shipped docs, the paths `--help` and the subcommands'
 * help name, and the ones `mvnx init` writes into the starter config. The package's file
 * list is npm's own (`npm pack --dry-run --json`), so `files` in package.json is what is
 * checked; it needs dist/ built, as every integration test does.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { starterConfig } from '../../src/cli/commands/init.js';
import { cliPath, repoRoot } from '../helpers/repair-project.js';

let packed: Set<string>;

beforeAll(async () => {
  const { stdout } = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot });
  const [entry] = JSON.parse(stdout) as { files: { path: string }[] }[];
  packed = new Set(entry!.files.map((file) => file.path));
}, 60_000);

const MARKDOWN_LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;
const isRelative = (target: string) => !/^(?:[a-z][a-z+.-]*:|#)/i.test(target);

/** The package-relative file a link in `fromFile` names, anchor dropped. */
function resolved(fromFile: string, target: string): string {
  const file = target.split('#')[0]!;
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), decodeURI(file)));
}

/** Links that lead nowhere in the package, as "file -> target". */
async function brokenLinksOf(file: string): Promise<string[]> {
  const text = await readFile(path.join(repoRoot, file), 'utf8');
  const links = [...text.matchAll(MARKDOWN_LINK)].map((m) => m[1]!).filter(isRelative);
  // Paths in code spans a reader is sent to ("see `docs/ARCHITECTURE.md`"), from the package root.
  const spans = [...text.matchAll(/`((?:docs|bench)\/[\w./-]+\.md)`/g)].map((m) => m[1]!);
  return [
    ...links.filter((target) => !packed.has(resolved(file, target))),
    ...spans.filter((target) => !packed.has(target)),
  ].map((target) => `${file} -> ${target}`);
}

/** The `docs/...` and `bench/...` files a piece of console text names, package-relative. */
const namedFiles = (text: string) => [...text.matchAll(/\b((?:docs|bench)\/[\w./-]+\.md)\b/g)].map((m) => m[1]!);

describe('links reachable from the installed package (issue 48)', () => {
  it('ships the README, the docs and the bench results the docs link to', () => {
    expect(packed.has('README.md')).toBe(true);
    expect(packed.has('docs/usage.md')).toBe(true);
    expect(packed.has('bench/results-scripted.md')).toBe(true);
    expect(packed.has('schema.json')).toBe(true);
  });

  it('every relative link of the README and of every shipped document resolves inside the package', async () => {
    const documents = [...packed].filter((file) => file.endsWith('.md') && !file.startsWith('bench/cases/'));
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/config.md']));
    const broken = (await Promise.all(documents.map(brokenLinksOf))).flat();
    expect(broken).toEqual([]);
  });

  it("every file --help and the subcommands' help name is in the package", async () => {
    const commands = [
      [],
      ...['init', 'doctor', 'apply', 'runs', 'hook', 'bench', 'explain', 'diagnose', 'tool'].map((c) => [c]),
    ];
    const named: string[] = [];
    for (const command of commands) {
      const run = await execa('node', [cliPath, ...command, '--help'], { reject: false, env: { CI: 'true' } });
      named.push(...namedFiles(`${run.stdout}\n${run.stderr}`));
    }
    expect(named).toEqual(expect.arrayContaining(['docs/tools.md', 'docs/rollout.md']));
    expect(named.filter((file) => !packed.has(file))).toEqual([]);
  });

  it('the starter config of mvnx init names a shipped document and the schema the README recommends', async () => {
    const starter = starterConfig('assist');
    const named = namedFiles(starter).filter((file) => file !== 'docs/coding-guidelines.md'); // the team's own file
    expect(named).toContain('docs/config.md');
    expect(named.filter((file) => !packed.has(file))).toEqual([]);

    const schema = /\$schema=(\S+)/.exec(starter)?.[1];
    const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain(`# yaml-language-server: $schema=${schema}`);
    expect(schema).toBe('./node_modules/mvnx/schema.json');
  });
});
