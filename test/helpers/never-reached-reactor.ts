/**
 * The generated four-module reactor of the never-reached-module tests (issue 42, item 5): util <- core <- app;
 * util <- report, declared last. A leaf bug in app stops the user's build there, so Maven never reaches report,
 * which needs none of app.
 */
import { generateProject, type GeneratedBug, type ProjectSpec } from '../../src/bench/verify-projects.js';

export const NEVER_REACHED_SPEC: ProjectSpec = {
  name: 'tri',
  groupId: 'com.acme.tri',
  modules: [
    { dir: 'util', stems: ['Text'], classes: 6, testEvery: 2, dependsOn: [] },
    { dir: 'core', stems: ['Rule'], classes: 6, testEvery: 2, dependsOn: ['util'] },
    { dir: 'app', stems: ['Screen'], classes: 6, testEvery: 2, dependsOn: ['core'] },
    { dir: 'report', stems: ['Summary'], classes: 6, testEvery: 2, dependsOn: ['util'] },
  ],
};

/** The reactor's files and its one bug (a leaf in app). */
export const neverReached = generateProject(NEVER_REACHED_SPEC, [
  { name: 'leaf', kind: 'leaf', module: 'app', classIndex: 4 },
]);
export const neverReachedBug: GeneratedBug = neverReached.bugs[0]!;
