/** Team policy: config discovery and the pure decisions the repair engine calls. */
export { loadEffectiveConfig, type LoadConfigOptions } from './load.js';
export {
  configSchema,
  TIERS,
  CHANGE_TYPES,
  DEFAULT_PROTECTED_PATHS,
  DEFAULT_MODEL_HOST,
  DEFAULT_MODEL_NAME,
  type Tier,
  type Risk,
  type EffectiveConfig,
  type ParsedConfig,
  type ConfigInput,
  type RuleConfig,
  type BudgetConfig,
  type RiskConfig,
  type ModelConfig,
} from './schema.js';
export { buildJsonSchema, SCHEMA_ID } from './json-schema.js';
export { effectiveTests, VERIFY_TESTS, type VerifyTests } from './verify-tests.js';
export { SEARCH_PLACES } from './config-discovery.js';
export { findGitRoot, findProjectRoot } from '../maven/project.js';
export { PRESET_NAMES, PRESETS_DIR, presetPath } from './extends.js';
export { decideAttempt, mavenGoals, type AttemptDecision, type AttemptInput } from './decide-attempt.js';
export {
  decideVerified,
  isolationOptOut,
  type Isolation,
  type VerifiedDecision,
  type VerifiedInput,
} from './decide-verified.js';
export {
  tierForPaths,
  protectionOf,
  stricterTier,
  effectiveProtectedGlobs,
  matchesGlob,
  type TierForPaths,
  type PathPolicy,
} from './paths.js';
export { assessRisk, type RiskAssessment } from './risk.js';
export { lineChangesOf, isTrivialLine, differsOnlyInStrings } from './changed-lines.js';
export { computeBudget, failureComplexity, type Budget, type BudgetInput } from './budget.js';
export { toPatchPolicy, type PatchPolicy } from './patch-policy.js';
export { readJacocoLineCoverage, readModuleCoverage, readReactorCoverage, JACOCO_REPORT } from './coverage.js';
