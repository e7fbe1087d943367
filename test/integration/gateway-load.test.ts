/**
 * A company's set-up under load (issue 28): Debian's nginx (examples/gateway/nginx.conf,
 * the file docs/company.md shows) load-balancing on loopback over two Ollama-API servers
 * with realistic latency, one of which stops mid-run while the other answers 503 with
 * Retry-After now and then, and 8 mvnx repairs of real Maven projects at once through it.
 * Skipped with a clear line only where nginx is not installed (.ci/run installs it).
 */
import { execa, type ResultPromise } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRunRecord } from '../../src/report/run-record-schema.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { deadServerUrl, startOllamaMock } from '../helpers/ollama-mock.js';
import {
  copyProject,
  repairFixtures,
  reply,
  repoRoot,
  runMvnx,
  type CliRun,
  type ProjectCopy,
} from '../helpers/repair-project.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => existsSync(file));
const RUNS = 8;
const WALL_SECONDS = 600;
const CONFIG = `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 2
  maxModelCalls: 2
  maxWallSeconds: ${WALL_SECONDS}
  perAttemptTimeoutSeconds: 300
model:
  timeoutSeconds: 120
`;
if (!NGINX)
  console.log('gateway load test skipped: nginx is not installed (apt-get install -y nginx-light; .ci/run does it)');

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

async function port(url: string): Promise<string> {
  return new URL(url).port;
}

async function waitForPort(portNumber: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(portNumber, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx did not listen on ${portNumber}`);
}

describe.skipIf(!NGINX)('8 repairs at once behind nginx', () => {
  it('every run ends within its budget with a correct stop reason and a valid run.json, nothing left behind, never half a patch', async () => {
    const fix = await reply('semicolon-wrong-counts');
    // Realistic latency: an answer streams in 20 pieces, 40 ms apart.
    const serverA = await startOllamaMock({ replies: [], exhaustedReply: fix, chunks: 20, tokenDelayMs: 40 });
    const serverB = await startOllamaMock({ replies: [], exhaustedReply: fix, chunks: 20, tokenDelayMs: 40 });
    cleanups.push(serverA.close, serverB.close);
    // A stops after its third model call (streams in flight are cut); B's queue is full on every 3rd call.
    const frontA = await startFaultProxy(serverA.url);
    const frontB = await startFaultProxy(serverB.url, { busyEvery: 3, retryAfter: '1' });
    cleanups.push(frontA.close, frontB.close);
    let stoppedA = false;
    const stopA = setInterval(() => {
      if (!stoppedA && frontA.modelCalls() >= 3) {
        stoppedA = true;
        void frontA.close();
      }
    }, 50);
    cleanups.push(async () => clearInterval(stopA));

    const prefix = await mkdtemp(path.join(tmpdir(), 'mvnx-nginx-'));
    cleanups.push(() => rm(prefix, { recursive: true, force: true }));
    const listen = Number(await port(await deadServerUrl()));
    const template = await readFile(path.join(repoRoot, 'examples/gateway/nginx.conf'), 'utf8');
    const conf = template
      .replaceAll('@PREFIX@', prefix)
      .replaceAll('@LISTEN@', `127.0.0.1:${listen}`)
      .replaceAll('@UPSTREAM_A@', `127.0.0.1:${await port(frontA.url)}`)
      .replaceAll('@UPSTREAM_B@', `127.0.0.1:${await port(frontB.url)}`);
    await writeFile(path.join(prefix, 'nginx.conf'), conf);
    await mkdir(path.join(prefix, 'logs'), { recursive: true });
    const nginx: ResultPromise = execa(
      NGINX!,
      ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log'), '-g', 'daemon off;'],
      { reject: false },
    );
    cleanups.push(async () => {
      nginx.kill('SIGTERM');
      await nginx;
    });
    await waitForPort(listen);
    const gateway = `http://127.0.0.1:${listen}`;

    // The runs' own temporary folder: other test files build beside this one and leave their workspaces in the shared one meanwhile.
    const runsTmp = await mkdtemp(path.join(tmpdir(), 'mvnx-gateway-runs-'));
    cleanups.push(() => rm(runsTmp, { recursive: true, force: true }));
    const copies: ProjectCopy[] = [];
    for (let i = 0; i < RUNS; i++) copies.push(await copyProject(path.join(repairFixtures, 'calc-semicolon'), CONFIG));
    for (const copy of copies) cleanups.push(copy.remove);

    const runs: CliRun[] = await Promise.all(
      copies.map((copy) =>
        runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${gateway}`, '--mvnx-json'], { TMPDIR: runsTmp }),
      ),
    );
    clearInterval(stopA);

    const records: RunRecord[] = [];
    for (const [index, run] of runs.entries()) {
      const copy = copies[index]!;
      const runId = (await readFile(path.join(copy.root, '.mvnx/runs/latest'), 'utf8')).trim();
      const file = path.join(copy.root, '.mvnx/runs', runId, 'run.json');
      const record = parseRunRecord(await readFile(file, 'utf8'), file);
      records.push(record);
      expect(run.exitCode, run.stderr).toBe(1);
      expect(['fixed', 'provider-unavailable'], run.stderr).toContain(record.stopReason);
      expect(Date.parse(record.finishedAt) - Date.parse(record.startedAt)).toBeLessThanOrEqual(WALL_SECONDS * 1000);
      expect((record.modelRequests ?? []).every((request) => request.host === gateway)).toBe(true);
      const patch = existsSync(path.join(copy.root, '.mvnx/runs', runId, 'fix.patch'));
      if (record.stopReason === 'fixed') {
        expect(patch).toBe(true);
        expect(record.attempts.at(-1)?.outcome).toBe('verified');
      } else {
        // Never half a patch: a call cut mid-stream stops the run, and nothing was built from it.
        expect(patch).toBe(false);
        expect(record.attempts.every((attempt) => attempt.outcome !== 'verified')).toBe(true);
        // The call that stopped it (a cut stream, a busy server past the budget), or the health check before any call.
        expect(record.modelRequests?.at(-1)?.outcome ?? 'unavailable').toBe('unavailable');
      }
    }

    // Nothing left behind: no workspace, no JVM of these projects.
    const workspacesAfter = (await readdir(runsTmp)).filter((name) => name.startsWith('mvnx-ws-'));
    expect(workspacesAfter).toEqual([]);
    const processes = (await execa('ps', ['-eo', 'args'])).stdout.split('\n');
    expect(processes.filter((line) => copies.some((copy) => line.includes(copy.root)))).toEqual([]);

    const stops: Record<string, number> = {};
    for (const record of records) stops[record.stopReason] = (stops[record.stopReason] ?? 0) + 1;
    const waits = records.flatMap((record) => (record.modelRequests ?? []).flatMap((request) => request.waits ?? []));
    const access = await readFile(path.join(prefix, 'access.log'), 'utf8');
    const chats = access.split('\n').filter((line) => line.includes('POST /api/chat'));
    console.log(
      [
        `gateway load test: ${RUNS} repairs at once through nginx (${NGINX})`,
        `  stop reasons: ${Object.entries(stops)
          .map(([reason, count]) => `${reason} ${count}`)
          .join(', ')}`,
        `  waits for a busy server: ${waits.length}, ${(waits.reduce((sum, wait) => sum + wait.ms, 0) / 1000).toFixed(1)} s in all (${waits.map((wait) => `${wait.status}/${wait.reason}`).join(', ') || 'none'})`,
        `  model calls per server: A ${frontA.modelCalls()} (stopped after its 3rd), B ${frontB.modelCalls()} (503 + Retry-After on every 3rd); chats through nginx ${chats.length}`,
        `  run times: ${records.map((record) => ((Date.parse(record.finishedAt) - Date.parse(record.startedAt)) / 1000).toFixed(0)).join(', ')} s (budget ${WALL_SECONDS} s)`,
      ].join('\n'),
    );
    expect(stoppedA).toBe(true);
    expect(frontB.modelCalls()).toBeGreaterThan(0);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((wait) => wait.reason === 'retry-after' && wait.ms >= 1000)).toBe(true);
    expect(stops.fixed ?? 0).toBeGreaterThan(0);
  }, 1_200_000);
});
