/**
 * JVM flags that make the short-lived JVMs of a verification build start and finish
 * sooner: only the C1 compiler (`-XX:TieredStopAtLevel=1`), the serial collector and the
 * class-data archive (`-Xshare:auto`, the default on JDK 12+, said explicitly). Maven's
 * JVM gets them through MAVEN_OPTS and Surefire's forks through `-DargLine`. Pure.
 *
 * Never where the project or the user set their own: a flag of the same family in
 * MAVEN_OPTS or `.mvn/jvm.config` stays as it is (two collectors would stop the JVM), and
 * `-DargLine` would replace a pom's `argLine` property (and the JaCoCo agent that
 * prepare-agent puts there), so Surefire gets the flags only when no pom, no
 * `.mvn/maven.config` and no command-line option mentions argLine or JaCoCo.
 */

export const QUICK_JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xshare:auto'] as const;

/** Each flag and the options that already decide the same thing. */
const FAMILIES: Record<(typeof QUICK_JVM_FLAGS)[number], RegExp> = {
  '-XX:TieredStopAtLevel=1': /-XX:[+-]?(TieredStopAtLevel|TieredCompilation)|-Xint\b|-Xcomp\b/,
  '-XX:+UseSerialGC': /-XX:\+Use\w*GC\b/,
  '-Xshare:auto': /-Xshare:/,
};

export interface QuickJvmInput {
  /** MAVEN_OPTS of the build's environment. */
  mavenOpts?: string;
  /** `.mvn/jvm.config` of the project, when it has one. */
  jvmConfig?: string;
  /** `.mvn/maven.config`, when present. */
  mavenConfig?: string;
  /** The text of every pom of the reactor. */
  poms: string[];
  /** The stage's Maven arguments. */
  args: readonly string[];
}

export interface QuickJvm {
  /** The MAVEN_OPTS to run with (the user's, then the flags they do not already set); undefined: unchanged. */
  mavenOpts?: string;
  /** `-DargLine=...` to add to the stage's arguments; undefined when the project has its own. */
  argLine?: string;
  /** Flags added, for the run record. */
  added: string[];
}

export function quickJvm(input: QuickJvmInput): QuickJvm {
  const decided = `${input.jvmConfig ?? ''}\n${input.mavenOpts ?? ''}`;
  const forMaven = QUICK_JVM_FLAGS.filter((flag) => !FAMILIES[flag].test(decided));
  const ownArgLine = [...input.poms, input.mavenConfig ?? '', input.args.join('\n')].some((text) => /argLine|jacoco/i.test(text));
  const forForks = ownArgLine ? [] : [...QUICK_JVM_FLAGS];
  const mavenOpts = forMaven.length > 0 ? [input.mavenOpts?.trim(), ...forMaven].filter(Boolean).join(' ') : undefined;
  return {
    ...(mavenOpts !== undefined ? { mavenOpts } : {}),
    ...(forForks.length > 0 ? { argLine: `-DargLine=${forForks.join(' ')}` } : {}),
    added: [...forMaven.map((flag) => `MAVEN_OPTS ${flag}`), ...(forForks.length > 0 ? [`argLine ${forForks.join(' ')}`] : [])],
  };
}
