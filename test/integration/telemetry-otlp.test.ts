/**
 * OpenTelemetry export (issue 28) end to end: the built CLI repairs a real Maven build
 * with the scripted Ollama server and exports it over OTLP/HTTP to a loopback receiver
 * that decodes the protobuf with the official OTLP definitions.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { startOtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { copyProject, repairFixtures, reply, runMvnx, type ProjectCopy } from '../helpers/repair-project.js';

const CONFIG = `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 2
  maxModelCalls: 2
`;
const HOOK = fileURLToPath(new URL('../helpers/module-log-hook.mjs', import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function repairedBuild(config = CONFIG): Promise<{ copy: ProjectCopy; host: string; moduleLog: string }> {
  const copy = await copyProject(path.join(repairFixtures, 'calc-semicolon'), config);
  cleanups.push(copy.remove);
  const mock = await startOllamaMock({ replies: [await reply('semicolon-wrong-counts')] });
  cleanups.push(mock.close);
  const logDir = await mkdtemp(path.join(tmpdir(), 'mvnx-otel-'));
  cleanups.push(() => rm(logDir, { recursive: true, force: true }));
  return { copy, host: mock.url, moduleLog: path.join(logDir, 'modules.log') };
}

const args = (host: string) => ['-o', '-B', '-q', 'verify', `--mvnx-host=${host}`, '--mvnx-json'];
const hookEnv = (moduleLog: string) => ({ NODE_OPTIONS: `--import=${HOOK}`, MVNX_TEST_MODULE_LOG: moduleLog });
const loaded = (file: string) => readFile(file, 'utf8').catch(() => '');

describe('OpenTelemetry export of a failed build', () => {
  it('exports one whole trace of a repaired build and its metrics, with CI/CD and GenAI attributes and no prompt or code', async () => {
    const receiver = await startOtlpReceiver();
    cleanups.push(receiver.close);
    const { copy, host, moduleLog } = await repairedBuild();

    const run = await runMvnx(copy.root, args(host), {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ci',
      GITHUB_WORKFLOW: 'build',
      ...hookEnv(moduleLog),
    });

    expect(run.record?.stopReason, run.stderr).toBe('fixed');
    expect(run.exitCode).toBe(1);
    expect(run.stderr).not.toContain('telemetry:');
    expect(await loaded(moduleLog)).toContain('@opentelemetry/sdk-trace');
    expect(receiver.requests.every((request) => request.contentType === 'application/x-protobuf')).toBe(true);

    const spans = receiver.spans;
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const byName = (name: string) => spans.find((span) => span.name === name) as ReceivedSpan;
    const root = byName('mvnx fixed');
    expect(root.parentSpanId).toBe('');
    expect(root.attributes).toMatchObject({
      'cicd.pipeline.result': 'success',
      'cicd.pipeline.name': 'build',
      'mvnx.stop_reason': 'fixed',
      'mvnx.run.id': run.record!.runId,
      'mvnx.tier': 'monitor',
      'mvnx.model_calls': 1,
    });
    const build = byName('maven build');
    expect(build.parentSpanId).toBe(root.spanId);
    expect(build.attributes).toMatchObject({
      'cicd.pipeline.task.type': 'build',
      'cicd.pipeline.task.run.result': 'failure',
      'process.exit.code': 1,
    });
    expect(byName('diagnosis').parentSpanId).toBe(root.spanId);
    const attempt = byName('attempt 1');
    expect(attempt.parentSpanId).toBe(root.spanId);
    expect(attempt.attributes).toMatchObject({ 'mvnx.attempt.outcome': 'verified', 'mvnx.attempt.source': 'model' });
    const chat = byName('chat qwen2.5-coder:7b');
    expect(chat.parentSpanId).toBe(attempt.spanId);
    expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'ollama',
      'gen_ai.request.model': 'qwen2.5-coder:7b',
      'server.address': '127.0.0.1',
    });
    // The server's usage counts come on its last line; a request mvnx closed at a whole answer carries mvnx's estimate,
    // marked as one.
    const [request] = run.record!.modelRequests!;
    expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    if (request!.stoppedEarly) {
      expect(chat.attributes).toMatchObject({
        'gen_ai.usage.input_tokens': request!.estimatedTokens!.prompt,
        'gen_ai.usage.output_tokens': request!.estimatedTokens!.completion,
        'mvnx.usage.estimated': true,
      });
    } else expect(chat.attributes['mvnx.usage.estimated']).toBeUndefined();
    const stages = spans.filter((span) => span.name.startsWith('verify '));
    expect(stages.length).toBe(run.record!.attempts[0]!.stages!.length);
    expect(
      stages.every(
        (stage) =>
          stage.parentSpanId === attempt.spanId && stage.startMs >= attempt.startMs && stage.endMs <= attempt.endMs,
      ),
    ).toBe(true);
    expect(spans.every((span) => span.startMs >= root.startMs && span.endMs <= root.endMs)).toBe(true);
    // Names, counts and outcomes only: nothing of the prompt, the reply or the code.
    const values = spans
      .flatMap((span) => Object.values(span.attributes))
      .filter((value): value is string => typeof value === 'string');
    expect(values.filter((value) => /int result|Calculator\.java|expected|\n/.test(value))).toEqual([]);
    expect(receiver.resources[0]).toMatchObject({ 'service.name': 'mvnx', 'deployment.environment.name': 'ci' });

    const point = (metric: string, attributes: Record<string, unknown> = {}) =>
      receiver.points.filter(
        (p) => p.metric === metric && Object.entries(attributes).every(([key, value]) => p.attributes[key] === value),
      );
    expect(point('mvnx.runs', { 'mvnx.stop_reason': 'fixed', 'mvnx.status': 'fixed' }).map((p) => p.value)).toEqual([
      1,
    ]);
    expect(point('mvnx.fixes.verified').map((p) => p.value)).toEqual([1]);
    expect(point('mvnx.fix.duration').map((p) => p.count)).toEqual([1]);
    expect(point('mvnx.attempts', { 'mvnx.attempt.outcome': 'verified' }).map((p) => p.value)).toEqual([1]);
    expect(
      point('gen_ai.client.operation.duration', { 'gen_ai.request.model': 'qwen2.5-coder:7b' }).map((p) => p.count),
    ).toEqual([1]);
    const tokens = point('gen_ai.client.token.usage');
    // As on the span: the server's counts, or mvnx's estimate of a request closed at a whole answer, marked as one.
    expect(tokens.map((p) => p.attributes['gen_ai.token.type']).sort()).toEqual(['input', 'output']);
    expect(tokens.find((p) => p.attributes['gen_ai.token.type'] === 'input')?.sum).toBe(
      chat.attributes['gen_ai.usage.input_tokens'],
    );
    expect(
      tokens.every((p) => (p.attributes['mvnx.usage.estimated'] === true) === Boolean(request!.stoppedEarly)),
    ).toBe(true);
  }, 120_000);

  it('a dead collector (telemetry.otlp in the config) is one console line and leaves the exit code alone', async () => {
    const dead = await startOtlpReceiver({ hang: true });
    cleanups.push(dead.close);
    const { copy, host } = await repairedBuild(`${CONFIG}telemetry:\n  otlp: ${'URL'}\n`.replace('URL', dead.url));

    const run = await runMvnx(copy.root, args(host));

    expect(run.record?.stopReason, run.stderr).toBe('fixed');
    expect(run.exitCode).toBe(1);
    expect(dead.requests.length).toBeGreaterThan(0);
    const lines = run.stderr.split('\n').filter((line) => line.includes('telemetry:'));
    expect(lines).toEqual([
      `mvnx: telemetry: the collector at ${dead.url} did not take the export within 1000 ms (telemetry.otlp); the run is not exported`,
    ]);
  }, 120_000);

  it('with no endpoint, no OpenTelemetry module is loaded', async () => {
    const { copy, host, moduleLog } = await repairedBuild();
    const run = await runMvnx(copy.root, args(host), { OTEL_EXPORTER_OTLP_ENDPOINT: '', ...hookEnv(moduleLog) });
    expect(run.record?.stopReason, run.stderr).toBe('fixed');
    expect(await loaded(moduleLog)).toBe('');
  }, 120_000);
});
