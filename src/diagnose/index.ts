/** Diagnosis: a failed Maven build (log + test and quality reports) -> structured diagnostics. */
export { diagnoseBuild, type DiagnoseBuildInput } from './diagnose-build.js';
export { parseMavenLog, MavenLogParser, type LogLine, type LogParserOptions } from './log-parser.js';
export { normaliseLogLine } from './log-line.js';
export { streamLogLines, type ReadLogStats } from './read-log.js';
export { collectTestResults, reportTimes, CLOCK_SLACK_MS } from './test-reports.js';
export { diagnosticFingerprint, diagnosisFingerprint } from './fingerprint.js';
export { discoverModules, summarisePom, type ModuleFolder } from './modules.js';
export { relativeToRoot } from './log-paths.js';
export { parseSurefireReport, normaliseTestMethod } from './surefire.js';
export { NON_CODE_RULES, CATEGORY_REASONS } from './categories.js';
export { WERROR_MESSAGE } from './javac-lines.js';
export { QUALITY_TOOLS, fixGoalFor, qualityToolOf } from './quality/tools.js';
export {
  classifyParsed,
  type DiagnosticParser,
  type DiagnosticParserRun,
  type ParsedDiagnostic,
  type ParserReportFile,
} from './plugin-parsers.js';
export { mergeRecoveredWarnings, needsWarningRecovery } from './werror.js';
export type * from './types.js';
