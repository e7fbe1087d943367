/**
 * The split GitHub Actions templates for a dependency bot's pull request (issue 43), read as YAML: the workflow that
 * builds the pull request's code holds no write token and no secret; the one that holds `contents: write` runs on
 * `workflow_run`, checks out the default branch and builds nothing.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[]; if?: string }>;
}
const read = async (name: string) => {
  const text = await readFile(path.join(root, 'examples/ci', name), 'utf8');
  return { text, yaml: parse(text) as Workflow };
};

describe('examples/ci/github-dependency-update-repair.yml (builds the pull request)', async () => {
  const { text, yaml } = await read('github-dependency-update-repair.yml');
  const steps = Object.values(yaml.jobs).flatMap((job) => job.steps);

  it('runs on pull_request with contents: read only, and no job widens it', () => {
    expect(Object.keys(yaml.on)).toEqual(['pull_request']);
    expect(yaml.permissions).toEqual({ contents: 'read' });
    for (const job of Object.values(yaml.jobs)) expect(job.permissions).toBeUndefined();
  });

  it('holds no token and no secret in any step, and keeps none in .git/config', () => {
    // The workflow as GitHub reads it (comments aside): no expression or variable that hands a token over.
    expect(JSON.stringify(yaml)).not.toMatch(/secrets\.|github\.token|GITHUB_TOKEN|"write"/);
    expect(text).toContain('contents: read');
    for (const step of steps) expect(JSON.stringify(step.env ?? {})).not.toMatch(/TOKEN|secrets/i);
    const checkout = steps.find((step) => step.uses?.startsWith('actions/checkout'));
    expect(checkout?.with).toMatchObject({ 'persist-credentials': false });
  });

  it('records only (MVNX_PUBLISH=false) and uploads run.json and fix.patch as mvnx-update-fix', () => {
    const repair = steps.find((step) => step.name === 'Repair with mvnx')!;
    expect(repair.env).toEqual({ MVNX_PUBLISH: 'false' });
    expect(steps.find((step) => step.name === 'Collect the verified fix')?.run).toContain('fix.patch');
    const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact'));
    expect(upload?.with).toMatchObject({ name: 'mvnx-update-fix', path: 'mvnx-update-fix/' });
  });
});

describe('examples/ci/github-dependency-update-publish.yml (holds the write token)', async () => {
  const { yaml } = await read('github-dependency-update-publish.yml');
  const repair = await read('github-dependency-update-repair.yml');
  const steps = Object.values(yaml.jobs).flatMap((job) => job.steps);

  it('runs on workflow_run of the repair workflow, never on the pull request itself', () => {
    expect(Object.keys(yaml.on)).toEqual(['workflow_run']);
    expect(yaml.on.workflow_run).toEqual({ workflows: [repair.yaml.name], types: ['completed'] });
    expect(yaml.permissions).toEqual({ contents: 'write', 'pull-requests': 'write', actions: 'read' });
  });

  it('checks out the default branch (no ref of the pull request) and builds or runs nothing from it', () => {
    const checkout = steps.find((step) => step.uses?.startsWith('actions/checkout'));
    expect(checkout?.with).not.toHaveProperty('ref');
    const scripts = steps.map((step) => step.run ?? '').join('\n');
    expect(scripts).not.toMatch(/\bmvn\b|mvnw|mvnx\s+-B|\bverify\b|gradle|npm (test|run)/);
    expect(scripts).toContain('mvnx publish --from mvnx-update-fix');
    const download = steps.find((step) => step.uses?.startsWith('actions/download-artifact'));
    expect(download?.with).toMatchObject({ name: 'mvnx-update-fix', 'run-id': '${{ github.event.workflow_run.id }}' });
  });
});

interface GitlabJob {
  stage: string;
  rules?: { if?: string; when?: string }[];
  needs?: { job: string; artifacts: boolean }[];
  environment?: { name: string };
  variables?: Record<string, string>;
  before_script?: string[];
  script: string[];
  services?: unknown[];
  artifacts?: { when?: string; paths?: string[] };
}

describe('examples/ci/gitlab-dependency-update.yml (one pipeline, two jobs)', async () => {
  const text = await readFile(path.join(root, 'examples/ci/gitlab-dependency-update.yml'), 'utf8');
  const yaml = parse(text) as Record<string, unknown> & { default: Record<string, unknown> };
  const repair = yaml['mvnx-update-repair'] as GitlabJob;
  const publish = yaml['mvnx-update-publish'] as GitlabJob;
  // The header, as one line of prose: what it tells a team to set up.
  const comments = text
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^#\s*/, ''))
    .join(' ')
    .replace(/\s+/g, ' ');

  it('the job that builds the merge request holds no write token: no token variable, no environment, no publish', () => {
    // Everything the job runs or sets, as GitLab reads it.
    const said = JSON.stringify(repair);
    expect(said).not.toMatch(/MVNX_GITLAB_TOKEN|CI_JOB_TOKEN|PRIVATE-TOKEN|TOKEN|mvnx publish|git push/);
    // The token reaches only jobs of its environment scope: this job has none, the default neither.
    expect(repair.environment).toBeUndefined();
    expect(yaml.default).not.toHaveProperty('environment');
    expect(yaml).not.toHaveProperty('variables');
    expect(repair.variables?.MVNX_PUBLISH).toBe('false');
    expect(repair.script.join('\n')).toContain('mvn -B verify');
    expect(repair.artifacts).toEqual({ when: 'on_failure', expire_in: '3 days', paths: ['mvnx-update-fix/'] });
    // Job-token pushes are a project setting, off by default: the template says to keep it off.
    expect(comments).toContain('"Allow Git push requests to the repository" is on (off by default; keep it off)');
  });

  it('the job that holds the token is the only one in its environment, checks out the default branch and builds nothing', () => {
    const jobs = Object.entries(yaml).filter(([, job]) => typeof job === 'object' && job && 'script' in job);
    expect(jobs.map(([name]) => name)).toEqual(['mvnx-update-repair', 'mvnx-update-publish']);
    expect(jobs.filter(([, job]) => (job as GitlabJob).environment).map(([name]) => name)).toEqual([
      'mvnx-update-publish',
    ]);
    expect(publish.environment).toEqual({ name: 'mvnx-publish' });
    expect(comments).toMatch(/MVNX_GITLAB_TOKEN: [^.]*; Environment scope `mvnx-publish`\./);
    expect(publish.needs).toEqual([{ job: 'mvnx-update-repair', artifacts: true }]);
    expect(publish.rules?.[0]?.when).toBe('on_failure');
    expect(publish.before_script).toBeUndefined();
    expect(publish.services).toBeUndefined();
    const script = publish.script.join('\n');
    expect(script).not.toMatch(/\bmvn\b|mvnw|mvnx\s+-B|\bverify\b|gradle|npm (test|run)/);
    expect(publish.script.slice(0, 2)).toEqual([
      'git fetch -q origin "$CI_DEFAULT_BRANCH"',
      'git checkout -q --detach FETCH_HEAD',
    ]);
    expect(script).toContain('mvnx publish --from mvnx-update-fix');
  });
});
