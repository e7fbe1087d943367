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
