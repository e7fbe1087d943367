// Apply time of the patch pipeline for a 5,000-line file with 50 hunks (target < 50 ms).
// Measures extraction + placement (resolveEdits) of a model-style diff whose counts are
// wrong and whose line numbers are off, then the atomic write to a temp workspace.
import { createTwoFilesPatch } from 'diff';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyChangeSet, extractEdits, resolveEdits } from '../dist/patch/index.js';

const LINES = 5000;
const HUNKS = 50;
const RUNS = 30;
const PATH = 'src/main/java/com/acme/Big.java';

const before =
  Array.from({ length: LINES }, (_, i) => `        int v${i} = compute(${i % 97}, "${i % 13}");`).join('\n') + '\n';
const lines = before.split('\n');
const step = Math.floor(LINES / HUNKS);
for (let h = 0; h < HUNKS; h++) lines[h * step + 10] = lines[h * step + 10].replace('compute', 'computeExact');
const after = lines.join('\n');

const damaged = createTwoFilesPatch(`a/${PATH}`, `b/${PATH}`, before, after).replace(
  /^@@ -(\d+),\d+ \+(\d+),\d+ @@/gm,
  (_m, a, b) => `@@ -${Number(a) + 7},99 +${Number(b) + 7},3 @@`,
);
const reply = 'Here is the fix:\n\n```diff\n' + damaged + '```\n';
const options = { ignoreWhitespace: false, allowTabSpaceContext: false };

function resolveOnce() {
  const { edits } = extractEdits(reply);
  const { changeSet, problems } = resolveEdits(edits, new Map([[PATH, before]]), options);
  if (problems.length > 0 || changeSet.files[0]?.after !== after)
    throw new Error('benchmark patch did not apply exactly: ' + JSON.stringify(problems));
  return changeSet;
}

for (let i = 0; i < 5; i++) resolveOnce();
const resolveTimes = [];
const applyTimes = [];
const root = mkdtempSync(join(tmpdir(), 'mvnx-bench-patch-'));
try {
  for (let i = 0; i < RUNS; i++) {
    writeFileSync(join(root, 'Big.java'), before);
    const t0 = performance.now();
    const changeSet = resolveOnce();
    const t1 = performance.now();
    await applyChangeSet(root, { files: changeSet.files.map((f) => ({ ...f, path: 'Big.java' })) });
    const t2 = performance.now();
    resolveTimes.push(t1 - t0);
    applyTimes.push(t2 - t1);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const total = resolveTimes.map((t, i) => t + applyTimes[i]);
const result = {
  file: { lines: LINES, hunks: HUNKS },
  runs: RUNS,
  extractAndPlaceMs: { median: +median(resolveTimes).toFixed(2), p95: +p95(resolveTimes).toFixed(2) },
  atomicWriteMs: { median: +median(applyTimes).toFixed(2), p95: +p95(applyTimes).toFixed(2) },
  totalMs: { median: +median(total).toFixed(2), p95: +p95(total).toFixed(2) },
  targetMs: 50,
};
result.withinTarget = result.totalMs.median < result.targetMs;
console.log(JSON.stringify(result, null, 2));
