/**
 * JVM flags that make the JVMs of a verification build start and finish sooner: the serial
 * collector and the class-data archive (`-Xshare:auto`, the default on JDK 12+, said
 * explicitly) for all of them, and for Maven's own, short-lived and mostly starting up,
 * only the C1 compiler (`-XX:TieredStopAtLevel=1`). Not for the test JVM: a test run of
 * some seconds needs C2 (jsoup's 1,834 tests, `mvn -o -q surefire:test`, quiet: 7.9–8.0 s
 * with C1 only, 7.4–7.5 s without). Maven's JVM gets them through MAVEN_OPTS and Surefire's
 * forks through `-DargLine`. Pure.
 *
 * Never where the project or the user set their own: a flag of the same family in
 * MAVEN_OPTS or `.mvn/jvm.config` stays as it is (two collectors would stop the JVM), and
 * `-DargLine` would replace a pom's `argLine` property (and the JaCoCo agent that
 * prepare-agent puts there), so Surefire gets them that way only when no pom, no
 * `.mvn/maven.config` and no command-line option mentions argLine or JaCoCo. A project
 * that writes its own `<argLine>` in a pom gets the flags appended there instead, in the
 * workspace copy only (jsoup's `-Xss640k`: its 1,800 tests ran 1.2 s sooner with the
 * serial collector), each flag only when no pom, `.mvn/maven.config` or command-line
 * option names its family: an `${argLine}` inside may hold anything set there.
 */

export const QUICK_JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xshare:auto'] as const;
export type QuickJvmFlag = (typeof QUICK_JVM_FLAGS)[number];
/** The flags the test JVMs get: C2 stays. */
export const QUICK_FORK_FLAGS: readonly QuickJvmFlag[] = ['-XX:+UseSerialGC', '-Xshare:auto'];

/** Each flag and the options that already decide the same thing. */
const FAMILIES: Record<QuickJvmFlag, RegExp> = {
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
  /**
   * Every pom of the reactor: its text, or its root-relative name and text (the named ones may get flags appended to
   * their `<argLine>`).
   */
  poms: readonly (string | PomText)[];
  /** The stage's Maven arguments. */
  args: readonly string[];
}

export interface QuickJvm {
  /** The MAVEN_OPTS to run with (the user's, then the flags they do not already set); undefined: unchanged. */
  mavenOpts?: string;
  /** `-DargLine=...` to add to the stage's arguments; undefined when the project has its own. */
  argLine?: string;
  /**
   * Flags appended to the `<argLine>` elements of these poms (root-relative) in the workspace copy, where the project
   * has its own.
   */
  forkFlagsInPoms?: { poms: string[]; flags: QuickJvmFlag[] };
  /** Flags added, for the run record. */
  added: string[];
  /** Maven's class-data archive, made or used where it exists (maven-cds.ts); undefined: none. */
  cdsArchive?: string;
}

export interface PomText {
  name: string;
  text: string;
}

export function quickJvm(input: QuickJvmInput): QuickJvm {
  const decided = `${input.jvmConfig ?? ''}\n${input.mavenOpts ?? ''}`;
  const forMaven = QUICK_JVM_FLAGS.filter((flag) => !FAMILIES[flag].test(decided));
  const poms = input.poms.map((pom) => (typeof pom === 'string' ? { name: undefined, text: pom } : pom));
  const projectText = [...poms.map((pom) => pom.text), input.mavenConfig ?? '', input.args.join('\n')];
  const ownArgLine = projectText.some((text) => /argLine|jacoco/i.test(text));
  const forForks = ownArgLine ? [] : [...QUICK_FORK_FLAGS];
  const mavenOpts = forMaven.length > 0 ? [input.mavenOpts?.trim(), ...forMaven].filter(Boolean).join(' ') : undefined;
  const withArgLine = poms.flatMap((pom) =>
    pom.name !== undefined && argLineElements(pom.text).length > 0 ? [pom.name] : [],
  );
  const inPoms =
    withArgLine.length > 0
      ? QUICK_FORK_FLAGS.filter((flag) => !projectText.some((text) => FAMILIES[flag].test(text)))
      : [];
  return {
    ...(mavenOpts !== undefined ? { mavenOpts } : {}),
    ...(forForks.length > 0 ? { argLine: `-DargLine=${forForks.join(' ')}` } : {}),
    ...(inPoms.length > 0 ? { forkFlagsInPoms: { poms: withArgLine, flags: inPoms } } : {}),
    added: [
      ...forMaven.map((flag) => `MAVEN_OPTS ${flag}`),
      ...(forForks.length > 0 ? [`argLine ${forForks.join(' ')}`] : []),
      ...(inPoms.length > 0 ? [`argLine of ${withArgLine.join(', ')} ${inPoms.join(' ')}`] : []),
    ],
  };
}

/**
 * The pom with `flags` appended to each `<argLine>` element outside comments (an empty
 * one gets them alone), each flag only where that element does not already name its
 * family: written twice, the text is the same. An element holding markup (CDATA) is left
 * as it is.
 */
export function appendArgLineFlags(pomText: string, flags: readonly QuickJvmFlag[]): string {
  let text = pomText;
  for (const element of argLineElements(pomText).reverse()) {
    const content = element.content ?? '';
    const missing = flags.filter((flag) => !FAMILIES[flag].test(content));
    if (missing.length === 0) continue;
    const value = [content.trim(), ...missing].filter(Boolean).join(' ');
    text = `${text.slice(0, element.start)}<argLine>${value}</argLine>${text.slice(element.end)}`;
  }
  return text;
}

interface ArgLineElement {
  start: number;
  end: number;
  /** undefined for `<argLine/>`. */
  content?: string;
}

function argLineElements(pomText: string): ArgLineElement[] {
  const comments = [...pomText.matchAll(/<!--[\s\S]*?(?:-->|$)/g)].map(
    (m) => [m.index, m.index + m[0].length] as const,
  );
  const inComment = (at: number) => comments.some(([from, to]) => at >= from && at < to);
  const elements: ArgLineElement[] = [];
  for (const match of pomText.matchAll(/<argLine\s*\/>|<argLine\s*>([^<]*)<\/argLine\s*>/g)) {
    if (inComment(match.index)) continue;
    elements.push({
      start: match.index,
      end: match.index + match[0].length,
      ...(match[1] !== undefined ? { content: match[1] } : {}),
    });
  }
  return elements;
}
