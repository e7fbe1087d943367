/**
 * One name, one concept: a file name of src/ names the same thing wherever it stands, so a
 * reader who meets `source-view.ts` twice does not have to find out that one is a model and
 * the other a disk reader. A name may repeat only where it is the same concept in each
 * stage, and each such name says why below.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Names that mean the same thing in every folder that has one. */
const SAME_CONCEPT: Record<string, string> = {
  'index.ts': "a folder's door",
  'types.ts': "a stage's data types",
  'errors.ts': "a stage's error types",
  'fingerprint.ts': "the fingerprint of a stage's own data (a diagnosis's, a change set's)",
  'reactor.ts': 'the reactor of modules, as the poms declare it and as the log shows it',
  'patch-policy.ts': 'the patch policy: its shape, enforced by patch/, and its reading from the config in policy/',
  'publish.ts': 'publishing a fix: what the policy allows, the forge flow, and the `mvnx publish` command',
};

/** `cli/commands/<name>.ts` is named by the command word it implements (routing reads the name). */
const isCommand = (file: string) => path.dirname(file) === 'cli/commands';

function sourceFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full, base);
    return entry.name.endsWith('.ts') ? [path.relative(base, full).split(path.sep).join('/')] : [];
  });
}

export function repeatedNames(files: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const file of files.filter((f) => !isCommand(f))) {
    const name = path.basename(file);
    if (SAME_CONCEPT[name]) continue;
    byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  return [...byName].filter(([, places]) => places.length > 1).map(([name, places]) => `${name}: ${places.join(', ')}`);
}

describe('file names of src/', () => {
  it('name one concept each', () => {
    expect(repeatedNames(sourceFiles(SRC))).toEqual([]);
  });

  it('a name used for two things is found, and a command file or a door is not', () => {
    expect(
      repeatedNames([
        'java/source-view.ts',
        'codebase/source-view.ts',
        'patch/index.ts',
        'java/index.ts',
        'cli/commands/apply.ts',
        'patch/apply.ts',
      ]),
    ).toEqual(['source-view.ts: java/source-view.ts, codebase/source-view.ts']);
  });

  it('every allowed repetition is still used twice (a stale entry is removed)', () => {
    const counts = new Map<string, number>();
    for (const file of sourceFiles(SRC)) counts.set(path.basename(file), (counts.get(path.basename(file)) ?? 0) + 1);
    expect(Object.keys(SAME_CONCEPT).filter((name) => (counts.get(name) ?? 0) < 2)).toEqual([]);
  });
});
