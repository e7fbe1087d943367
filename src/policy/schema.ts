/**
 * The one description of an mvnx config file. Validation, defaults, the `EffectiveConfig`
 * type and `schema.json` (scripts/write-schema.mjs) all come from this schema, so a field
 * exists here or nowhere. Every field carries a description because editors show it.
 */
import { z } from 'zod';
import { commandProblem } from './command-line.js';
import { fleetModelFields, telemetrySchema } from './fleet-schema.js';
import { publishSchema, rulePublishSchema } from './publish-schema.js';
import { verifyTestsField } from './verify-tests.js';

export const TIERS = ['off', 'monitor', 'assist', 'auto'] as const;
export type Tier = (typeof TIERS)[number];

export const CHANGE_TYPES = [
  'edit-main-source',
  'edit-test-source',
  'edit-build-file',
  'edit-resource',
  'edit-other',
  'add-file',
  'delete-file',
  'rename',
  'mode-change',
  'binary',
  'add-dependency',
] as const;

export const DEFAULT_PROTECTED_PATHS = [
  'pom.xml',
  '**/pom.xml',
  '.mvn/**',
  '**/.mvn/**',
  'mvnw*',
  '.github/**',
  '.gitlab-ci.yml',
  '**/src/main/resources/db/migration/**',
  '.mvnxrc*',
];

export const DEFAULT_MODEL_HOST = 'http://127.0.0.1:11434';
export const DEFAULT_MODEL_NAME = 'qwen2.5-coder:7b';

const tier = z.enum(TIERS);
const changeType = z.enum(CHANGE_TYPES);
const glob = z.string().min(1).describe('A glob (minimatch syntax, dotfiles included) relative to the project root, forward slashes.');
const positiveInt = z.number().int().positive();

const ruleSchema = z
  .strictObject({
    paths: z.array(glob).min(1).describe('Globs this rule applies to, relative to the project root.'),
    modules: z.array(z.string().min(1).describe('A Maven artifactId.')).optional().describe('Only apply the rule when the patch is in one of these modules (artifactIds).'),
    tier: tier.optional().describe('Tier for matching paths. When a patch touches several paths, the strictest tier wins.'),
    allowedChanges: z.array(changeType).optional().describe('Change types allowed on matching paths; narrows the global allowedChanges.'),
    protected: z.boolean().optional().describe('true: matching paths may never be patched. false: lift the protectedPaths entries written exactly like this rule\'s paths.'),
    maxAttempts: positiveInt.optional().describe('Cap on repair attempts when a diagnosed file matches this rule.'),
    description: z.string().optional().describe('Why the rule exists; shown by `mvnx explain` and in decision reasons.'),
    publish: rulePublishSchema.optional(),
  })
  .describe('A rule mapping part of the codebase to a tier and limits. Later rules override earlier ones for the same path.');

const patchSchema = z
  .strictObject({
    ignoreWhitespace: z.boolean().default(false).describe('Match context and removed lines of a model patch ignoring whitespace differences (the replacement is re-indented to the file). Off by default: an exact match never changes a hunk\'s meaning.'),
    allowTabSpaceContext: z.boolean().default(true).describe('Let tabs in the file match spaces in the patch context (and the reverse).'),
    allowNonUtf8: z.boolean().default(false).describe('Allow patching files that are not valid UTF-8.'),
    maxFilesTouched: positiveInt.default(5).describe('A patch touching more files than this is rejected.'),
    maxLinesChanged: positiveInt.default(200).describe('A patch changing more lines (added + removed) than this is rejected.'),
    maxFileBytes: positiveInt.default(1_048_576).describe('A patch that would write a file larger than this many bytes is rejected.'),
    maxChangeSetBytes: positiveInt.default(4_194_304).describe('A patch that would write more than this many bytes in all is rejected; a model reply over twice this is not read.'),
    maxLineLength: positiveInt.default(2_000).describe('A patch adding a line longer than this many characters is rejected.'),
  })
  .describe('Limits and tolerances applied when a patch is validated.');

const riskSchema = z
  .strictObject({
    lowMaxLines: z.number().int().nonnegative().default(10).describe('A low-risk patch changes at most this many lines (added + removed).'),
    lowMaxFiles: positiveInt.default(2).describe('A low-risk patch touches at most this many files.'),
    highMinLines: positiveInt.default(60).describe('A patch changing more lines than this is high risk.'),
    highMinFiles: positiveInt.default(4).describe('A patch touching more files than this is high risk.'),
    highChangeTypes: z
      .array(changeType)
      .default(['edit-build-file', 'add-dependency', 'delete-file', 'rename', 'mode-change', 'binary'])
      .describe('Any of these change types makes a patch high risk.'),
    lowRequiresTrivialLines: z
      .boolean()
      .default(true)
      .describe('true: a patch is low risk only when every changed line is a log statement, comment, import, blank line or string-literal change (and it is within the low limits). false: the low limits alone decide.'),
  })
  .describe('How a verified patch is classed as low, medium or high risk.');

const budgetLimits = {
  maxAttempts: positiveInt.describe('Repair attempts (each one a patch built in the workspace).'),
  maxModelCalls: positiveInt.describe('Calls to the code model across all attempts.'),
  maxWallSeconds: positiveInt.describe('Wall-clock seconds for the whole repair.'),
  perAttemptTimeoutSeconds: positiveInt.describe('Seconds one attempt (model call + verification build) may take.'),
};

const budgetSchema = z
  .strictObject({
    maxAttempts: budgetLimits.maxAttempts.default(3),
    maxModelCalls: budgetLimits.maxModelCalls.default(6),
    maxWallSeconds: budgetLimits.maxWallSeconds.default(300),
    perAttemptTimeoutSeconds: budgetLimits.perAttemptTimeoutSeconds.default(120),
    dynamic: z.boolean().default(true).describe('Scale the budget with the failure\'s complexity and grow it after attempts that made progress, up to hardCap.'),
    hardCap: z
      .strictObject({
        maxAttempts: budgetLimits.maxAttempts.default(8),
        maxModelCalls: budgetLimits.maxModelCalls.default(16),
        maxWallSeconds: budgetLimits.maxWallSeconds.default(900),
        perAttemptTimeoutSeconds: budgetLimits.perAttemptTimeoutSeconds.default(300),
      })
      .prefault({})
      .describe('Limits a dynamic budget never exceeds. Each must be at least the matching base value.'),
  })
  .describe('How much work one repair may do. The values are the budget for a simple failure (one diagnostic, one file, one module).');

const modelSchema = z
  .strictObject({
    provider: z.enum(['ollama', 'openai-compatible']).default('ollama').describe('Model server API.'),
    name: z.string().min(1).default(DEFAULT_MODEL_NAME).describe('Model name as the server knows it.'),
    ...fleetModelFields,
    temperature: z.number().min(0).max(2).default(0).describe('Sampling temperature; 0 keeps repairs reproducible.'),
    seed: z.number().int().default(42).describe('Sampling seed, for reproducible answers.'),
    // Prompt context (issue 15): the window prompts are packed for, and Ollama's allocation cap.
    contextTokens: positiveInt
      .min(2560)
      .default(8192)
      .describe('Context window in tokens that a repair prompt is packed for: the failure, then the code ranked by relevance, leaving 2048 tokens for the answer. Capped by numCtx when that is set.'),
    numCtx: positiveInt
      .min(2560)
      .optional()
      .describe('Largest context window mvnx asks Ollama to allocate (num_ctx); each call asks for just enough for its prompt and answer. Default: contextTokens. At least 2560, like contextTokens, which it caps.'),
    timeoutSeconds: positiveInt.default(120).describe('Seconds one model call may take.'),
    keepAlive: z.union([z.string().min(1), z.number()]).default('10m').describe('How long the server keeps the model loaded (Ollama keep_alive, e.g. "10m" or seconds).'),
    editFormat: z.enum(['diff', 'search-replace', 'json']).default('diff').describe('The edit format the model is asked to answer in.'),
    apiKeyEnv: z.string().min(1).optional().describe('Name of the environment variable holding the API key (openai-compatible). The key itself never goes in a config file.'),
  })
  .describe('The code model that proposes patches.');

const guidelinesSchema = z
  .union([
    z.string().describe('The guidelines as text.'),
    z.strictObject({ file: z.string().min(1).describe('Path of a file holding the guidelines, relative to the config file.') }).describe('Guidelines read from a file.'),
  ])
  .describe("A team's coding rules, passed to the model: text, or {file: path}.");

// Rollout loop (docs/rollout.md): posting suggestions on pull/merge requests, and the evidence a module needs to move up a tier.
const percent = z.number().min(0).max(100);

const reviewSchema = z
  .strictObject({
    post: z.boolean().default(true).describe('In CI on a pull/merge request, under assist, post a verified fix as review suggestions on the changed lines, and update that review on the next run.'),
    gitlabTokenEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .default('MVNX_GITLAB_TOKEN')
      .describe('Name of the CI variable holding a GitLab project access token (scope api) for merge request suggestions. GitHub uses GITHUB_TOKEN.'),
  })
  .describe('Suggestions where reviewers work: GitHub pull request reviews and GitLab merge request discussions.');

const promoteSchema = z
  .strictObject({
    windowDays: positiveInt.default(30).describe('The evidence: runs of the last this many days (mvnx runs --advise --since overrides it).'),
    monitorToAssist: z
      .strictObject({
        minRuns: positiveInt.default(20).describe('Runs at monitor in the window.'),
        minFixRate: percent.default(50).describe('Percent of the repaired runs that ended with a verified fix.'),
        maxRegressions: z.number().int().nonnegative().default(0).describe('Attempts whose build broke a test that passed before.'),
        maxProviderUnavailable: percent.default(10).describe('Percent of runs that stopped because the model server was not there.'),
      })
      .prefault({})
      .describe('Evidence for moving a module from monitor to assist.'),
    assistToAuto: z
      .strictObject({
        minSuggested: positiveInt.default(10).describe('Distinct verified fixes suggested at assist in the window.'),
        minTaken: percent.default(70).describe('Percent of those applied or adopted by people.'),
        maxReverted: z.number().int().nonnegative().default(0).describe('Taken fixes later undone in git history.'),
        maxRegressions: z.number().int().nonnegative().default(0).describe('Attempts whose build broke a test that passed before.'),
        minCoverage: percent.default(80).describe('JaCoCo line coverage the module needs when auto.requireCoverage is not set (when it is, that value counts).'),
      })
      .prefault({})
      .describe('Evidence for moving a module from assist to auto. A module at auto with more reverted fixes than maxReverted is advised back to assist.'),
  })
  .describe('Thresholds of `mvnx runs --advise` and the report\'s promotion section.');

const rolloutSchema = z.strictObject({ promote: promoteSchema.prefault({}) }).describe('Rolling mvnx out tier by tier.');

/** A regular expression source, checked when the config loads (not after Maven failed). */
const regexSource = z
  .string()
  .min(1)
  .superRefine((source, ctx) => {
    try {
      new RegExp(source, 'g');
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `a valid regular expression (${(error as Error).message})` });
    }
  });

// Command tools (docs/tools.md): programs a team offers the agent without writing a plugin.
export const COMMAND_TOOL_NAME = /^[a-z][a-z0-9_]{1,39}$/;
export const COMMAND_TOOL_STATES = ['understand', 'collect', 'fix'] as const;
export const commandToolSchema = z
  .strictObject({
    name: z.string().regex(COMMAND_TOOL_NAME, 'lower_snake_case, 2-40 characters, starting with a letter').describe('The name the model calls it by, lower_snake_case.'),
    command: z
      .string()
      .min(1)
      .superRefine((command, context) => {
        const problem = commandProblem(command);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .describe('The command line, split like a shell would (quotes kept together) but run without a shell. Placeholders: %FILE% %LINE% %CLASS% %MODULE% %WORKSPACE%.'),
    description: z.string().min(1).optional().describe('One line telling the model what the tool finds; default: the command.'),
    outputFormat: z.enum(['text', 'xml', 'sarif']).default('text').describe('How to read its output: text as is; xml (SpotBugs, Checkstyle, PMD) and sarif reduced to `file:line: message` lines.'),
    states: z.array(z.enum(COMMAND_TOOL_STATES)).min(1).default(['understand', 'collect', 'fix']).describe('Agent states in which the tool is offered.'),
    timeoutSeconds: positiveInt.max(3600).default(60).describe('Seconds one run may take.'),
  })
  .describe('A command tool.');

export const configSchema = z
  .strictObject({
    $schema: z.string().optional().describe('JSON Schema of this file, for editors. Ignored by mvnx.'),
    extends: z
      .union([z.string().min(1).describe('One base.'), z.array(z.string().min(1).describe('A base.')).describe('Several bases, applied in order.')])
      .optional()
      .describe('Bases this config builds on: a preset (monitor, assist, auto, enterprise-tiered), a relative file path, or an npm package name. Rules append, scalars override, objects merge.'),
    tier: tier.default('assist').describe('Default tier: off (do nothing), monitor (record fixes), assist (suggest fixes), auto (apply verified fixes).'),
    rules: z.array(ruleSchema).default([]).describe('Ordered rules mapping paths and modules to tiers and limits.'),
    protectedPaths: z.array(glob).default(DEFAULT_PROTECTED_PATHS).describe('Globs a patch may never touch. Extending configs add to this list.'),
    allowedChanges: z.array(changeType).default(['edit-main-source', 'edit-test-source']).describe('Change types a patch may make.'),
    patch: patchSchema.prefault({}),
    risk: riskSchema.prefault({}),
    assist: z
      .strictObject({
        autoApplyLowRisk: z.boolean().default(false).describe('Under assist, apply a verified low-risk fix to the real tree instead of only suggesting it.'),
        promptOnTty: z.boolean().default(true).describe('Under assist on an interactive terminal, ask whether to apply a suggested fix.'),
      })
      .prefault({})
      .describe('Behaviour of the assist tier.'),
    auto: z
      .strictObject({
        requireCoverage: z.number().min(0).max(100).optional().describe('Auto applies only in modules whose JaCoCo line coverage (target/site/jacoco/jacoco.xml) is at least this percentage; elsewhere it drops to assist.'),
        maxRisk: z.enum(['low', 'medium', 'high']).default('high').describe('Auto applies fixes up to this risk; riskier fixes drop to assist.'),
        requireFullVerification: z
          .boolean()
          .default(false)
          .describe('When a run may apply a fix at auto, verify it with the whole command (verify.scope full); a fix verified with the affected-module form is never applied by auto.'),
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
          .array(z.enum(['compile', 'test', 'quality']).describe('compile: javac errors (and -Werror warnings, javadoc errors); test: Surefire/Failsafe failures; quality: checkstyle, PMD, spotbugs, formatter and license checks.'))
          .default(['compile', 'test', 'quality'])
          .describe('Failure kinds mvnx tries to repair.'),
        goals: z.array(z.string().min(1).describe('A Maven phase or goal.')).optional().describe('Only act when the Maven command line names one of these phases or goals. Unset: any.'),
      })
      .prefault({})
      .describe('Which failures and Maven invocations start a repair.'),
    maven: z
      .strictObject({
        executable: z.string().min(1).optional().describe('Maven to run (after --mvnx-maven and MVNX_MAVEN; before mvnw and mvn on PATH).'),
        offline: z.enum(['inherit', 'always']).default('inherit').describe('Verification builds: inherit the command line\'s -o, or always run offline.'),
      })
      .prefault({})
      .describe('How Maven is found and run.'),
    sandbox: z
      .strictObject({
        mode: z
          .enum(['auto', 'bwrap', 'podman', 'docker', 'none'])
          .default('auto')
          .describe('Isolation of verification builds: bwrap (bubblewrap), podman or docker (a container of sandbox.image), none, or auto (bwrap, then podman, then docker, else none with a warning). A named backend that cannot run stops the repair before the first model call. none written in a config file says the environment itself is the sandbox (an ephemeral CI container): only then does auto apply fixes verified without isolation.'),
        image: z
          .string()
          .min(1)
          .optional()
          .describe('Container image for docker/podman: a JDK and Maven matching the project (e.g. maven:3.9-eclipse-temurin-17; mvnx doctor suggests one). It must be present locally: verification never pulls.'),
        env: z
          .strictObject({
            pass: z
              .array(z.string().min(1).describe('A variable name, or a prefix ending in * (NAME_*).'))
              .default([])
              .describe('Environment variables a verification build may see besides PATH, HOME, JAVA_HOME, MAVEN_OPTS, MAVEN_ARGS, MAVEN_HOME, M2_HOME, MAVEN_USER_HOME, LANG, LC_*, TZ and TMPDIR. A name containing TOKEN, SECRET, PASSWORD, PASSWD, KEY or CREDENTIAL passes only when written out in full.'),
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
        enabled: z.boolean().default(true).describe('Remove secrets (well-known token shapes, password assignments, and the values of secret-looking environment variables and settings.xml passwords) from everything mvnx sends or writes: model requests, the console, the run record and its prompt files, reporters.'),
        patterns: z.array(regexSource.describe('A JavaScript regular expression source.')).optional().describe('Extra regular expressions whose matches are redacted.'),
      })
      .prefault({})
      .describe('Redaction of secrets before text leaves mvnx.'),
    agent: z
      .strictObject({
        mode: z
          .enum(['off', 'escalate', 'always'])
          .default('off')
          .describe('Agent mode: off; escalate (after a single-shot model attempt failed, the next model attempt is an agent session); always (every model attempt is one).'),
        maxSteps: positiveInt.default(12).describe('Tool calls (each one model call) an agent session may take; the model-call budget also caps it.'),
        toolCalling: z
          .enum(['auto', 'native', 'text'])
          .default('auto')
          .describe("How the model calls tools: auto (native when the server supports it for the model, learned from Ollama's /api/show or the first refusal, else JSON in the text), native, or text."),
        maxCandidates: positiveInt.default(3).describe('Most candidate fixes one write_fix call may hold; each is built and tested, the first that passes is kept.'),
        parallelBuilds: positiveInt
          .optional()
          .describe('Candidate fixes built at the same time, each in its own workspace. Default: half the CPU cores, at least 1 (a Maven build keeps about two cores busy).'),
      })
      .prefault({})
      .describe('Agent mode: the model reads the code with tools (read_range, search_code_base, ...) through the states understand, collect and fix before writing a fix.'),
    tools: z
      .array(commandToolSchema)
      .default([])
      .superRefine((tools, context) => {
        tools.forEach((tool, index) => {
          if (tools.findIndex((other) => other.name === tool.name) < index) context.addIssue({ code: 'custom', path: [index, 'name'], message: `another command tool is already named ${tool.name}` });
        });
      })
      .describe('Command tools for agent mode (`mvnx tool add`): a program the agent may run on the code, such as a static analyser.'),
    review: reviewSchema.prefault({}), rollout: rolloutSchema.prefault({}), publish: publishSchema,
    tests: z
      .strictObject({
        allowFailingTestEdits: z
          .boolean()
          .default(false)
          .describe('Let a fix change the tests that failed (their assertions, expected values, statements, data or setup) and, while tests fail, the rest of the test side (helpers, test utilities, test resources, test-support modules) when the test itself may be wrong. Such a fix is always high risk, never applied by auto or assist.autoApplyLowRisk, and the console and run record say it edits the failing test. Disabling, skipping or deleting tests is never allowed.'),
        flakyCheck: z
          .boolean()
          .default(true)
          .describe('Before repairing a test failure, re-run only the failing tests once on the unchanged code in the workspace; when they pass, stop with stop reason flaky (the first model request, made beside the re-run, is cancelled and unused) and keep Maven\'s exit code.'),
      })
      .prefault({})
      .describe('How fixes that touch tests, and failures that may be flaky, are treated.'),
    // Verification speed (issue 17): what a candidate's build may reuse and leave out.
    verify: z
      .strictObject({
        scope: z
          .enum(['affected', 'full'])
          .default('affected')
          .describe('affected: in the verdict build, modules the fix cannot affect (not touched, not failing, needing neither) keep the test results of your build when their tests all ran and passed there; the run record names them and the exact command. full: every module\'s tests run again.'),
        tests: verifyTestsField,
        reuseOutputs: z
          .boolean()
          .default(true)
          .describe('Copy the fresh build outputs of your build (target/ folders newer than every input of their module) into the workspace, so unaffected modules are not compiled again. Modules the fix can affect are always rebuilt from clean.'),
        quickJvm: z
          .boolean()
          .default(true)
          .describe('Start verification JVMs with -XX:+UseSerialGC -Xshare:auto, and Maven\'s own also with -XX:TieredStopAtLevel=1 (MAVEN_OPTS; Surefire\'s forks through -DargLine when the project sets no argLine and uses no JaCoCo, else appended to the <argLine> its poms write, in the workspace copy only), and Maven\'s own with a class-data archive of Maven made once per JDK and Maven by the flaky check (kept in ~/.cache/mvnx/cds; HotSpot JDK 13 or later only, not for container builds); flags the project or MAVEN_OPTS already decide are left alone.'),
        parallel: z
          .union([z.literal('auto'), z.number().int().min(1).max(8)])
          .default('auto')
          .describe('Candidate fixes verified at once, each in its own workspace, when several are ready (the others stop when one verifies). auto: half the processors, at most 4 (1 on a 2-core machine).'),
      })
      .prefault({})
      .describe('How candidate fixes are verified: what is reused from your build and what runs again.'),
    plugins: z
      .array(z.string().min(1).describe('An npm package name (resolved from the project) or a path relative to this config file.'))
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
  /** Field path (`model.name`, `rules[0].tier`) -> who set it: a file, `env MVNX_TIER`, `flag --mvnx-tier`, `default`. */
  sources: Record<string, string>;
  /** Config files read, base first (presets, extended files, the discovered or given file). */
  files: string[];
}
