/**
 * The end of a run under tier auto in a simulated GitHub Actions job (repair/after-run.ts):
 * the verified fix is published on its own and the record keeps `publication`; a fix the
 * policy did not let auto take is not published, and the record says why.
 */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/policy/schema.js';
import { afterRun } from '../../src/app/after-run.js';
import type { BuildFailureContext } from '../../src/app/handle-build-failure.js';
import { readRunRecord, RunRecorder } from '../../src/report/run-record.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import { startGithubPublishApi, type GithubPublishState } from '../helpers/fake-forge-publish.js';
import { BRANCH, fixedRecord, makePublishRepo, writeRun } from '../helpers/publish-repo.js';
import { tempDir } from '../helpers/temp-dir.js';

const TOKEN = 'ghs_afterrun0123456789';

describe('after a run under auto in CI', () => {
  it('publishes the verified fix with auto-merge, and only a fix auto may take', async () => {
    const repo = await makePublishRepo(await tempDir('mvnx-after-run-'));
    const state: GithubPublishState = {
      owner: 'acme',
      repo: 'demo',
      token: TOKEN,
      pulls: [],
      comments: [],
      settings: {
        allow_auto_merge: true,
        allow_squash_merge: true,
        allow_merge_commit: true,
        allow_rebase_merge: true,
      },
      protection: { main: ['build'] },
      rulesets: {},
    };
    const gitServer = await startGitHttpServer({
      projectRoot: repo.remoteRoot,
      username: 'x-access-token',
      password: TOKEN,
    });
    const api = await startGithubPublishApi(state);
    try {
      const env = {
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_REPOSITORY: 'acme/demo',
        GITHUB_SERVER_URL: gitServer.url,
        GITHUB_API_URL: api.url,
        GITHUB_TOKEN: TOKEN,
        GITHUB_REF_NAME: 'main',
        GITHUB_EVENT_NAME: 'push',
        PATH: process.env.PATH,
      };
      const config = {
        ...configSchema.parse({ tier: 'auto', auto: { maxRisk: 'medium' }, publish: { merge: 'when-checks-pass' } }),
        sources: {},
        files: [],
      } as unknown as Parameters<typeof afterRun>[0]['config'];
      const context = { options: {}, cwd: repo.work, projectRoot: repo.work, env } as unknown as BuildFailureContext;

      const record = fixedRecord('run-auto');
      await writeRun(repo.work, record);
      await afterRun({ context, config, record, recorder: await RunRecorder.open(repo.work, 'run-auto') });
      const written = await readRunRecord(repo.work, 'run-auto');
      expect(written.publication).toMatchObject({ forge: 'github', number: 1, branch: BRANCH, autoMerge: 'enabled' });
      expect(written.decisions.at(-1)).toMatch(/^published: opened pull request #1 /);
      expect(state.pulls[0]!.autoMerge).toBe('SQUASH');

      // risk high under auto.maxRisk medium: decideVerified dropped it to assist; nothing is published.
      const risky = fixedRecord('run-risky', {
        tier: 'assist',
        action: 'suggest',
        applied: false,
        risk: 'high',
        attempts: [{ ...record.attempts[0]!, fingerprint: 'ffee0011' }],
      });
      await writeRun(repo.work, risky);
      await afterRun({ context, config, record: risky, recorder: await RunRecorder.open(repo.work, 'run-risky') });
      const riskyWritten = await readRunRecord(repo.work, 'run-risky');
      expect(riskyWritten.publication).toBeUndefined();
      expect(riskyWritten.decisions.at(-1)).toBe(
        'not published as a request: risk high is above auto.maxRisk (medium); the policy did not let auto take the fix (tier assist, action suggest)',
      );
      expect(state.pulls).toHaveLength(1);
    } finally {
      await Promise.all([gitServer.close(), api.close()]);
    }
  });
});
