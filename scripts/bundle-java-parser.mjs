// Bundles java-parser, Chevrotain and the lodash-es modules they import into one ES module,
// dist/vendor/java-parser.mjs, which src/java/parse.ts loads in place of the package.
// Loading the package resolves and links several hundred small modules (lodash-es is one
// function per file): 250–360 ms on a 2-core machine, where the one file loads in about
// 150 ms (the rest is Chevrotain building its grammar). That load sits inside the first
// prompt of every run whose sources were not parsed before (bench:prompt, "cold").
// The code is the package's own, unchanged: bundling only joins the files.
// Run after tsc, from `npm run build`.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
// The package exports only its entry (no ./package.json): resolve that.
const entry = require.resolve('java-parser');
const outfile = fileURLToPath(new URL('../dist/vendor/java-parser.mjs', import.meta.url));

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Whitespace only: every name stays as the package wrote it, for stack traces and for
  // any code that reads a function's or class's name.
  minifyWhitespace: true,
  legalComments: 'eof',
  logLevel: 'warning',
});
