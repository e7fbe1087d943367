/**
 * Octokit, the GitHub client, loaded when a review or publication goes to GitHub. `npm run build` bundles it into
 * dist/vendor/octokit.mjs (scripts/bundle-octokit.mjs): @octokit/rest is a development dependency, so an install
 * of mvnx holds no Octokit package (18 MB) and no content-type 3 (Node >= 22). Running from source (the unit
 * tests), there is no bundle and the package loads.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Octokit as OctokitClass } from '@octokit/rest';

export type Octokit = OctokitClass;
export type OctokitOptions = ConstructorParameters<typeof OctokitClass>[0];

const bundleUrl = new URL('../vendor/octokit.mjs', import.meta.url);
const bundled = bundleUrl.protocol === 'file:' && existsSync(fileURLToPath(bundleUrl));

let loaded: Promise<typeof OctokitClass> | undefined;

/** A client with these options; the first call loads the bundle (or the package from source). */
export async function newOctokit(options: OctokitOptions): Promise<Octokit> {
  loaded ??= (import(bundled ? bundleUrl.href : '@octokit/rest') as Promise<{ Octokit: typeof OctokitClass }>).then(
    (module) => module.Octokit,
  );
  return new (await loaded)(options);
}
