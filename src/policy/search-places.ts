/**
 * Where the config loader looks for a config file in each folder, first match winning.
 * Dependency-free on purpose: the passing-build path (src/cli/config-inputs.ts) checks
 * these places without loading cosmiconfig, zod or yaml.
 */
export const SEARCH_PLACES: readonly string[] = [
  '.mvnxrc',
  '.mvnxrc.json',
  '.mvnxrc.yaml',
  '.mvnxrc.yml',
  '.mvnxrc.js',
  '.mvnxrc.mjs',
  '.mvnxrc.cjs',
  'mvnx.config.js',
  'mvnx.config.mjs',
  'mvnx.config.cjs',
  '.config/mvnxrc',
  '.config/mvnxrc.json',
  '.config/mvnxrc.yaml',
  '.config/mvnxrc.yml',
  '.config/mvnxrc.js',
  '.config/mvnxrc.mjs',
  '.config/mvnxrc.cjs',
];
