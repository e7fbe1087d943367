/**
 * verify.tests affected with real Maven on a one-module shop (fixture workspace/shop):
 * PriceTest reaches Price, CartTest reaches Cart (which copies the constant
 * Limits.MAX_ITEMS), NameTest reaches Name. A fix inside a method body of Price compiles
 * only Price again and runs only PriceTest; the run record says CartTest and NameTest
 * were taken from the user's build. A fix to the constant rebuilds the whole module (the
 * fix verifies only if Cart, which holds a copy of the constant, is compiled again) and
 * runs every test. Under auto with auto.requireFullVerification every test runs.
 */
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectTestResults, diagnoseBuild } from '../../src/diagnose/index.js';
import { runMaven } from '../../src/maven/run.js';
import type { ChangeSet } from '../../src/patch/types.js';
import {
  startVerificationSession,
  type VerificationSessionInput,
} from '../../src/repair/verification/verification-session.js';
import { detectSandbox, type SandboxInfo } from '../../src/workspace/sandbox.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/workspace/shop', import.meta.url));
const ARGS = ['-o', '-B', '-q', 'verify'];
const PRICE = 'src/main/java/com/acme/Price.java';
const LIMITS = 'src/main/java/com/acme/Limits.java';
const env = { ...process.env };
delete env.MAVEN_OPTS;

let scratch: string;
let sandbox: SandboxInfo;

const config = (
  over: { tier?: 'monitor' | 'auto'; requireFullVerification?: boolean } = {},
): VerificationSessionInput['config'] => ({
  tier: over.tier ?? 'monitor',
  rules: [],
  auto: { maxRisk: 'high', requireFullVerification: over.requireFullVerification ?? false },
  verify: { scope: 'affected', tests: 'affected', reuseOutputs: true, quickJvm: true, parallel: 1 },
  sandbox: { env: { pass: [] } },
});

/**
 * A copy of the shop with a bug, and the user's failed build of it. (A jar of an earlier
 * passing build would be older than the bug and keep the outputs from being reused.)
 */
async function failedBuild(name: string, file: string, correct: string, broken: string, builtBefore = false) {
  const project = path.join(scratch, name);
  await cp(FIXTURE, project, { recursive: true });
  const mvn = async () => runMaven({ executable: 'mvn', args: ARGS, cwd: project, env, echo: false });
  if (builtBefore) {
    const passing = await mvn();
    expect(passing.exitCode).toBe(0);
    await passing.log.dispose();
    // The edit comes after the passing build's outputs, as a developer's would (file times have 1 ms steps at best).
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const text = await readFile(path.join(project, file), 'utf8');
  expect(text).toContain(correct);
  const before = text.replace(correct, broken);
  await writeFile(path.join(project, file), before);
  const run = await mvn();
  expect(run.exitCode).toBe(1);
  const baseline = await collectTestResults({ projectRoot: project, since: run.startedAt });
  const diagnosis = await diagnoseBuild({
    projectRoot: project,
    logFile: run.log.file,
    runStartedAt: run.startedAt,
    exitCode: run.exitCode,
  });
  await run.log.dispose();
  const fix: ChangeSet = { files: [{ path: file, before, after: text }] };
  const session = (over: Parameters<typeof config>[0] = {}) =>
    startVerificationSession({
      projectRoot: project,
      mavenArgs: ARGS,
      executable: 'mvn',
      env,
      userCwd: project,
      buildStartedAt: run.startedAt,
      config: config(over),
      sandbox,
      baselineTests: baseline,
      timeoutMs: 600_000,
      signal: new AbortController().signal,
    });
  return { project, baseline, diagnosis, fix, session };
}

const mtime = async (file: string) => (await stat(file)).mtimeMs;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-rts-it-'));
  sandbox = await detectSandbox('auto');
}, 60_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('verify.tests affected (real Maven)', () => {
  let price: Awaited<ReturnType<typeof failedBuild>>;
  beforeAll(async () => {
    price = await failedBuild('price', PRICE, 'cents - cents * percent / 100', 'cents + cents * percent / 100');
    expect(price.baseline.filter((t) => t.status === 'failed').map((t) => t.className)).toEqual(['com.acme.PriceTest']);
  }, 600_000);

  it("a fix inside a method body: only its class is compiled again, only the tests that reach it run, the rest is taken from the user's build", async () => {
    const session = await price.session();
    try {
      expect(session.reusedOutputs).toEqual(['']);
      const result = await session.verify(price.fix, price.diagnosis);
      expect(result.outcome).toBe('verified');
      expect(result.verdict?.scope).toBe('affected');
      expect(result.verdict?.tests).toEqual({
        ran: ['com.acme.PriceTest'],
        fromYourBuild: ['com.acme.CartTest', 'com.acme.NameTest'],
        why: 'selected 1 of 3 test classes that reach Price; 2 taken from your build',
        recompiled: [PRICE],
        compileWhy: 'every change is inside method bodies: only Price.java compiled again',
      });
      expect(result.verdict?.args).toContain('-Dsurefire.excludesFile=target/mvnx-verify-excludes.txt');
      const classes = (root: string, name: string) => path.join(root, 'target/classes/com/acme', `${name}.class`);
      // Name and Cart keep the user's build's classes; Price was compiled again.
      // (utimes keeps the time to the microsecond, not to the last bit of a double)
      expect(
        Math.abs(
          (await mtime(classes(session.workspace.root, 'Name'))) - (await mtime(classes(price.project, 'Name'))),
        ),
      ).toBeLessThan(0.01);
      expect(
        Math.abs(
          (await mtime(classes(session.workspace.root, 'Cart'))) - (await mtime(classes(price.project, 'Cart'))),
        ),
      ).toBeLessThan(0.01);
      expect(await mtime(classes(session.workspace.root, 'Price'))).toBeGreaterThan(
        await mtime(classes(price.project, 'Price')),
      );
    } finally {
      await session.dispose();
    }
  }, 600_000);

  it('under auto with auto.requireFullVerification, every test runs and the record says why', async () => {
    const session = await price.session({ tier: 'auto', requireFullVerification: true });
    try {
      const result = await session.verify(price.fix, price.diagnosis);
      expect(result.outcome).toBe('verified');
      expect(result.verdict?.tests).toEqual({
        ran: ['com.acme.CartTest', 'com.acme.NameTest', 'com.acme.PriceTest'],
        fromYourBuild: [],
        why: 'all tests ran: verify.tests is all',
      });
    } finally {
      await session.dispose();
    }
  }, 600_000);

  it('a fix to a constant: the class holding a copy of it is compiled again (or the fix could not verify), every test runs', async () => {
    const limits = await failedBuild('limits', LIMITS, 'MAX_ITEMS = 11', 'MAX_ITEMS = 10');
    expect(limits.baseline.filter((t) => t.status === 'failed').map((t) => t.className)).toEqual(['com.acme.CartTest']);
    const session = await limits.session();
    try {
      const result = await session.verify(limits.fix, limits.diagnosis);
      expect(result.outcome).toBe('verified');
      expect(result.verdict?.tests).toEqual({
        ran: ['com.acme.CartTest', 'com.acme.NameTest', 'com.acme.PriceTest'],
        fromYourBuild: [],
        why: 'all tests ran: the fix changes a declaration of com.acme.Limits, whose constants (MAX_ITEMS) javac copies into the classes that use them',
      });
      const cart = (root: string) => path.join(root, 'target/classes/com/acme/Cart.class');
      expect(await mtime(cart(session.workspace.root))).toBeGreaterThan(await mtime(cart(limits.project)));
    } finally {
      await session.dispose();
    }
  }, 900_000);

  it("a developer's flow: a passing build, the bug, a failing build without clean; the outputs are taken as that build left them and the tests are still selected", async () => {
    const developer = await failedBuild(
      'developer',
      PRICE,
      'cents - cents * percent / 100',
      'cents + cents * percent / 100',
      true,
    );
    const session = await developer.session();
    try {
      // The jar of the passing build is older than the bug: not taken, the build packages again.
      expect(session.reusedOutputs).toEqual(['']);
      const result = await session.verify(developer.fix, developer.diagnosis);
      expect(result.outcome).toBe('verified');
      expect(result.verdict?.tests).toMatchObject({
        ran: ['com.acme.PriceTest'],
        fromYourBuild: ['com.acme.CartTest', 'com.acme.NameTest'],
        recompiled: [PRICE],
      });
    } finally {
      await session.dispose();
    }
  }, 900_000);
});
