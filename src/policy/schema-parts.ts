/**
 * The parts the config schema (schema.ts) is made of: the vocabulary (tiers, change types,
 * the default protected paths and model) and the schema of each section (a path rule, the
 * patch limits, risk, budget, the model, guidelines, review, promotion, command tools).
 * schema.ts puts them together and is the one description of a config file.
 */
import { z } from 'zod';
import { commandProblem } from './command-line.js';
import { fleetModelFields } from './fleet-schema.js';
import { rulePublishSchema } from './publish-schema.js';

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

export const tier = z.enum(TIERS);
export const changeType = z.enum(CHANGE_TYPES);
export const glob = z
  .string()
  .min(1)
  .describe('A glob (minimatch syntax, dotfiles included) relative to the project root, forward slashes.');
export const positiveInt = z.number().int().positive();

export const ruleSchema = z
  .strictObject({
    paths: z.array(glob).min(1).describe('Globs this rule applies to, relative to the project root.'),
    modules: z
      .array(z.string().min(1).describe('A Maven artifactId.'))
      .optional()
      .describe('Only apply the rule when the patch is in one of these modules (artifactIds).'),
    tier: tier
      .optional()
      .describe('Tier for matching paths. When a patch touches several paths, the strictest tier wins.'),
    allowedChanges: z
      .array(changeType)
      .optional()
      .describe('Change types allowed on matching paths; narrows the global allowedChanges.'),
    protected: z
      .boolean()
      .optional()
      .describe(
        "true: matching paths may never be patched. false: lift the protectedPaths entries written exactly like this rule's paths.",
      ),
    maxAttempts: positiveInt.optional().describe('Cap on repair attempts when a diagnosed file matches this rule.'),
    description: z
      .string()
      .optional()
      .describe('Why the rule exists; shown by `mvnx explain` and in decision reasons.'),
    publish: rulePublishSchema.optional(),
  })
  .describe(
    'A rule mapping part of the codebase to a tier and limits. Later rules override earlier ones for the same path.',
  );

export const patchSchema = z
  .strictObject({
    ignoreWhitespace: z
      .boolean()
      .default(false)
      .describe(
        "Match context and removed lines of a model patch ignoring whitespace differences (the replacement is re-indented to the file). Off by default: an exact match never changes a hunk's meaning.",
      ),
    allowTabSpaceContext: z
      .boolean()
      .default(true)
      .describe('Let tabs in the file match spaces in the patch context (and the reverse).'),
    allowNonUtf8: z.boolean().default(false).describe('Allow patching files that are not valid UTF-8.'),
    maxFilesTouched: positiveInt.default(5).describe('A patch touching more files than this is rejected.'),
    maxLinesChanged: positiveInt
      .default(200)
      .describe('A patch changing more lines (added + removed) than this is rejected.'),
    maxFileBytes: positiveInt
      .default(1_048_576)
      .describe('A patch that would write a file larger than this many bytes is rejected.'),
    maxChangeSetBytes: positiveInt
      .default(4_194_304)
      .describe(
        'A patch that would write more than this many bytes in all is rejected; a model reply over twice this is not read.',
      ),
    maxLineLength: positiveInt
      .default(2_000)
      .describe('A patch adding a line longer than this many characters is rejected.'),
  })
  .describe('Limits and tolerances applied when a patch is validated.');

export const riskSchema = z
  .strictObject({
    lowMaxLines: z
      .number()
      .int()
      .nonnegative()
      .default(10)
      .describe('A low-risk patch changes at most this many lines (added + removed).'),
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
      .describe(
        'true: a patch is low risk only when every changed line is a log statement, comment, import, blank line or string-literal change (and it is within the low limits). false: the low limits alone decide.',
      ),
  })
  .describe('How a verified patch is classed as low, medium or high risk.');

const budgetLimits = {
  maxAttempts: positiveInt.describe('Repair attempts (each one a patch built in the workspace).'),
  maxModelCalls: positiveInt.describe('Calls to the code model across all attempts.'),
  maxWallSeconds: positiveInt.describe('Wall-clock seconds for the whole repair.'),
  perAttemptTimeoutSeconds: positiveInt.describe('Seconds one attempt (model call + verification build) may take.'),
};

export const budgetSchema = z
  .strictObject({
    maxAttempts: budgetLimits.maxAttempts.default(3),
    maxModelCalls: budgetLimits.maxModelCalls.default(6),
    maxWallSeconds: budgetLimits.maxWallSeconds.default(300),
    perAttemptTimeoutSeconds: budgetLimits.perAttemptTimeoutSeconds.default(120),
    dynamic: z
      .boolean()
      .default(true)
      .describe(
        "Scale the budget with the failure's complexity and grow it after attempts that made progress, up to hardCap.",
      ),
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
  .describe(
    'How much work one repair may do. The values are the budget for a simple failure (one diagnostic, one file, one module).',
  );

export const modelSchema = z
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
      .describe(
        'Context window in tokens that a repair prompt is packed for: the failure, then the code ranked by relevance, leaving 2048 tokens for the answer. Capped by numCtx when that is set.',
      ),
    numCtx: positiveInt
      .min(2560)
      .optional()
      .describe(
        'Largest context window mvnx asks Ollama to allocate (num_ctx); each call asks for just enough for its prompt and answer. Default: contextTokens. At least 2560, like contextTokens, which it caps.',
      ),
    timeoutSeconds: positiveInt.default(120).describe('Seconds one model call may take.'),
    keepAlive: z
      .union([z.string().min(1), z.number()])
      .default('10m')
      .describe('How long the server keeps the model loaded (Ollama keep_alive, e.g. "10m" or seconds).'),
    editFormat: z
      .enum(['diff', 'search-replace', 'json'])
      .default('diff')
      .describe('The edit format the model is asked to answer in.'),
    apiKeyEnv: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Name of the environment variable holding the API key (openai-compatible). The key itself never goes in a config file.',
      ),
  })
  .describe('The code model that proposes patches.');

export const guidelinesSchema = z
  .union([
    z.string().describe('The guidelines as text.'),
    z
      .strictObject({
        file: z.string().min(1).describe('Path of a file holding the guidelines, relative to the config file.'),
      })
      .describe('Guidelines read from a file.'),
  ])
  .describe("A team's coding rules, passed to the model: text, or {file: path}.");

// Rollout loop (docs/rollout.md): posting suggestions on pull/merge requests, and the evidence a module needs to move
// up a tier.
const percent = z.number().min(0).max(100);

export const reviewSchema = z
  .strictObject({
    post: z
      .boolean()
      .default(true)
      .describe(
        'In CI on a pull/merge request, under assist, post a verified fix as review suggestions on the changed lines, and update that review on the next run.',
      ),
    gitlabTokenEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .default('MVNX_GITLAB_TOKEN')
      .describe(
        'Name of the CI variable holding a GitLab project access token (scope api) for merge request suggestions. GitHub uses GITHUB_TOKEN.',
      ),
  })
  .describe('Suggestions where reviewers work: GitHub pull request reviews and GitLab merge request discussions.');

export const promoteSchema = z
  .strictObject({
    windowDays: positiveInt
      .default(30)
      .describe('The evidence: runs of the last this many days (mvnx runs --advise --since overrides it).'),
    monitorToAssist: z
      .strictObject({
        minRuns: positiveInt.default(20).describe('Runs at monitor in the window.'),
        minFixRate: percent.default(50).describe('Percent of the repaired runs that ended with a verified fix.'),
        maxRegressions: z
          .number()
          .int()
          .nonnegative()
          .default(0)
          .describe('Attempts whose build broke a test that passed before.'),
        maxProviderUnavailable: percent
          .default(10)
          .describe('Percent of runs that stopped because the model server was not there.'),
      })
      .prefault({})
      .describe('Evidence for moving a module from monitor to assist.'),
    assistToAuto: z
      .strictObject({
        minSuggested: positiveInt.default(10).describe('Distinct verified fixes suggested at assist in the window.'),
        minTaken: percent.default(70).describe('Percent of those applied or adopted by people.'),
        maxReverted: z.number().int().nonnegative().default(0).describe('Taken fixes later undone in git history.'),
        maxRegressions: z
          .number()
          .int()
          .nonnegative()
          .default(0)
          .describe('Attempts whose build broke a test that passed before.'),
        minCoverage: percent
          .default(80)
          .describe(
            'JaCoCo line coverage the module needs when auto.requireCoverage is not set (when it is, that value counts).',
          ),
      })
      .prefault({})
      .describe(
        'Evidence for moving a module from assist to auto. A module at auto with more reverted fixes than maxReverted is advised back to assist.',
      ),
  })
  .describe("Thresholds of `mvnx runs --advise` and the report's promotion section.");

export const rolloutSchema = z
  .strictObject({ promote: promoteSchema.prefault({}) })
  .describe('Rolling mvnx out tier by tier.');

/** A regular expression source, checked when the config loads (not after Maven failed). */
export const regexSource = z
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
    name: z
      .string()
      .regex(COMMAND_TOOL_NAME, 'lower_snake_case, 2-40 characters, starting with a letter')
      .describe('The name the model calls it by, lower_snake_case.'),
    command: z
      .string()
      .min(1)
      .superRefine((command, context) => {
        const problem = commandProblem(command);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .describe(
        'The command line, split like a shell would (quotes kept together) but run without a shell. Placeholders: %FILE% %LINE% %CLASS% %MODULE% %WORKSPACE%.',
      ),
    description: z
      .string()
      .min(1)
      .optional()
      .describe('One line telling the model what the tool finds; default: the command.'),
    outputFormat: z
      .enum(['text', 'xml', 'sarif'])
      .default('text')
      .describe(
        'How to read its output: text as is; xml (SpotBugs, Checkstyle, PMD) and sarif reduced to `file:line: message` lines.',
      ),
    states: z
      .array(z.enum(COMMAND_TOOL_STATES))
      .min(1)
      .default(['understand', 'collect', 'fix'])
      .describe('Agent states in which the tool is offered.'),
    timeoutSeconds: positiveInt.max(3600).default(60).describe('Seconds one run may take.'),
  })
  .describe('A command tool.');
