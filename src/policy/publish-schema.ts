/**
 * The config section `publish` and the per-rule `publish.merge` switch, as zod schemas:
 * apart from the decisions (publish.ts), which read the path rules, so that the config
 * schema (schema.ts) takes them without importing the decisions. Import them from publish.ts.
 */
import { z } from 'zod';

export const MERGE_MODES = ['off', 'when-checks-pass'] as const;
export type MergeMode = (typeof MERGE_MODES)[number];

const mergeMode = z
  .enum(MERGE_MODES)
  .describe(
    "off: the request waits for a person. when-checks-pass: enable the forge's own auto-merge (GitHub enablePullRequestAutoMerge, GitLab merge when the pipeline succeeds), only where the target branch has required checks.",
  );

/** Where a fix of a dependency bot's pull request goes (update-branch.ts decides; report/publish/ writes). */
export const UPDATE_BRANCH_MODES = ['off', 'pull-request', 'commit'] as const;
export type UpdateBranchMode = (typeof UPDATE_BRANCH_MODES)[number];

const updateBranchMode = z
  .enum(UPDATE_BRANCH_MODES)
  .describe(
    "On a dependency bot's pull request (publish.botBranches) whose failure is the update's: commit: one commit on top of the bot's head, never a force-push, refused when the head moved since the build; pull-request: a request into the bot's branch, for a job that may not push there; off: the usual request against the built branch.",
  );

export const rulePublishSchema = z
  .strictObject({ merge: mergeMode.optional(), updateBranch: updateBranchMode.optional() })
  .describe('What a published fix to matching paths may do; a later rule overrides an earlier one.');

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');

export const publishSchema = z
  .strictObject({
    auto: z
      .boolean()
      .default(true)
      .describe(
        'Under tier auto in CI, publish a verified fix the policy lets auto take as a branch, one commit and a pull/merge request (`mvnx publish RUN_ID` does it for a recorded run).',
      ),
    forge: z
      .enum(['detect', 'github', 'gitlab'])
      .default('detect')
      .describe('Where requests go; detect: GitHub Actions or GitLab CI from the environment.'),
    baseUrl: z
      .string()
      .url()
      .optional()
      .describe(
        'API root for GitHub Enterprise (https://host/api/v3) or self-managed GitLab (https://host/api/v4); default from the CI environment.',
      ),
    pushUrl: z
      .string()
      .min(1)
      .optional()
      .describe('Git URL the branch is pushed to; default: the CI repository over HTTPS with the token.'),
    tokenEnv: envName
      .optional()
      .describe(
        'Variable holding the token for the push and the API; default GITHUB_TOKEN on GitHub, MVNX_GITLAB_TOKEN on GitLab (a project access token with scopes api and write_repository).',
      ),
    merge: mergeMode.default('off'),
    updateBranch: updateBranchMode.default('off'),
    botBranches: z
      .array(z.string().min(1))
      .default(['dependabot/**', 'renovate/**'])
      .describe(
        "Branch-name globs of dependency bots' pull requests (Dependabot's dependabot/..., Renovate's renovate/... by default); add your own bot's prefix here.",
      ),
  })
  .prefault({})
  .describe('Verified fixes as pull/merge requests, and whether the forge may merge them on its own.');

export type PublishConfig = z.output<typeof publishSchema>;
