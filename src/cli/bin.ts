#!/usr/bin/env node
/**
 * The `mvnx` process entry. The published bin is dist/cli/mvnx.cjs, a single-file bundle
 * of this entry and the passing-build path (scripts/bundle-bin.mjs), because loading ~20
 * ES modules costs more start-up time than the rest of mvnx's success path; this file
 * also runs unbundled as `node dist/cli/bin.js`.
 */
import { main } from './main.js';

/** Wait until what we wrote reached the pipe: process.exit would drop pending writes. */
function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}

// No top-level await: the bundle is CommonJS, which starts faster than an ES module.
void main(process.argv.slice(2), { cwd: process.cwd(), env: process.env }).then(async (code) => {
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
  // Exit explicitly: a progress timer or a socket of the repair stage must not keep us alive.
  process.exit(code);
});
