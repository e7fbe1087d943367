/**
 * The shapes of the verification benchmark's projects: the specs the generator takes and
 * what it returns. Apart from the generator (verify-projects.ts) so that its -java, -poms
 * and -bugs parts take them without importing the generator that imports them.
 */

export interface ModuleSpec {
  /** Folder and artifactId ('' for a single-module project's root). */
  dir: string;
  /** Class name stems, used in turn. */
  stems: string[];
  classes: number;
  /** Every `testEvery`-th class has a test class (five tests). */
  testEvery: number;
  /** Module folders this one depends on (compile scope). */
  dependsOn: string[];
}

export interface ProjectSpec {
  name: string;
  groupId: string;
  modules: ModuleSpec[];
}

export type BugKind = 'leaf' | 'core' | 'test';

export interface BugSpec {
  name: string;
  kind: BugKind;
  /** Module folder the bug is in. */
  module: string;
  /** Which tested class (index among the module's classes). */
  classIndex: number;
}

export interface GeneratedBug {
  name: string;
  kind: BugKind;
  module: string;
  /** Project-relative path of the file the bug is in. */
  file: string;
  correct: string;
  broken: string;
  /** Model replies, each written against the broken file. */
  replies: { doesNotCompile: string; testStillFails: string; fix: string };
}

export interface GeneratedProject {
  name: string;
  /** Project-relative path (forward slashes) to content. */
  files: Map<string, string>;
  bugs: GeneratedBug[];
  stats: { modules: number; mainClasses: number; testClasses: number; tests: number };
}
