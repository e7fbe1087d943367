/**
 * The run record times the build of the modules a failed build never reached (issue 42, item 5): through the CLI,
 * real Maven on a generated four-module reactor (util <- core <- app; util <- report, declared last) and the scripted
 * Ollama-API server answering with the fix. The user's build fails in app and Maven never reaches report; mvnx builds
 * and tests report on the unchanged code beside the model, and the record says when that began and how long it took
 * (`neverReachedStartedAt`, `timings.neverReachedMs`), the same run the verified fix's verdict names.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedOllama } from '../../src/bench/scripted-ollama.js';
import { CLOCK_SLACK_MS } from '../../src/diagnose/index.js';
import { runMaven } from '../../src/maven/run.js';
import { toUnifiedDiff } from '../../src/patch/index.js';
import { runMvnx } from '../helpers/repair-project.js';
import { neverReached as generated, neverReachedBug as bug } from '../helpers/never-reached-reactor.js';

const CONFIG = `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 2
  maxModelCalls: 2
`;

let scratch: string;
let project: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-never-reached-timing-'));
  project = path.join(scratch, 'tri');
  for (const [file, text] of generated.files) {
    await mkdir(path.dirname(path.join(project, file)), { recursive: true });
    await writeFile(path.join(project, file), text);
  }
  const env = { ...process.env };
  delete env.MAVEN_OPTS;
  // The developer's tree was built; then the bug came in.
  const built = await runMaven({
    executable: 'mvn',
    args: ['-o', '-B', '-q', 'verify'],
    cwd: project,
    env,
    echo: false,
  });
  await built.log.dispose();
  expect(built.exitCode).toBe(0);
  await writeFile(path.join(project, bug.file), bug.broken);
  await writeFile(path.join(project, '.mvnxrc.yaml'), CONFIG);
  // Reports written within CLOCK_SLACK_MS of the failed build's start count as its own: let the clean build's age.
  await new Promise((resolve) => setTimeout(resolve, CLOCK_SLACK_MS + 500));
}, 900_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the record times the never-reached modules’ build', () => {
  it('says when it began and how long it took: the run the verified fix’s verdict names, begun before the fix was verified', async () => {
    const fix = toUnifiedDiff({ files: [{ path: bug.file, before: bug.broken, after: bug.correct }] });
    const server = await startScriptedOllama([`Fixed the leaf.\n\n\`\`\`diff\n${fix}\`\`\`\n`]);
    try {
      const run = await runMvnx(project, ['-o', '-B', '-q', 'verify', `--mvnx-host=${server.url}`, '--mvnx-json']);
      const record = run.record;
      expect(record?.status, run.stderr).toBe('fixed');
      expect(run.stderr).toContain('meanwhile building and testing report on the unchanged code');
      const verified = record!.attempts.find((attempt) => attempt.outcome === 'verified')!;
      const named = verified.verdict!.tests!.beforeCandidate!;
      expect(named.modules).toEqual(['report']);
      expect(record!.timings.neverReachedMs).toBe(named.durationMs);
      expect(record!.timings.neverReachedMs).toBeGreaterThan(0);
      const began = Date.parse(record!.neverReachedStartedAt!);
      expect(Number.isNaN(began)).toBe(false);
      // Beside the model and before the verdict: it began before the run's record was written, within mvnx's own time.
      const finished = Date.parse(record!.finishedAt);
      expect(began).toBeLessThan(finished);
      expect(finished - began).toBeLessThanOrEqual(record!.timings.totalMs);
    } finally {
      await server.close();
    }
  }, 900_000);
});
