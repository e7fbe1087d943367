// Bundles @octokit/rest and what it imports into one ES module, dist/vendor/octokit.mjs, which
// src/report/octokit.ts loads in place of the package. Why: the package is a development
// dependency only, so a user's install holds no Octokit packages (18 MB installed) and none
// whose `engines` mvnx does not admit: @octokit/request >= 10.0.15 asks for content-type 3,
// which declares Node >= 22, and npm ignores a package's `overrides` when users install it.
// The bundle takes content-type 2.1.0 (same `parse`, Node >= 18) in its place.
// Run after tsc, from `npm run build`.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const outfile = fileURLToPath(new URL('../dist/vendor/octokit.mjs', import.meta.url));
// The top-level content-type is the development dependency pinned to 2.x (package.json).
const contentType = require.resolve('content-type');

const contentTypeTwo = {
  name: 'content-type-2',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^content-type$/ }, () => ({ path: contentType }));
  },
};

await build({
  entryPoints: [fileURLToPath(new URL('./octokit-entry.mjs', import.meta.url))],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifyWhitespace: true,
  legalComments: 'eof',
  plugins: [contentTypeTwo],
  logLevel: 'warning',
});
