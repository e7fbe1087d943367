/**
 * Publishing under tier auto in a simulated GitLab CI job: real git pushes to a bare
 * remote over file:// and the GitLab REST API on loopback; then `mvnx runs --reconcile`
 * reads the requests' states (merged, closed) from the API.
 */
import { pathToFileURL } from 'node:url';
import { execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/policy/schema.js';
import { publishRun, requestStateReader } from '../../src/report/publish/index.js';
import { reconcileRuns } from '../../src/report/reconcile.js';
import { readRunRecord } from '../../src/report/run-record.js';
import { computeRunStats } from '../../src/report/stats.js';
import { startGitlabPublishApi, type GitlabPublishState } from '../helpers/fake-forge-publish.js';
import { BRANCH, fixedRecord, git, makePublishRepo, writeRun } from '../helpers/publish-repo.js';
import { tempDir } from '../helpers/temp-dir.js';

const TOKEN = 'glpat-publishtoken0123456789';

async function setup(settings: GitlabPublishState['settings']) {
  const repo = await makePublishRepo(await tempDir('mvnx-publish-gl-'));
  const state: GitlabPublishState = {
    projectId: '42',
    token: TOKEN,
    mergeRequests: [],
    notes: [],
    settings,
    branchHead: (branch) => {
      const result = execaSync('git', ['rev-parse', '--verify', '-q', `refs/heads/${branch}`], {
        cwd: repo.bare,
        reject: false,
      });
      return result.exitCode === 0 ? result.stdout.trim() : undefined;
    },
  };
  const api = await startGitlabPublishApi(state);
  const env = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PROJECT_ID: '42',
    CI_PROJECT_PATH: 'acme/demo',
    CI_API_V4_URL: `${api.url}/api/v4`,
    CI_SERVER_HOST: 'gitlab.example',
    CI_COMMIT_BRANCH: 'main',
    CI_JOB_URL: 'https://gitlab.example/acme/demo/-/jobs/9',
    MVNX_GITLAB_TOKEN: TOKEN,
    PATH: process.env.PATH,
    HOME: process.env.HOME,
  };
  const policy = configSchema.parse({
    tier: 'auto',
    publish: { merge: 'when-checks-pass', pushUrl: pathToFileURL(repo.bare).href },
  }) as Parameters<typeof publishRun>[0]['policy'];
  const publish = async (record = fixedRecord('run-1')) => {
    await writeRun(repo.work, record);
    return publishRun({ projectRoot: repo.work, record, policy, env, userAgent: 'mvnx/test', asked: false });
  };
  return { repo, state, api, env, policy, publish };
}

describe('publishing on GitLab', () => {
  it('pushes one commit over file://, opens one merge request set to merge when the pipeline succeeds, and updates it on the next run', async () => {
    const { repo, state, api, publish } = await setup({ only_allow_merge_if_pipeline_succeeds: true });
    try {
      const first = await publish();
      expect(first.outcome).toMatchObject({
        published: true,
        publication: {
          forge: 'gitlab',
          number: 1,
          branch: BRANCH,
          autoMerge: 'enabled',
          url: 'https://gitlab.example/group/project/-/merge_requests/1',
        },
      });
      expect(await git(repo.bare, 'log', '-1', '--format=%B', BRANCH)).toMatch(
        /Mvnx-Run: run-1\nMvnx-Fingerprint: a1b2c3d4e5f6\w+\nMvnx-Risk: low/,
      );
      expect(await git(repo.bare, 'log', '-1', '--format=%ae', BRANCH)).toBe('mvnx@gitlab.example');
      expect(state.mergeRequests).toHaveLength(1);
      expect(state.mergeRequests[0]).toMatchObject({
        source_branch: BRANCH,
        target_branch: 'main',
        state: 'opened',
        auto_merge: true,
      });
      expect(state.mergeRequests[0]!.description).toContain('jobs/9');
      const merge = api.requests.find((request) => request.path.endsWith('/merge'))!;
      expect(merge.body).toMatchObject({
        auto_merge: true,
        merge_when_pipeline_succeeds: true,
        sha: await git(repo.bare, 'rev-parse', BRANCH),
      });

      // The same fix on the same base: the branch already holds it, so nothing is pushed (the commit stays run-1's).
      const pushed = await git(repo.bare, 'rev-parse', BRANCH);
      const second = await publish(fixedRecord('run-2'));
      expect(second.outcome!.message).toMatch(/^updated merge request !1/);
      expect(state.mergeRequests).toHaveLength(1);
      expect(state.mergeRequests[0]!.description).toContain('run-2');
      expect(await git(repo.bare, 'log', '-1', '--format=%B', BRANCH)).toContain('Mvnx-Run: run-1');
      expect(await git(repo.bare, 'rev-parse', BRANCH)).toBe(pushed);
      expect(second.outcome!.message).toContain('nothing pushed: the branch already holds this fix on this base');
      expect(api.failures).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('refuses auto-merge where pipelines need not succeed (GitLab would merge at once), and opens the request anyway', async () => {
    const { state, api, publish } = await setup({ only_allow_merge_if_pipeline_succeeds: false });
    try {
      const result = await publish();
      expect(result.outcome).toMatchObject({
        published: true,
        publication: {
          autoMerge: 'refused',
          reason: expect.stringContaining('does not require a successful pipeline'),
        },
      });
      expect(state.mergeRequests[0]!.state).toBe('opened');
      expect(api.requests.some((request) => request.path.endsWith('/merge'))).toBe(false);
    } finally {
      await api.close();
    }
  });

  it('waits out 429 Retry-After from GitLab', async () => {
    const { state, api, repo, env, policy } = await setup({ only_allow_merge_if_pipeline_succeeds: true });
    try {
      state.rateLimit = { count: 2, retryAfter: '3' };
      const waits: number[] = [];
      const record = fixedRecord('run-1');
      await writeRun(repo.work, record);
      const result = await publishRun({
        projectRoot: repo.work,
        record,
        policy,
        env,
        userAgent: 'mvnx/test',
        asked: false,
        rateLimit: { sleep: async (ms) => void waits.push(ms) },
      });
      expect(waits).toEqual([3000, 3000]);
      expect(result.outcome?.published).toBe(true);
    } finally {
      await api.close();
    }
  });

  it('mvnx runs --reconcile records a merged request as merged (counted as taken) and a closed one as closed', async () => {
    const { repo, state, api, env, policy } = await setup({ only_allow_merge_if_pipeline_succeeds: true });
    try {
      const merged = fixedRecord('run-merged', {
        startedAt: '2026-12-03T10:00:00.000Z',
        publication: { forge: 'gitlab', url: 'u1', number: 1, branch: BRANCH, autoMerge: 'enabled' },
      });
      const closed = fixedRecord('run-closed', {
        startedAt: '2026-12-03T11:00:00.000Z',
        attempts: [{ ...fixedRecord('x').attempts[0]!, fingerprint: 'ffff0000' }],
        publication: { forge: 'gitlab', url: 'u2', number: 2, branch: 'mvnx/fix-ffff0000', autoMerge: 'off' },
      });
      await writeRun(repo.work, merged);
      await writeRun(repo.work, closed);
      state.mergeRequests.push({
        iid: 1,
        source_branch: BRANCH,
        target_branch: 'main',
        title: 't',
        description: 'd',
        state: 'merged',
        web_url: 'u1',
        auto_merge: true,
      });
      state.mergeRequests.push({
        iid: 2,
        source_branch: 'mvnx/fix-ffff0000',
        target_branch: 'main',
        title: 't',
        description: 'd',
        state: 'closed',
        web_url: 'u2',
        auto_merge: false,
      });
      const reader = requestStateReader(env, policy, 'mvnx/test');
      const report = await reconcileRuns(repo.work, {
        now: new Date('2026-12-04T00:00:00Z'),
        requestState: reader.read!,
      });
      expect(report.changes.map((change) => [change.runId, change.events[0]!.outcome])).toEqual(
        expect.arrayContaining([
          ['run-merged', 'merged'],
          ['run-closed', 'closed'],
        ]),
      );
      const mergedAfter = await readRunRecord(repo.work, 'run-merged');
      expect(mergedAfter.outcome).toBe('merged');
      expect(mergedAfter.outcomeHistory?.[0]?.evidence).toBe('merge request !1 merged (u1)');
      expect((await readRunRecord(repo.work, 'run-closed')).outcome).toBe('closed');
      const stats = computeRunStats([mergedAfter, await readRunRecord(repo.work, 'run-closed')]);
      expect({
        auto: stats.autoApplied,
        person: stats.appliedByPerson,
        merged: stats.mergedByRequest,
        suggested: stats.suggestedOnly,
      }).toEqual({ auto: 0, person: 0, merged: 1, suggested: 1 });
      expect(stats.outcomes).toMatchObject({ merged: 1, closed: 1 });
    } finally {
      await api.close();
    }
  });
});
