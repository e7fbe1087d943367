/**
 * Failures that no code patch can help with. Each rule recognises one message Maven
 * (or a plugin) prints, and says in one line what happened and what to do next, naming
 * what the message names (the plugin, the artifact, the rule, the phase). Order matters:
 * the first matching rule wins for a line, so the more specific patterns come first (an
 * unresolvable enforcer plugin is a plugin problem, not an enforcer rule).
 */
import type { FailureCategory } from './types.js';
import { editDistance } from '../shared/similar.js';
import { LIFECYCLE_PHASES } from '../maven/facts.js';

export type NonCodeCategory = Exclude<FailureCategory, 'compile' | 'test' | 'quality'>;

export interface NonCodeRule {
  category: NonCodeCategory;
  pattern: RegExp;
  /** The default reason; `explain` gives a sharper one from the matched text. */
  reason: string;
  explain?: (match: RegExpExecArray, text: string) => string | undefined;
}

const offline = (text: string) => /offline mode|in offline|\(offline\)/.test(text);
const COORDINATES = /\b([\w.-]+:[\w.-]+(?::[\w.-]+){1,3})\b/;

export const NON_CODE_RULES: readonly NonCodeRule[] = [
  {
    // Maven started where there is no project: nothing to repair, and no project to keep a record in.
    category: 'pom-invalid',
    pattern:
      /there is no POM in this directory \(([^)]*)\)|POM file (\S+) specified with the -f\/--file command line argument does not exist/,
    reason: 'there is no pom.xml here, so Maven has no project to build',
    explain: (m) =>
      m[1] !== undefined
        ? `there is no pom.xml in ${m[1]}, so Maven has no project to build; run mvnx in the project's folder, or name its pom with -f`
        : `the pom ${m[2]} named with -f does not exist; fix the -f argument`,
  },
  {
    category: 'java-version',
    pattern:
      /release version (\d+) not supported|invalid (?:target|source) release: ([\w.]+)|(?:Source|Target) option (\d+) is no longer supported/,
    reason: 'the build asks for a Java version the JDK running Maven does not support',
    explain: (m) => {
      const version = m[1] ?? m[2] ?? m[3];
      const removed = m[3] !== undefined;
      return removed
        ? `the build compiles for Java ${version}, which the JDK running Maven no longer supports; raise maven.compiler.release (or source and target) in the pom`
        : `the build compiles for Java ${version} (maven.compiler.release, or source and target), which the JDK running Maven does not support; run Maven with JDK ${version} or newer (JAVA_HOME), or lower the release in the pom`;
    },
  },
  {
    category: 'pom-invalid',
    pattern:
      /Non-parseable POM ([^:]+(?::\\[^:]+)?)|Malformed POM ([^:]+)|Non-readable POM ([^:]+)|'[\w.]+' for [^ ]+ is (?:missing|invalid)|must be a valid version but is/,
    reason: 'a pom.xml is invalid; fix the build file, a source patch cannot help',
    explain: (m, text) => {
      const pom = (m[1] ?? m[2] ?? m[3])?.trim();
      const at = /@ line (\d+)/.exec(text)?.[1];
      if (pom && m[3] !== undefined && /No such file or directory/.test(text))
        return `the pom ${pom} does not exist; fix the -f argument, or run mvnx in the project's folder`;
      return pom
        ? `${pom} is not a valid pom${at ? ` (line ${at})` : ''}; fix the build file, a source patch cannot help`
        : undefined;
    },
  },
  {
    category: 'plugin-resolution',
    pattern: /No plugin found for prefix '([^']+)'/,
    reason: 'a goal names a plugin prefix Maven cannot find',
    explain: (m, text) =>
      `no plugin answers to the prefix '${m[1]}': it is not declared in the pom and no plugin group's metadata in the repositories names it${offline(text) ? ' (Maven ran offline)' : ''}; declare the plugin in the pom, or run the goal by its full groupId:artifactId:version:goal`,
  },
  {
    category: 'unknown-lifecycle',
    pattern: /Unknown lifecycle phase "([^"]*)"|Could not find goal '([^']*)' in plugin (\S+)/,
    reason: 'the command names an unknown lifecycle phase or goal; fix the Maven arguments',
    explain: (m) => {
      if (m[1] !== undefined) {
        const near = nearestPhase(m[1]);
        return `"${m[1]}" is not a lifecycle phase${near ? ` (did you mean ${near}?)` : ''}; fix the Maven arguments`;
      }
      return `the plugin ${m[3]?.replace(/\s*among.*$/, '')} has no goal '${m[2]}'; fix the Maven arguments`;
    },
  },
  {
    category: 'plugin-resolution',
    pattern:
      /Plugin (\S+) or one of its dependencies could not be resolved|Error resolving version for plugin '?([^'\s]+)|PluginResolutionException|PluginVersionResolutionException/,
    reason: 'a Maven plugin could not be resolved (offline or missing from the repository)',
    explain: (m, text) => {
      const plugin = m[1] ?? m[2];
      if (!plugin) return undefined;
      const missing = /the artifact (\S+) has not been downloaded/.exec(text)?.[1];
      const what =
        missing && !plugin.startsWith(missing.split(':').slice(0, 2).join(':'))
          ? `the plugin ${plugin} needs ${missing}, which`
          : `the plugin ${plugin}`;
      return offline(text)
        ? `${what} is not in the local repository and Maven ran offline; run once online so it is downloaded, or pin a version that is there`
        : `${what} could not be resolved from the repositories; check its version and the repository settings`;
    },
  },
  {
    category: 'dependency-resolution',
    pattern:
      /Could not resolve dependencies|Failed to collect dependencies|Could not find artifact|has not been downloaded from it before|Failed to read artifact descriptor|Non-resolvable (?:parent|import) POM|Could not transfer artifact|DependencyResolutionException/,
    reason: 'a dependency could not be resolved (offline or missing from the repository)',
    explain: (_m, text) => {
      const artifact =
        /(?:Could not find artifact|artifact|descriptor for|Could not transfer artifact) ([\w.-]+:[\w.-]+:[\w.:-]+)/.exec(
          text,
        )?.[1] ?? COORDINATES.exec(text.replace(/^.*?: /, ''))?.[1];
      if (!artifact) return undefined;
      return offline(text)
        ? `the dependency ${artifact} is not in the local repository and Maven ran offline; run once online so it is downloaded, or fix its version`
        : `the dependency ${artifact} could not be resolved; check its coordinates and the repository settings`;
    },
  },
  {
    category: 'enforcer',
    pattern:
      /Rule \d+: (\S+?)(?: failed with message:|\(\S*\) failed with message:| failed)|Some Enforcer rules have failed|maven-enforcer-plugin:[^:\s]+:enforce/,
    reason: 'an enforcer rule failed; that is team policy, not a code defect',
    explain: (m) =>
      m[1]
        ? `the enforcer rule ${m[1].split('.').pop()} failed; that is team policy, not a code defect: change the environment (JDK, Maven, dependencies) or the rule`
        : undefined,
  },
  {
    category: 'jvm-crash',
    pattern:
      /java\.lang\.OutOfMemoryError|hs_err_pid\d*|A fatal error has been detected by the Java Runtime Environment|^Java heap space$|GC overhead limit exceeded/,
    reason: 'the JVM ran out of memory or crashed; that needs JVM settings, not a code patch',
  },
];

export const CATEGORY_REASONS: Record<NonCodeCategory, string> = {
  ...(Object.fromEntries(NON_CODE_RULES.map((r) => [r.category, r.reason])) as Record<NonCodeCategory, string>),
  'plugin-resolution': 'a Maven plugin could not be resolved (offline or missing from the repository)',
  'unknown-lifecycle': 'the command names an unknown lifecycle phase or goal; fix the Maven arguments',
  timeout: 'the build hit its time limit; a code patch cannot be verified against it',
  interrupted: 'the build was interrupted before it finished',
  unknown: 'the build failed for a reason mvnx does not recognise',
};

export interface NonCodeMatch {
  rule: NonCodeRule;
  reason: string;
}

export function matchNonCode(text: string): NonCodeMatch | undefined {
  for (const rule of NON_CODE_RULES) {
    const m = rule.pattern.exec(text);
    if (m) return { rule, reason: rule.explain?.(m, text) ?? rule.reason };
  }
  return undefined;
}

/** The lifecycle phase a typo most likely meant (edit distance at most 2). */
export function nearestPhase(word: string): string | undefined {
  let best: { phase: string; distance: number } | undefined;
  for (const phase of LIFECYCLE_PHASES) {
    const distance = nearDistance(word.toLowerCase(), phase);
    if (!best || distance < best.distance) best = { phase, distance };
  }
  return best && best.distance <= 2 && best.distance < word.length ? best.phase : undefined;
}

/** Levenshtein distance, cut short (99) for words whose lengths differ by more than 3. */
function nearDistance(a: string, b: string): number {
  return Math.abs(a.length - b.length) > 3 ? 99 : editDistance(a, b);
}
