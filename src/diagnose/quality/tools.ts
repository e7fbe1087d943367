/**
 * The quality gates mvnx knows, as data: which Maven plugin runs each, which of its goals
 * fail a build, which goal repairs a formatting or header failure, and which report it
 * writes. One table, read by the log parser (is this failed goal a quality gate?), the
 * report reader and the formatter fixer.
 */

export interface QualityToolSpec {
  tool: string;
  /** artifactIds of the plugins that run it. */
  artifactIds: readonly string[];
  /** Goals that fail the build on a finding. */
  checkGoals: readonly string[];
  /** For formatting and header checks: the plugin's own goal that rewrites the files. */
  fixGoal?: string;
  /** The XML report the check goal reads or writes, under the module's target/. */
  report?: string;
}

export const QUALITY_TOOLS: readonly QualityToolSpec[] = [
  {
    tool: 'checkstyle',
    artifactIds: ['maven-checkstyle-plugin'],
    checkGoals: ['check'],
    report: 'checkstyle-result.xml',
  },
  { tool: 'pmd', artifactIds: ['maven-pmd-plugin'], checkGoals: ['check'], report: 'pmd.xml' },
  { tool: 'cpd', artifactIds: ['maven-pmd-plugin'], checkGoals: ['cpd-check'] },
  {
    tool: 'spotbugs',
    artifactIds: ['spotbugs-maven-plugin', 'findbugs-maven-plugin'],
    checkGoals: ['check'],
    report: 'spotbugsXml.xml',
  },
  { tool: 'forbiddenapis', artifactIds: ['forbiddenapis'], checkGoals: ['check', 'testCheck'] },
  { tool: 'spotless', artifactIds: ['spotless-maven-plugin'], checkGoals: ['check'], fixGoal: 'apply' },
  { tool: 'fmt', artifactIds: ['fmt-maven-plugin'], checkGoals: ['check'], fixGoal: 'format' },
  { tool: 'formatter', artifactIds: ['formatter-maven-plugin'], checkGoals: ['validate'], fixGoal: 'format' },
  { tool: 'license', artifactIds: ['license-maven-plugin'], checkGoals: ['check'], fixGoal: 'format' },
  {
    tool: 'license',
    artifactIds: ['license-maven-plugin'],
    checkGoals: ['check-file-header'],
    fixGoal: 'update-file-header',
  },
];

/** The quality gate a failed goal belongs to, when it is one. */
export function qualityToolOf(artifactId: string, goal: string): QualityToolSpec | undefined {
  return QUALITY_TOOLS.find((spec) => spec.artifactIds.includes(artifactId) && spec.checkGoals.includes(goal));
}

/** `groupId:artifactId:version:check` -> `groupId:artifactId:version:apply` for a formatter; undefined otherwise. */
export function fixGoalFor(goal: string | undefined, tool: string | undefined): string | undefined {
  if (!goal || !tool) return undefined;
  const parts = goal.split(':');
  if (parts.length !== 4) return undefined;
  const [groupId, artifactId, version, checkGoal] = parts as [string, string, string, string];
  const spec = QUALITY_TOOLS.find(
    (s) => s.tool === tool && s.artifactIds.includes(artifactId) && s.checkGoals.includes(checkGoal),
  );
  return spec?.fixGoal ? `${groupId}:${artifactId}:${version}:${spec.fixGoal}` : undefined;
}
