// Bundles the `mvnx` bin (dist/cli/bin.js and the passing-build path it loads) into one
// CommonJS file, dist/cli/mvnx.cjs. Start-up cost is mvnx's whole overhead on a passing
// build: one CommonJS file loads ~10 ms faster than ~20 ES modules on a 2-core machine
// (bench:overhead). Run after tsc, from `npm run build`.
//
// What the bundle holds: every module the bin imports statically, plus build.js. Every
// other dynamic import (the config loader, the repair stage) stays a real import() of the
// tsc output beside it, so a failing build or a config file loads exactly the modules
// that `node dist/cli/bin.js` would; subcommands are loaded by computed URL anyway.
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const entry = path.join(dist, 'cli/bin.js');
const outfile = path.join(dist, 'cli/mvnx.cjs');
const inlined = new Set([path.join(dist, 'cli/build.js')]);

const keepDynamicImportsExternal = {
  name: 'keep-dynamic-imports-external',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      // Built-ins and packages resolve the same from the bundle as from the module.
      if (!args.path.startsWith('.')) return { path: args.path, external: true };
      const target = path.resolve(args.resolveDir, args.path);
      if (inlined.has(target)) return undefined;
      const relative = path.relative(path.dirname(outfile), target).split(path.sep).join('/');
      return { path: relative.startsWith('.') ? relative : `./${relative}`, external: true };
    });
  },
};

const result = await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // CommonJS has no import.meta: give the bundled modules the bundle's own URL, which
  // sits in dist/cli/ like the modules that use it, so their relative URLs still hold.
  define: { 'import.meta.url': 'importMetaUrl' },
  inject: [fileURLToPath(new URL('./import-meta-url-shim.mjs', import.meta.url))],
  plugins: [keepDynamicImportsExternal],
  metafile: true,
  logLevel: 'warning',
});

// The passing-build path must stay free of dependencies: a package in the bundle means a
// static import pulled config or repair code onto the start-up path.
const packages = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules'));
if (packages.length > 0) {
  console.error(
    `bundle-bin: the start-up bundle must not contain dependencies, but it has:\n  ${packages.join('\n  ')}`,
  );
  process.exit(1);
}
await chmod(outfile, 0o755);
