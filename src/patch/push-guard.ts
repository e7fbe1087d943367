/**
 * What a fix pushed onto someone else's branch without a person (a dependency bot's pull request, issue 43) must not
 * hold: an edit of the test side (a fix that makes the tests pass by changing them), or anything that runs while the
 * project builds (a POM's plugins or extensions, a code-running plugin, the Maven wrapper and `.mvn/`, CI workflows,
 * an annotation processor's registration). Pure: the refusals in words, none for a fix that may be pushed.
 */
import { classifyFile, pathKind } from './classify.js';
import { addedBuildTimeCode, changesPlugins, isPom } from './classify-pom.js';
import type { ChangeSet } from './types.js';

/** Files that are build-time code by where they are, whatever they hold. */
const BUILD_TIME_PATHS: { test: (path: string) => boolean; what: string }[] = [
  { test: (p) => /(^|\/)\.mvn\//.test(p), what: 'Maven configuration or extensions (.mvn/)' },
  { test: (p) => /(^|\/)mvnw(\.cmd)?$/.test(p), what: 'the Maven wrapper' },
  { test: (p) => /(^|\/)\.github\//.test(p) || /(^|\/)\.gitlab-ci\.yml$/.test(p), what: 'CI configuration' },
  {
    test: (p) => /META-INF\/services\/javax\.annotation\.processing\.Processor$/.test(p),
    what: 'an annotation processor registration',
  },
];

/** A test-side path: under src/test/, or a test source by name anywhere. */
function isTestSide(path: string): boolean {
  if (pathKind(path) === 'edit-test-source') return true;
  return /(^|\/)src\/test\//.test(path) || /(^|\/)src\/it\//.test(path);
}

/** The POM's sections that say what runs during the build, comments and blank space aside. */
function buildSections(pom: string | null): string {
  const text = (pom ?? '').replace(/<!--[\s\S]*?-->/g, '');
  return ['build', 'profiles', 'reporting']
    .flatMap((tag) => [...text.matchAll(new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`, 'g'))].map((m) => m[0]))
    .join('\n')
    .replace(/\s+/g, ' ');
}

export function pushRefusals(cs: ChangeSet): string[] {
  const refusals: string[] = [];
  for (const change of cs.files) {
    const paths = [change.path, ...(change.oldPath !== undefined ? [change.oldPath] : [])];
    for (const path of paths.filter(isTestSide)) refusals.push(`${path} is on the test side`);
    for (const rule of BUILD_TIME_PATHS)
      if (paths.some(rule.test)) refusals.push(`${change.path} is ${rule.what}: build-time code`);
    const types = classifyFile(change);
    if (types.includes('binary')) refusals.push(`${change.path} is a binary change`);
    if (types.includes('edit-build-file') && (isPom(change.before) || isPom(change.after))) {
      if (changesPlugins(change.before, change.after) || buildSections(change.before) !== buildSections(change.after))
        refusals.push(`${change.path} adds or changes a build plugin or extension: build-time code`);
      for (const plugin of addedBuildTimeCode(change.before, change.after))
        refusals.push(`${change.path} adds or changes ${plugin}, which runs code during the build`);
    }
  }
  return [...new Set(refusals)];
}
