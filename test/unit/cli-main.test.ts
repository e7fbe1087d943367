import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { MvnxError } from '../../src/shared/errors.js';
import { loadCommand } from '../../src/cli/main.js';
import { MavenNotFoundError } from '../../src/maven/discover.js';
import { helpText } from '../../src/cli/commands/help.js';
import { packageVersion } from '../../src/cli/commands/version.js';
import { SUBCOMMANDS } from '../../src/cli/flags.js';
import { OPTIONS as FLAGS } from '../../src/shared/options.js';
import { tempDir } from '../helpers/temp-dir.js';

async function commandsDir(files: Record<string, string>): Promise<URL> {
  const dir = await tempDir('mvnx-commands-');
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return pathToFileURL(`${dir}/`);
}

describe('MvnxError across module copies', () => {
  it('recognises an MvnxError thrown by another copy of the module (the bundled bin and the unbundled loader)', async () => {
    vi.resetModules();
    const copy = (await import('../../src/shared/errors.js')) as typeof import('../../src/shared/errors.js');
    expect(copy.MvnxError).not.toBe(MvnxError);
    const foreign = new copy.MvnxError('bad config', 2);
    expect(foreign).toBeInstanceOf(MvnxError);
    expect(new MvnxError('x')).toBeInstanceOf(copy.MvnxError);
  });

  it('keeps ordinary instanceof for plain errors and for subclasses', () => {
    expect(new Error('x')).not.toBeInstanceOf(MvnxError);
    expect({ message: 'x', exitCode: 2 }).not.toBeInstanceOf(MvnxError);
    expect(new MavenNotFoundError('not found')).toBeInstanceOf(MvnxError);
    expect(new MvnxError('x')).not.toBeInstanceOf(MavenNotFoundError);
  });
});

describe('loadCommand', () => {
  it('loads a command module by name', async () => {
    const dir = await commandsDir({ 'hello.js': 'export async function run(args) { return args.length; }\n' });
    const command = await loadCommand('hello', dir);
    expect(await command.run(['a', 'b'], { cwd: '.', env: {} })).toBe(2);
  });

  it('reports a command missing from this build as one line, exit 2', async () => {
    const error = await loadCommand('bench', await commandsDir({})).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MvnxError);
    expect(error).toMatchObject({ exitCode: 2, message: 'mvnx bench is not available in this build' });
  });

  it('does not hide a command whose own import is broken', async () => {
    const dir = await commandsDir({
      'broken.js': "import './missing-helper.js';\nexport async function run() { return 0; }\n",
    });
    const error = await loadCommand('broken', dir).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(MvnxError);
    expect(String(error)).toContain('missing-helper.js');
  });

  it('refuses a module without a run function', async () => {
    const dir = await commandsDir({ 'empty.js': 'export const nothing = 1;\n' });
    await expect(loadCommand('empty', dir)).rejects.toThrow(
      'mvnx empty is not available in this build (its module has no run function)',
    );
  });
});

describe('help and version', () => {
  it("explains every flag and subcommand and points to Maven's own help", () => {
    const text = helpText();
    for (const flag of FLAGS) expect(text).toContain(`--mvnx-${flag.name}`);
    for (const name of SUBCOMMANDS) expect(text).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(text).toContain('mvn --help');
    expect(text).toContain('mvnx -- MAVEN_ARGS');
  });

  it("reads the package's version", async () => {
    expect(await packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
