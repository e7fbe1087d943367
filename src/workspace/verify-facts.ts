/**
 * What verification reads of the project once per repair, before any candidate: the
 * reactor graph, what forbids leaving tests out, and which quick-JVM flags the project
 * leaves room for. IO at the edge; the decisions are verify-scope.ts and quick-jvm.ts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readReactor, type ReactorGraph } from '../maven/reactor.js';
import { cdsArchivePath, cdsRoom } from './maven-cds.js';
import { quickJvm, type QuickJvm } from './quick-jvm.js';
import { testSkipBlockers } from './verify-scope.js';

export interface VerificationFacts {
  graph: ReactorGraph;
  /** Why tests cannot be left out per module (empty: they can). */
  blockers: string[];
  /** Flags for the verification JVMs; undefined when verify.quickJvm is off. */
  jvm?: QuickJvm;
}

export interface FactsInput {
  projectRoot: string;
  mavenArgs: readonly string[];
  /** The repair's environment (its MAVEN_OPTS). */
  env: NodeJS.ProcessEnv;
  quickJvm: boolean;
  /**
   * Maven's class-data archive (maven-cds.ts): the Maven that runs, and the machine cache. Absent: none (a container
   * build).
   */
  cds?: { executable: string; cacheDir: string };
}

export async function readVerificationFacts(input: FactsInput): Promise<VerificationFacts> {
  const graph = await readReactor(input.projectRoot);
  const read = (rel: string) => readFile(path.join(input.projectRoot, rel), 'utf8').catch(() => undefined);
  const poms: { name: string; text: string }[] = [];
  for (const project of graph.projects) {
    const name = project.dir === '' ? 'pom.xml' : `${project.dir}/pom.xml`;
    const text = await read(name);
    if (text !== undefined) poms.push({ name, text });
  }
  const mavenConfig = await read('.mvn/maven.config');
  const jvmConfig = await read('.mvn/jvm.config');
  const cdsArchive =
    input.cds && cdsRoom(`${input.env.MAVEN_OPTS ?? ''}\n${jvmConfig ?? ''}`)
      ? cdsArchivePath({ ...input.cds, env: input.env })
      : undefined;
  const blockers = testSkipBlockers(
    [...poms, ...(mavenConfig ? [{ name: '.mvn/maven.config', text: mavenConfig }] : [])],
    input.mavenArgs,
  );
  return {
    graph,
    blockers,
    ...(input.quickJvm
      ? {
          jvm: {
            ...quickJvm({
              ...(input.env.MAVEN_OPTS ? { mavenOpts: input.env.MAVEN_OPTS } : {}),
              ...(jvmConfig !== undefined ? { jvmConfig } : {}),
              ...(mavenConfig !== undefined ? { mavenConfig } : {}),
              poms,
              args: input.mavenArgs,
            }),
            ...(cdsArchive ? { cdsArchive } : {}),
          },
        }
      : {}),
  };
}
