/**
 * The one description of an mvnx config file. Validation, defaults, the `EffectiveConfig`
 * type and `schema.json` (scripts/write-schema.mjs) all come from this schema, so a field
 * exists here or nowhere. Every field carries a description because editors show it.
 * The sections it is made of are in schema-parts.ts.
 */
import { z } from 'zod';
import { telemetrySchema } from './fleet-schema.js';
import { publishSchema } from './publish-schema.js';
import {
  budgetSchema,
  changeType,
  commandToolSchema,
  DEFAULT_PROTECTED_PATHS,
  glob,
  guidelinesSchema,
  modelSchema,
  patchSchema,
  positiveInt,
  promoteSchema,
  regexSource,
  reviewSchema,
  riskSchema,
  rolloutSchema,
  ruleSchema,
  tier,
} from './schema-parts.js';
import { verifyTestsField } from './verify-tests.js';

export {
  CHANGE_TYPES,
  COMMAND_TOOL_NAME,
  COMMAND_TOOL_STATES,
  commandToolSchema,
  DEFAULT_MODEL_HOST,
  DEFAULT_MODEL_NAME,
  DEFAULT_PROTECTED_PATHS,
  TIERS,
  type Tier,
} from './schema-parts.js';

export const configSchema = z
  .strictObject({
    $schema: z.string().optional().describe('JSON Schema of this file, for editors. Ignored by mvnx.'),
    extends: z
      .union([
        z.string().min(1).describe('One base.'),
        z.array(z.string().min(1).describe('A base.')).describe('Several bases, applied in order.'),
      ])
      .optional()
      .describe(
        'Bases this config builds on: a preset (monitor, assist, auto, enterprise-tiered), a relative file path, or an npm package name. Rules append, scalars override, objects merge.',
      ),
    tier: tier
      .default('assist')
      .describe(
        'Default tier: off (do nothing), monitor (record fixes), assist (suggest fixes), auto (apply verified fixes).',
      ),
    rules: z.array(ruleSchema).default([]).describe('Ordered rules mapping paths and modules to tiers and limits.'),
    protectedPaths: z
      .array(glob)
      .default(DEFAULT_PROTECTED_PATHS)
      .describe('Globs a patch may never touch. Extending configs add to this list.'),
    allowedChanges: z
      .array(changeType)
      .default(['edit-main-source', 'edit-test-source'])
      .describe('Change types a patch may make.'),
    patch: patchSchema.prefault({}),
    risk: riskSchema.prefault({}),
    assist: z
      .strictObject({
        autoApplyLowRisk: z
          .boolean()
          .default(false)
          .describe('Under assist, apply a verified low-risk fix to the real tree instead of only suggesting it.'),
        promptOnTty: z
          .boolean()
          .default(true)
          .describe('Under assist on an interactive terminal, ask whether to apply a suggested fix.'),
      })
      .prefault({})
      .describe('Behaviour of the assist tier.'),
    auto: z
      .strictObject({
        requireCoverage: z
          .number()
          .min(0)
          .max(100)
          .optional()
          .describe(
            'Auto applies only in modules whose JaCoCo line coverage (target/site/jacoco/jacoco.xml) is at least this percentage; elsewhere it drops to assist.',
          ),
        maxRisk: z
          .enum(['low', 'medium', 'high'])
          .default('high')
          .describe('Auto applies fixes up to this risk; riskier fixes drop to assist.'),
        requireFullVerification: z
          .boolean()
          .default(false)
          .describe(
            'When a run may apply a fix at auto, verify it with the whole command (verify.scope full); a fix verified with the affected-module form is never applied by auto.',
          ),
      })
      .prefault({})
      .describe('Behaviour of the auto tier.'),
    budget: budgetSchema.prefault({}),
    guidelines: guidelinesSchema.optional(),
    model: modelSchema.prefault({}),
    telemetry: telemetrySchema.prefault({}),
    triggers: z
      .strictObject({
        kinds: z
          .array(
            z
              .enum(['compile', 'test', 'quality'])
              .describe(
                'compile: javac errors (and -Werror warnings, javadoc errors); test: Surefire/Failsafe failures; quality: checkstyle, PMD, spotbugs, formatter and license checks.',
              ),
          )
          .default(['compile', 'test', 'quality'])
          .describe('Failure kinds mvnx tries to repair.'),
        goals: z
          .array(z.string().min(1).describe('A Maven phase or goal.'))
          .optional()
          .describe('Only act when the Maven command line names one of these phases or goals. Unset: any.'),
      })
      .prefault({})
      .describe('Which failures and Maven invocations start a repair.'),
    maven: z
      .strictObject({
        executable: z
          .string()
          .min(1)
          .optional()
          .describe('Maven to run (after --mvnx-maven and MVNX_MAVEN; before mvnw and mvn on PATH).'),
        offline: z
          .enum(['inherit', 'always'])
          .default('inherit')
          .describe("Verification builds: inherit the command line's -o, or always run offline."),
      })
      .prefault({})
      .describe('How Maven is found and run.'),
    sandbox: z
      .strictObject({
        mode: z
          .enum(['auto', 'bwrap', 'podman', 'docker', 'none'])
          .default('auto')
          .describe(
            'Isolation of verification builds: bwrap (bubblewrap), podman or docker (a container of sandbox.image), none, or auto (bwrap, then podman, then docker, else none with a warning). A named backend that cannot run stops the repair before the first model call. none written in a config file says the environment itself is the sandbox (an ephemeral CI container): only then does auto apply fixes verified without isolation.',
          ),
        image: z
          .string()
          .min(1)
          .optional()
          .describe(
            'Container image for docker/podman: a JDK and Maven matching the project (e.g. maven:3.9-eclipse-temurin-17; mvnx doctor suggests one). It must be present locally: verification never pulls.',
          ),
        env: z
          .strictObject({
            pass: z
              .array(z.string().min(1).describe('A variable name, or a prefix ending in * (NAME_*).'))
              .default([])
              .describe(
                'Environment variables a verification build may see besides PATH, HOME, JAVA_HOME, MAVEN_OPTS, MAVEN_ARGS, MAVEN_HOME, M2_HOME, MAVEN_USER_HOME, LANG, LC_*, TZ and TMPDIR. A name containing TOKEN, SECRET, PASSWORD, PASSWD, KEY or CREDENTIAL passes only when written out in full.',
              ),
          })
          .prefault({})
          .describe('The environment of verification builds: empty but for an allowlist.'),
        network: z.literal(false).default(false).describe('Network access inside the sandbox; always false.'),
      })
      .prefault({})
      .describe('Isolation of verification builds.'),
    fixers: z
      .strictObject({
        enabled: z.boolean().default(true).describe('Try deterministic quick-fixes before the model.'),
        disabled: z.array(z.string().min(1).describe('A fixer id.')).optional().describe('Fixer ids not to run.'),
      })
      .prefault({})
      .describe('Deterministic quick-fixes.'),
    redact: z
      .strictObject({
        enabled: z
          .boolean()
          .default(true)
          .describe(
            'Remove secrets (well-known token shapes, password assignments, and the values of secret-looking environment variables and settings.xml passwords) from everything mvnx sends or writes: model requests, the console, the run record and its prompt files, reporters.',
          ),
        patterns: z
          .array(regexSource.describe('A JavaScript regular expression source.'))
          .optional()
          .describe('Extra regular expressions whose matches are redacted.'),
      })
      .prefault({})
      .describe('Redaction of secrets before text leaves mvnx.'),
    agent: z
      .strictObject({
        mode: z
          .enum(['off', 'escalate', 'always'])
          .default('off')
          .describe(
            'Agent mode: off; escalate (after a single-shot model attempt failed, the next model attempt is an agent session); always (every model attempt is one).',
          ),
        maxSteps: positiveInt
          .default(12)
          .describe('Tool calls (each one model call) an agent session may take; the model-call budget also caps it.'),
        toolCalling: z
          .enum(['auto', 'native', 'text'])
          .default('auto')
          .describe(
            "How the model calls tools: auto (native when the server supports it for the model, learned from Ollama's /api/show or the first refusal, else JSON in the text), native, or text.",
          ),
        maxCandidates: positiveInt
          .default(3)
          .describe(
            'Most candidate fixes one write_fix call may hold; each is built and tested, the first that passes is kept.',
          ),
        parallelBuilds: positiveInt
          .optional()
          .describe(
            'Candidate fixes built at the same time, each in its own workspace. Default: half the CPU cores, at least 1 (a Maven build keeps about two cores busy).',
          ),
      })
      .prefault({})
      .describe(
        'Agent mode: the model reads the code with tools (read_range, search_code_base, ...) through the states understand, collect and fix before writing a fix.',
      ),
    tools: z
      .array(commandToolSchema)
      .default([])
      .superRefine((tools, context) => {
        tools.forEach((tool, index) => {
          if (tools.findIndex((other) => other.name === tool.name) < index)
            context.addIssue({
              code: 'custom',
              path: [index, 'name'],
              message: `another command tool is already named ${tool.name}`,
            });
        });
      })
      .describe(
        'Command tools for agent mode (`mvnx tool add`): a program the agent may run on the code, such as a static analyser.',
      ),
    review: reviewSchema.prefault({}),
    rollout: rolloutSchema.prefault({}),
    publish: publishSchema,
    tests: z
      .strictObject({
        allowFailingTestEdits: z
          .boolean()
          .default(false)
          .describe(
            'Let a fix change the tests that failed (their assertions, expected values, statements, data or setup) and, while tests fail, the rest of the test side (helpers, test utilities, test resources, test-support modules) when the test itself may be wrong. Such a fix is always high risk, never applied by auto or assist.autoApplyLowRisk, and the console and run record say it edits the failing test. Disabling, skipping or deleting tests is never allowed.',
          ),
        flakyCheck: z
          .union([z.boolean(), z.enum(['beside', 'alone'])])
          .default(true)
          .describe(
            "Before repairing a test failure, re-run only the failing tests once on the unchanged code in the workspace; when they pass, stop with stop reason flaky and keep Maven's exit code. true or beside: the first model request is made beside the re-run, and when the tests pass it is cancelled, its reply never used, and the run record counts it in discardedModelCalls; alone: no model request, not even the load of the model ahead, until the re-run has failed again (for a shared model server under load); false: no re-run.",
          ),
      })
      .prefault({})
      .describe('How fixes that touch tests, and failures that may be flaky, are treated.'),
    // Verification speed (issue 17): what a candidate's build may reuse and leave out.
    verify: z
      .strictObject({
        scope: z
          .enum(['affected', 'full'])
          .default('affected')
          .describe(
            "affected: in the verdict build, modules the fix cannot affect (not touched, not failing, needing neither) keep the test results of your build when their tests all ran and passed there; the run record names them and the exact command. full: every module's tests run again.",
          ),
        tests: verifyTestsField,
        reuseOutputs: z
          .boolean()
          .default(true)
          .describe(
            'Copy the fresh build outputs of your build (target/ folders newer than every input of their module) into the workspace, so unaffected modules are not compiled again. Modules the fix can affect are always rebuilt from clean.',
          ),
        quickJvm: z
          .boolean()
          .default(true)
          .describe(
            "Start verification JVMs with -XX:+UseSerialGC -Xshare:auto, and Maven's own also with -XX:TieredStopAtLevel=1 (MAVEN_OPTS; Surefire's forks through -DargLine when the project sets no argLine and uses no JaCoCo, else appended to the <argLine> its poms write, in the workspace copy only), and Maven's own with a class-data archive of Maven made once per JDK and Maven by the flaky check (kept in ~/.cache/mvnx/cds; HotSpot JDK 13 or later only, not for container builds); flags the project or MAVEN_OPTS already decide are left alone.",
          ),
        behaviourCheck: z
          .boolean()
          .optional()
          .describe(
            "Default true. After a candidate passed while tests failed: call the methods it changed on your build's classes and on the patched ones over the failing tests' inputs and their neighbours, and run the failing tests a second time in one JVM (each on its own, in reverse order); a fix whose behaviour moves only at the tests' own inputs, or that works only the first time, is rejected as test-special-casing. false: neither runs (for measuring what they cost; the static checks still apply).",
          ),
        parallel: z
          .union([z.literal('auto'), z.number().int().min(1).max(8)])
          .default('auto')
          .describe(
            'Candidate fixes verified at once, each in its own workspace, when several are ready (the others stop when one verifies). auto: half the processors, at most 4 (1 on a 2-core machine).',
          ),
      })
      .prefault({})
      .describe('How candidate fixes are verified: what is reused from your build and what runs again.'),
    plugins: z
      .array(
        z
          .string()
          .min(1)
          .describe('An npm package name (resolved from the project) or a path relative to this config file.'),
      )
      .optional()
      .describe('Plugins adding fixers and reporters (see docs/plugins.md); loaded only once a build failed.'),
  })
  .describe('mvnx configuration (.mvnxrc.yaml and friends).');

export type ConfigInput = z.input<typeof configSchema>;
export type ParsedConfig = z.output<typeof configSchema>;
export type RuleConfig = z.output<typeof ruleSchema>;
export type BudgetConfig = z.output<typeof budgetSchema>;
export type RiskConfig = z.output<typeof riskSchema>;
export type ModelConfig = z.output<typeof modelSchema>;
export type Risk = 'low' | 'medium' | 'high';
export type PromoteConfig = z.output<typeof promoteSchema>;

/** Fields that describe where a config comes from, not what it says. */
export type PolicyConfig = Omit<ParsedConfig, '$schema' | 'extends'> & { model: ModelConfig & { host: string } };

export interface EffectiveConfig extends PolicyConfig {
  /**
   * Field path (`model.name`, `rules[0].tier`) -> who set it: a file, `env MVNX_TIER`, `flag --mvnx-tier`, `default`.
   */
  sources: Record<string, string>;
  /** Config files read, base first (presets, extended files, the discovered or given file). */
  files: string[];
}
