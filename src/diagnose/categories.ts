/**
 * Failures that no code patch can help with. Each rule recognises one message Maven
 * (or a plugin) prints, and carries the one-line reason mvnx shows instead of asking a
 * model. Order matters: the first matching rule wins for a line, so the more specific
 * patterns come first (an unresolvable enforcer plugin is a plugin problem, not an
 * enforcer rule).
 */
import type { FailureCategory } from './types.js';

export type NonCodeCategory = Exclude<FailureCategory, 'compile' | 'test'>;

export interface NonCodeRule {
  category: NonCodeCategory;
  pattern: RegExp;
  reason: string;
}

export const NON_CODE_RULES: readonly NonCodeRule[] = [
  {
    category: 'pom-invalid',
    pattern: /Non-parseable POM|Malformed POM|Non-readable POM|'[\w.]+' for [^ ]+ is (?:missing|invalid)|must be a valid version but is/,
    reason: 'a pom.xml is invalid; fix the build file, a source patch cannot help',
  },
  {
    category: 'unknown-lifecycle',
    pattern: /Unknown lifecycle phase|Could not find goal '[^']*' in plugin|No plugin found for prefix/,
    reason: 'the command names an unknown lifecycle phase or goal; fix the Maven arguments',
  },
  {
    category: 'plugin-resolution',
    pattern: /Plugin \S+ or one of its dependencies could not be resolved|Error resolving version for plugin|PluginResolutionException|PluginVersionResolutionException/,
    reason: 'a Maven plugin could not be resolved (offline or missing from the repository)',
  },
  {
    category: 'dependency-resolution',
    pattern: /Could not resolve dependencies|Failed to collect dependencies|Could not find artifact|has not been downloaded from it before|Failed to read artifact descriptor|Non-resolvable (?:parent|import) POM|Could not transfer artifact|DependencyResolutionException/,
    reason: 'a dependency could not be resolved (offline or missing from the repository)',
  },
  {
    category: 'enforcer',
    pattern: /Rule \d+: \S+ failed with message|Some Enforcer rules have failed|maven-enforcer-plugin:[^:\s]+:enforce/,
    reason: 'an enforcer rule failed; that is team policy, not a code defect',
  },
  {
    category: 'jvm-crash',
    pattern: /java\.lang\.OutOfMemoryError|The forked VM terminated without properly saying goodbye|There was an error in the forked process|hs_err_pid\d*|A fatal error has been detected by the Java Runtime Environment|ExecutionException The forked VM terminated|^Java heap space$|GC overhead limit exceeded/,
    reason: 'the JVM ran out of memory or crashed; that needs JVM settings, not a code patch',
  },
];

export const CATEGORY_REASONS: Record<NonCodeCategory, string> = {
  ...(Object.fromEntries(NON_CODE_RULES.map((r) => [r.category, r.reason])) as Record<NonCodeCategory, string>),
  timeout: 'the build hit its time limit; a code patch cannot be verified against it',
  interrupted: 'the build was interrupted before it finished',
  unknown: 'the build failed for a reason mvnx does not recognise',
};

export function matchNonCode(text: string): NonCodeRule | undefined {
  for (const rule of NON_CODE_RULES) if (rule.pattern.test(text)) return rule;
  return undefined;
}
