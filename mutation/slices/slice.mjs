// @ts-check
import base from '../stryker.config.mjs';

/**
 * One slice of the mutation run: a few files of one folder, the unit tests written for that
 * folder (mutation/vitest/<folder>.config.ts), and its own incremental file, JSON report and
 * temp dir, so slices run side by side and a fresh clone reruns only what changed in each.
 * Sized to finish in about 20 minutes on a loaded two-core machine (about 300 mutants).
 * Static mutants (evaluated once when a module loads, like the zod schema in policy/schema.ts)
 * are ignored: each one reruns every test file of the folder, which is what made whole-set
 * runs take hours.
 * @param {string} name slice name: mutation/slices/<name>.config.mjs
 * @param {'patch' | 'policy' | 'repair/integrity'} folder
 * @param {string[]} files the files under src/<folder>/ to mutate
 * @param {string} [tests] the vitest config's middle name when not the folder's (required for a
 *   nested folder such as repair/integrity: its slices name their own narrow test sets)
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function slice(name, folder, files, tests = folder) {
  if (tests.includes('/')) throw new Error(`slice ${name}: name the vitest config of folder ${folder}`);
  return {
    ...base,
    vitest: { configFile: `mutation/vitest/${tests}.config.ts`, related: false },
    mutate: files.map((file) => `src/${folder}/${file}`),
    ignoreStatic: true,
    // Other slices' sandboxes may sit in the working tree while this one copies it.
    ignorePatterns: ['.stryker-tmp*', '/mutation/reports', '/dist', '/coverage', '/target'],
    incrementalFile: `mutation/reports/${name}-incremental.json`,
    jsonReporter: { fileName: `mutation/reports/${name}.json` },
    tempDirName: `.stryker-tmp-${name}`,
    concurrency: 1,
  };
}
