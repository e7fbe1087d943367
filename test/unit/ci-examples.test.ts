/**
 * The CI examples parse as YAML and have the structure docs/rollout.md describes: a
 * repair job that runs only after a failed build and only with a .mvnxrc*, the run
 * records kept as an artifact, and a merge/pull request only for an applied fix under auto.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { configSchema } from '../../src/policy/schema.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const load = async (name: string) => {
  const text = await readFile(path.join(root, 'examples/ci', name), 'utf8');
  const document = parseDocument(text);
  expect(document.errors).toEqual([]);
  return { text, yaml: parse(text) as Record<string, unknown> };
};
const scriptOf = (lines: unknown) => (Array.isArray(lines) ? lines.join('\n') : String(lines));

describe('examples/ci/gitlab-ci.yml', async () => {
  const { yaml, text } = await load('gitlab-ci.yml');
  const build = yaml.build as Record<string, unknown>;
  const repair = yaml['mvnx-repair'] as Record<string, unknown>;

  it('has a build job and a later mvnx-repair job', () => {
    expect(yaml.stages).toEqual(['build', 'repair']);
    expect(build.stage).toBe('build');
    expect(scriptOf(build.script)).toContain('mvn -B verify');
    expect(repair.stage).toBe('repair');
  });

  it('runs the repair only on failure and only where a .mvnxrc* exists', () => {
    expect(repair.rules).toEqual([{ exists: ['.mvnxrc', '.mvnxrc.*'], when: 'on_failure' }]);
  });

  it('keeps .mvnx/runs/ as an artifact even though the job fails', () => {
    expect(repair.artifacts).toMatchObject({ when: 'always', paths: expect.arrayContaining(['.mvnx/runs/']) });
  });

  it('prints the run record with --mvnx-json and publishes with mvnx publish only for a fix under auto, with no git or forge shell', () => {
    const script = scriptOf(repair.script);
    expect(script).toContain('mvnx -B verify --mvnx-json');
    expect(script).toMatch(
      /if \[ "\$\(field tier\)" = auto \] && \[ "\$\(field status\)" = fixed \]; then\s+mvnx publish "\$run_id"/,
    );
    expect(repair.variables).toEqual({ MVNX_PUBLISH: 'false' });
    expect(script).toContain('mvnx apply $run_id');
    expect(text).not.toMatch(/git (switch|commit|push)|merge_request\.create|curl[^\n]*merge_requests/);
  });

  it('writes SARIF, keeps it, and posts merge request suggestions with the token variable named in config', () => {
    expect(scriptOf(repair.script)).toContain('mvnx -B verify --mvnx-json --mvnx-sarif=mvnx.sarif');
    expect((repair.artifacts as { paths: string[] }).paths).toContain('mvnx.sarif');
    expect(text).toContain('MVNX_GITLAB_TOKEN');
    expect(configSchema.parse({}).review.gitlabTokenEnv).toBe('MVNX_GITLAB_TOKEN');
    // Suggestions need merge request pipelines (CI_MERGE_REQUEST_IID), without doubling branch pipelines.
    expect((yaml.workflow as { rules: unknown[] }).rules[0]).toEqual({
      if: '$CI_PIPELINE_SOURCE == "merge_request_event"',
    });
  });

  it("records outcomes after a passing build, with the history and the branch's run records", () => {
    const outcomes = yaml['mvnx-outcomes'] as Record<string, unknown>;
    expect(outcomes.rules).toEqual([{ exists: ['.mvnxrc', '.mvnxrc.*'], when: 'on_success' }]);
    expect(scriptOf(outcomes.script)).toContain('mvnx runs --reconcile');
    const shared = yaml['.mvnx-records'] as {
      variables: Record<string, string>;
      cache: { key: string; paths: string[]; when?: string }[];
    };
    expect(shared.variables.GIT_DEPTH).toBe('0');
    expect(shared.cache).toContainEqual({
      key: 'mvnx-runs-$CI_COMMIT_REF_SLUG',
      paths: ['.mvnx/runs/'],
      when: 'always',
    });
    expect(repair.extends).toBe('.mvnx-records');
    expect(outcomes.extends).toBe('.mvnx-records');
  });

  it('reaches the model through a service named in MVNX_HOST', () => {
    expect((yaml.variables as Record<string, string>).MVNX_HOST).toBe('http://ollama:11434');
    expect(repair.services).toEqual([{ name: 'ollama/ollama:latest', alias: 'ollama' }]);
  });
});

describe('examples/ci/github-actions.yml', async () => {
  const { yaml } = await load('github-actions.yml');
  const job = (yaml.jobs as Record<string, Record<string, unknown>>).build!;
  const steps = job.steps as Record<string, unknown>[];
  const step = (name: string) => {
    const found = steps.find((candidate) => candidate.name === name);
    expect(found, name).toBeDefined();
    return found!;
  };

  it('builds with plain Maven first', () => {
    expect(step('Build').run).toBe('mvn -B verify');
    expect(steps.indexOf(step('Build'))).toBeLessThan(steps.indexOf(step('Repair with mvnx')));
  });

  it('repairs only after a failure and only where a .mvnxrc* exists, with --mvnx-json, SARIF and the token for review suggestions', () => {
    const repair = step('Repair with mvnx');
    expect(repair.if).toBe("failure() && hashFiles('.mvnxrc*') != ''");
    expect(repair.run).toContain('mvnx -B verify --mvnx-json --mvnx-sarif=mvnx.sarif');
    expect(repair.id).toBe('repair');
    expect(repair.env).toEqual({ GITHUB_TOKEN: '${{ github.token }}', MVNX_PUBLISH: 'false' });
  });

  it('uploads the SARIF to code scanning', () => {
    const upload = step('Show the failure and the fix in code scanning');
    expect(upload.uses).toMatch(/^github\/codeql-action\/upload-sarif@v3/);
    expect(upload.with).toEqual({ sarif_file: 'mvnx.sarif', category: 'mvnx' });
    expect(steps.indexOf(upload)).toBeGreaterThan(steps.indexOf(step('Repair with mvnx')));
  });

  it("records outcomes on every build, from the whole history and the branch's cached run records", () => {
    expect(steps[0]).toMatchObject({ uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } });
    const reconcile = step('Record what became of earlier suggestions');
    expect(reconcile.if).toBe("always() && hashFiles('.mvnxrc*') != ''");
    expect(reconcile.run).toContain('mvnx runs --reconcile');
    const restore = step('Restore the mvnx run records');
    const save = step('Save the mvnx run records for the next build of this branch');
    expect(restore.uses).toBe('actions/cache/restore@v4');
    expect(save.uses).toBe('actions/cache/save@v4');
    expect(save.if).toContain('always()');
    expect((save.with as Record<string, string>).key).toBe((restore.with as Record<string, string>).key);
    expect(steps.indexOf(restore)).toBeLessThan(steps.indexOf(step('Build')));
  });

  it('uploads .mvnx/runs/ with hidden files included, passing builds too', () => {
    const upload = step('Keep the mvnx run records');
    expect(upload.uses).toMatch(/^actions\/upload-artifact@v4/);
    expect(upload.if).toContain('always()');
    const withs = upload.with as Record<string, unknown>;
    expect(String(withs.path).split('\n')).toContain('.mvnx/runs/');
    expect(withs['include-hidden-files']).toBe(true);
  });

  it('publishes with mvnx publish only for a fix under auto, and holds no git or gh shell', () => {
    const pr = step('Publish the verified fix as a pull request');
    expect(pr.if).toBe("failure() && steps.repair.outputs.tier == 'auto' && steps.repair.outputs.status == 'fixed'");
    expect(pr.run).toBe('mvnx publish "$RUN_ID"');
    expect(pr.env).toEqual({ GITHUB_TOKEN: '${{ github.token }}', RUN_ID: '${{ steps.repair.outputs.run-id }}' });
    expect(JSON.stringify(steps)).not.toMatch(/gh pr|git (switch|commit|push)/);
    expect(yaml.permissions).toEqual({ contents: 'write', 'pull-requests': 'write', 'security-events': 'write' });
  });
});

describe('docs/rollout.md', async () => {
  const guide = await readFile(path.join(root, 'docs/rollout.md'), 'utf8');
  it('describes the examples as they are', () => {
    for (const claim of [
      'examples/ci/gitlab-ci.yml',
      'examples/ci/github-actions.yml',
      'mvnx-repair',
      'mvnx-outcomes',
      'when: on_failure',
      '.mvnx/runs/',
      'mvnx publish',
      'publish.merge',
      'when-checks-pass',
      '--mvnx-json',
      '--mvnx-sarif',
      'upload-sarif',
      'MVNX_GITLAB_TOKEN',
      'GITHUB_TOKEN',
      'CI=true',
    ]) {
      expect(guide, claim).toContain(claim);
    }
  });
  it('names the preset and the commands it relies on', () => {
    for (const claim of [
      'enterprise-tiered',
      'mvnx runs --stats',
      '--since',
      'mvnx hook install',
      'git push --no-verify',
      'mvnx apply',
      'mvnx runs --reconcile',
      'mvnx runs --advise',
      'mvnx report --html',
      '--from',
      'rollout.promote',
      'adopted',
      'superseded',
      'reverted',
    ])
      expect(guide, claim).toContain(claim);
  });
});
