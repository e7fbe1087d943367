import { describe, expect, it } from 'vitest';
import type { ModelRequestRecord } from '../../src/model/traffic.js';
import { computeRolloutStats } from '../../src/report/groups.js';
import { renderReportHtml } from '../../src/report/html.js';
import { describeModelSpeed, ModelSpeedFold, modelMsPerVerifiedFix } from '../../src/report/model-speed.js';
import { formatRunStats } from '../../src/report/stats-format.js';
import { computeRunStats } from '../../src/report/stats.js';
import { attempt, record } from './stats-support.js';

const request = (model: string, counters: Partial<ModelRequestRecord>): ModelRequestRecord => ({
  host: 'http://127.0.0.1:11434',
  model,
  startedAt: '2026-05-01T10:00:00.000Z',
  durationMs: 1000,
  outcome: 'answered',
  ...counters,
});

/** A fixed run whose model wrote its fix in two requests, the second evaluating only what was new. */
const fixedWithCounters = record({
  runId: 'fixed',
  startedAt: '2026-05-01T10:00:00.000Z',
  status: 'fixed',
  stopReason: 'fixed',
  attempts: [attempt(1, 'build-failed'), attempt(2, 'verified')],
  modelCalls: 2,
  timings: { totalMs: 90_000, modelMs: 60_000, applyMs: 0, verifyMs: 20_000 },
  modelRequests: [
    request('qwen2.5-coder:7b', {
      promptTokens: 1800,
      promptEvalMs: 30_000,
      completionTokens: 120,
      evalMs: 15_000,
      loadMs: 6000,
    }),
    request('qwen2.5-coder:7b', { promptTokens: 120, promptEvalMs: 2000, completionTokens: 40, evalMs: 5000 }),
  ],
});
/** An unfixed run on another model; one request was cancelled before the server counted anything. */
const unfixedOtherModel = record({
  runId: 'unfixed',
  startedAt: '2026-05-02T10:00:00.000Z',
  modelCalls: 2,
  timings: { totalMs: 40_000, modelMs: 30_000, applyMs: 0, verifyMs: 0 },
  modelRequests: [
    request('llama3.1:8b', { promptTokens: 900, promptEvalMs: 10_000, completionTokens: 50, evalMs: 10_000 }),
    request('llama3.1:8b', { outcome: 'cancelled' }),
  ],
});

const noEstimate = { estimatedRequests: 0, estimatedPromptTokens: 0, estimatedOutputTokens: 0 };

describe('model speed by model, from the servers counters', () => {
  it('sums tokens and times per model and divides once (a weighted rate, not a mean of rates)', () => {
    const fold = new ModelSpeedFold();
    fold.add(fixedWithCounters.modelRequests!);
    fold.add(unfixedOtherModel.modelRequests!);
    expect(fold.result()).toEqual([
      {
        model: 'llama3.1:8b',
        requests: 1,
        ...noEstimate,
        promptTokens: 900,
        promptEvalMs: 10_000,
        promptTokensPerSecond: 90,
        outputTokens: 50,
        evalMs: 10_000,
        outputTokensPerSecond: 5,
        loadMs: 0,
      },
      {
        model: 'qwen2.5-coder:7b',
        requests: 2,
        ...noEstimate,
        promptTokens: 1920,
        promptEvalMs: 32_000,
        promptTokensPerSecond: 60,
        outputTokens: 160,
        evalMs: 20_000,
        outputTokensPerSecond: 8,
        loadMs: 6000,
      },
    ]);
  });

  it('a request with tokens but no time (or the reverse) adds to no rate; no time at all is no rate, not a division by 0', () => {
    const fold = new ModelSpeedFold();
    fold.add([
      request('m', { promptTokens: 500, promptEvalMs: 0, completionTokens: 30 }),
      request('m', { evalMs: 1000 }),
    ]);
    expect(fold.result()).toEqual([
      expect.objectContaining({
        requests: 2,
        promptTokens: 500,
        promptTokensPerSecond: null,
        outputTokens: 0,
        evalMs: 0,
        outputTokensPerSecond: null,
      }),
    ]);
  });

  it('a request mvnx closed early is counted with its estimate, apart from the rates, and the line says so', () => {
    const fold = new ModelSpeedFold();
    fold.add([
      request('m', { promptTokens: 600, promptEvalMs: 10_000, completionTokens: 80, evalMs: 10_000 }),
      request('m', { stoppedEarly: true, estimatedTokens: { prompt: 700, completion: 90 } }),
      // Closed early before this estimate existed: no counters and no estimate, not counted.
      request('m', { stoppedEarly: true }),
    ]);
    const [speed] = fold.result();
    expect(speed).toEqual({
      model: 'm',
      requests: 2,
      estimatedRequests: 1,
      estimatedPromptTokens: 700,
      estimatedOutputTokens: 90,
      promptTokens: 600,
      promptEvalMs: 10_000,
      promptTokensPerSecond: 60,
      outputTokens: 80,
      evalMs: 10_000,
      outputTokensPerSecond: 8,
      loadMs: 0,
    });
    expect(describeModelSpeed(speed!)).toBe(
      'prompt 60.0 tokens/s, output 8.0 tokens/s (2 requests, 1 closed early: ~790 tokens estimated)',
    );
  });

  it('model time per verified fix is all the model time over the fixed runs; none without a fix', () => {
    expect(modelMsPerVerifiedFix(90_000, 1)).toBe(90_000);
    expect(modelMsPerVerifiedFix(90_000, 4)).toBe(22_500);
    expect(modelMsPerVerifiedFix(90_000, 0)).toBeNull();
  });

  it('one line per model', () => {
    const [speed] = new ModelSpeedFold().result().concat({
      model: 'm',
      requests: 1,
      ...noEstimate,
      promptTokens: 1,
      promptEvalMs: 1,
      promptTokensPerSecond: 62,
      outputTokens: 1,
      evalMs: 1,
      outputTokensPerSecond: null,
      loadMs: 0,
    });
    expect(describeModelSpeed(speed!)).toBe('prompt 62.0 tokens/s, output - tokens/s (1 request)');
  });
});

describe('mvnx runs --stats and the report', () => {
  it('--stats: model time per verified fix and tokens/s by model, in the JSON and the table', () => {
    const stats = computeRunStats([fixedWithCounters, unfixedOtherModel]);
    expect(stats.modelCost).toEqual({
      modelMsPerVerifiedFix: 90_000,
      byModel: [
        expect.objectContaining({ model: 'llama3.1:8b', promptTokensPerSecond: 90, outputTokensPerSecond: 5 }),
        expect.objectContaining({ model: 'qwen2.5-coder:7b', promptTokensPerSecond: 60, outputTokensPerSecond: 8 }),
      ],
    });
    // Added at the end: the keys before it keep their order.
    expect(Object.keys(stats).at(-1)).toBe('modelCost');
    const text = formatRunStats(stats);
    expect(text).toMatch(/model time per verified fix\s+1m30s \(1m30s over 1 verified fix\)/);
    expect(text).toMatch(/speed of llama3\.1:8b\s+prompt 90\.0 tokens\/s, output 5\.0 tokens\/s \(1 request\)/);
    expect(text).toMatch(/speed of qwen2\.5-coder:7b\s+prompt 60\.0 tokens\/s, output 8\.0 tokens\/s \(2 requests\)/);
  });

  it("runs without the servers' counters (no model asked, or records from before): no modelCost key, no model lines", () => {
    const plain = record({
      runId: 'plain',
      startedAt: '2026-05-01T10:00:00.000Z',
      modelCalls: 1,
      modelRequests: [request('qwen2.5-coder:7b', { promptTokens: 1800, completionTokens: 120 })],
    });
    const stats = computeRunStats([plain]);
    expect(stats).not.toHaveProperty('modelCost');
    expect(formatRunStats(stats)).not.toMatch(/per verified fix|speed of/);
    const html = renderReportHtml({
      stats: computeRolloutStats([plain]),
      records: [plain],
      advice: [],
      generatedAt: new Date('2026-05-03T00:00:00Z'),
      sources: ['.mvnx/runs'],
    });
    expect(html).not.toContain('Model speed');
    expect(html).not.toContain('modelCost');
  });

  it('the HTML report: a tile for model time per fix and a table of tokens/s by model, raw values in data attributes', () => {
    const records = [fixedWithCounters, unfixedOtherModel];
    const html = renderReportHtml({
      stats: computeRolloutStats(records),
      records,
      advice: [],
      generatedAt: new Date('2026-05-03T00:00:00Z'),
      sources: ['.mvnx/runs'],
    });
    expect(html).toContain('data-stat="modelCost.modelMsPerVerifiedFix" data-value="90000">1m30s');
    expect(html).toContain('<h2>Model speed</h2>');
    expect(html).toMatch(
      /<tr data-model="qwen2\.5-coder:7b">.*data-field="requests" data-value="2">2<.*data-field="promptTokensPerSecond" data-value="60">60\.0<.*data-field="outputTokensPerSecond" data-value="8">8\.0</,
    );
    expect(html).toMatch(/<tr data-model="llama3\.1:8b">.*data-value="90">90\.0</);
  });
});
