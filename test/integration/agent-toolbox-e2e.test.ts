/**
 * The agent's toolbox end to end: the built mvnx, real Maven, real bubblewrap, and the
 * real Ollama client against the loopback Ollama-API server, answering through native
 * tool_calls and through text. The project is the bench case agent-cents-from-another-class
 * (Cart adds euro prices as cents; the fix needs Money.toCents from another file).
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBenchCases, materialiseCase } from '../../src/bench/cases.js';
import { startOllamaMock, type OllamaMock, type ScriptedReply } from '../helpers/ollama-mock.js';
import { cliPath, repoRoot, runMvnx, snapshotTree } from '../helpers/repair-project.js';

const CART = 'src/main/java/com/acme/shop/Cart.java';
const MONEY = 'src/main/java/com/acme/shop/Money.java';

let mock: OllamaMock | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function cartProject(config: string): Promise<string> {
  const [benchCase] = await loadBenchCases(path.join(repoRoot, 'bench/cases'), ['agent-cents-from-another-class']);
  const parent = await mkdtemp(path.join(os.tmpdir(), 'mvnx-agent-toolbox-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  const root = path.join(parent, 'shop');
  await materialiseCase(benchCase!, root);
  await writeFile(path.join(root, '.mvnxrc.yaml'), config);
  return root;
}

// One build at a time: with two, the right candidate can pass before the wrong one beside it fails (then `stopped`, as designed: test/unit/agent-candidates.test.ts), and this test reads every candidate's reason.
const CONFIG =
  'tier: monitor\nagent:\n  mode: always\n  maxSteps: 14\n  parallelBuilds: 1\nfixers:\n  enabled: false\nbudget:\n  dynamic: false\n  maxModelCalls: 14\n  maxAttempts: 4\n';

function cartDiff(line: string): string {
  return [
    '```diff',
    `--- a/${CART}`,
    `+++ b/${CART}`,
    '@@ -14,7 +14,7 @@ public class Cart {',
    '     public long totalCents() {',
    '         long sum = 0;',
    '         for (Item item : items) {',
    '-            sum += item.priceEuros() * item.quantity();',
    `+            ${line}`,
    '         }',
    '         return sum;',
    '     }',
    '```',
  ].join('\n');
}
const RIGHT = cartDiff('sum += Money.toCents(item.priceEuros()) * item.quantity();');
const WRONG_CAST = cartDiff('sum += (long) item.priceEuros() * item.quantity();');
const WRONG_ROUND = cartDiff('sum += Math.round(item.priceEuros()) * item.quantity() * 100;');

const native = (name: string, args: Record<string, unknown> = {}): ScriptedReply => ({
  text: '',
  toolCalls: [{ name, arguments: args }],
});
const text = (tool: string, args: Record<string, unknown> = {}, prose = ''): string =>
  `${prose}${prose ? '\n' : ''}${JSON.stringify({ tool, args })}`;

/** Each new tool once, a fix that fails, more reading, then two candidates of which the second passes. */
function toolboxSession(call: (name: string, args?: Record<string, unknown>) => ScriptedReply): ScriptedReply[] {
  return [
    call('extract_test_code'),
    call('find_similar_api_calls', { call: 'item.priceEuros()' }),
    call('search_code_base', { pattern: 'eurosToCents' }),
    call('get_classes_and_methods', { file: MONEY }),
    call('express_hypothesis', { hypothesis: 'totalCents adds the euro price instead of cents' }),
    call('write_fix', { patch: WRONG_ROUND }),
    call('collect_more_information', { reason: 'rounding euros loses the cents' }),
    call('extract_method', { file: MONEY, method: 'toCents' }),
    call('write_fix', { patches: [WRONG_CAST, RIGHT] }),
  ];
}

async function expectToolboxRun(root: string, replies: ScriptedReply[], mode: 'native' | 'text') {
  const before = await snapshotTree(root);
  const run = await runMvnx(root, ['-o', '-B', '-q', 'test', `--mvnx-host=${mock!.url}`, '--mvnx-json']);
  expect(run.exitCode).toBe(1);
  expect(run.record?.status, JSON.stringify(run.record?.attempts, null, 1)).toBe('fixed');
  expect(mock!.failures).toEqual([]);
  expect(run.record?.attempts).toHaveLength(1);
  const attempt = run.record!.attempts[0]!;
  expect(attempt).toMatchObject({ source: 'agent', outcome: 'verified', filesChanged: [CART] });
  expect(attempt.agent).toMatchObject({
    stop: 'fix-verified',
    steps: replies.length,
    toolCalling: mode,
    toolCalls: {
      extract_test_code: 1,
      find_similar_api_calls: 1,
      search_code_base: 1,
      get_classes_and_methods: 1,
      extract_method: 1,
      express_hypothesis: 1,
      collect_more_information: 1,
      write_fix: 2,
    },
  });
  // Three candidates in two write_fix calls: the one fix, then two of which only the second passes.
  expect(attempt.agent!.candidates!.map((candidate) => candidate.outcome)).toEqual([
    'build-failed',
    'build-failed',
    'verified',
  ]);
  expect(attempt.agent!.candidates![0]!.reason).toContain('expected: <1050> but was: <1000>');
  expect(attempt.agent!.candidates![1]!.reason).toContain('expected: <1050> but was: <10>');
  expect(run.record?.modelCalls).toBe(replies.length);
  const recordDir = path.join(root, '.mvnx/runs', run.record!.runId);
  expect(await readFile(path.join(recordDir, 'fix.patch'), 'utf8')).toContain(
    '+            sum += Money.toCents(item.priceEuros()) * item.quantity();',
  );
  const log = await readFile(path.join(recordDir, 'attempt-1.agent-log.txt'), 'utf8');
  // What each tool answered, from the real files and builds.
  expect(log).toContain('>>  20|         assertEquals(1050, cart.totalCents());');
  expect(log).toContain('set-up and tear-down:');
  expect(log).toContain(
    `calls of priceEuros (1):\n${CART}:17: sum += item.priceEuros() * item.quantity();  (in Cart.totalCents)`,
  );
  expect(log).toContain(
    `words: euros, cents), best first:\n${MONEY}:9: public static long toCents(double euros) {  [euros, cents]`,
  );
  expect(log).toContain('public static long toCents(double euros)');
  expect(log).toContain('Fix 1: built, still fails');
  expect(log).toContain('Fix 2: passed: the build and the tests pass with it');
  expect(await snapshotTree(root)).toEqual(before);
  return run;
}

/**
 * Per request, the tools usable now: the last list the conversation names (an answer names them only when they change
 * and says "the same tools" otherwise; the opening message names them first).
 */
function usableNow(requests: { body: unknown }[]): string[][] {
  return requests.map((request) => {
    const messages = (request.body as { messages: { content: string }[] }).messages;
    const lists = messages.flatMap((message) =>
      [...message.content.matchAll(/Tools you can use now: (.*?)\.(?: |$)/gm)].map((match) => match[1]!.split(', ')),
    );
    return lists.at(-1) ?? [];
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the agent toolbox', () => {
  it('through native tool calls: every new tool, a failed fix, collect_more_information, then two candidates in one write_fix where only the second verifies', async () => {
    const replies = toolboxSession(native);
    mock = await startOllamaMock({ replies });
    const root = await cartProject(CONFIG);
    await expectToolboxRun(root, replies, 'native');
    // Every tool is offered on every call (the definitions never change); the tools usable now follow the state:
    // no write_fix while understanding, collect_more_information only after a failed fix.
    const offered = mock
      .chatRequests()
      .map((request) =>
        ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name),
      );
    for (const tools of offered) expect(tools).toEqual(offered[0]);
    const usable = usableNow(mock.chatRequests());
    expect(usable[0]).not.toContain('write_fix');
    expect(usable[5]).toContain('write_fix');
    expect(usable[5]).not.toContain('collect_more_information');
    expect(usable[6]).toContain('collect_more_information');
  });

  it('through text when the server refuses native tools: the same session, read from JSON in the replies, and the refusal in the run record', async () => {
    const replies = toolboxSession((name, args) => text(name, args, 'Next step:'));
    // Ollama before 0.6.4 says nothing of capabilities; the model has no tool template: HTTP 400.
    mock = await startOllamaMock({ replies, noCapabilities: true, tools: false });
    const root = await cartProject(CONFIG);
    const run = await expectToolboxRun(root, replies, 'text');
    expect(run.record?.toolCalling).toEqual({
      native: false,
      reason: 'the server refused tools for qwen2.5-coder:7b (HTTP 400)',
    });
    const withTools = mock.chatRequests().filter((request) => (request.body as { tools?: unknown[] }).tools);
    expect(withTools).toHaveLength(1);
  });
});

describe('command tools', () => {
  it('added with mvnx tool add, offered only in the states named, run in the sandbox, and used by the agent to find the bug', async () => {
    const root = await cartProject(`# The team's mvnx settings.\n${CONFIG}`);
    // A small script stands in for a static analyser: Checkstyle-style XML naming the bug's line.
    await mkdir(path.join(root, 'tools'));
    await writeFile(
      path.join(root, 'tools/units-lint.sh'),
      [
        '#!/bin/sh',
        'file="$1"',
        'line=$(grep -n "priceEuros() \\*" "$file" | cut -d: -f1)',
        'echo "<checkstyle version=\\"10\\">"',
        'echo "  <file name=\\"$(pwd)/$file\\">"',
        '[ -n "$line" ] && echo "    <error line=\\"$line\\" severity=\\"error\\" message=\\"euro amount added to a cents total: convert it with Money.toCents\\" source=\\"units.EuroAsCents\\"/>"',
        'echo "  </file>"',
        'echo "</checkstyle>"',
        '',
      ].join('\n'),
    );
    await chmod(path.join(root, 'tools/units-lint.sh'), 0o755);
    const added = await execa(
      'node',
      [
        cliPath,
        'tool',
        'add',
        '--name',
        'units_lint',
        '--command',
        './tools/units-lint.sh %FILE%',
        '--output-format',
        'xml',
        '--states',
        'collect,fix',
        '--description',
        'finds euro amounts used as cents',
      ],
      { cwd: root, reject: false },
    );
    expect(added.stderr).toBe('');
    expect(added.stdout).toBe(
      'mvnx: added command tool units_lint in .mvnxrc.yaml: offered in collect, fix; xml output; 60 s timeout',
    );
    expect(await readFile(path.join(root, '.mvnxrc.yaml'), 'utf8')).toMatch(
      /^# The team's mvnx settings\.\n[\s\S]*tools:\n {2}- name: units_lint\n/,
    );
    const listed = await execa('node', [cliPath, 'tool', 'list'], { cwd: root });
    expect(listed.stdout).toContain('units_lint  collect,fix  xml');

    const replies: ScriptedReply[] = [
      native('extract_test_code'),
      native('express_hypothesis', { hypothesis: 'the total is computed in euros' }),
      native('units_lint', { file: 'Cart.java' }),
      native('write_fix', { patch: RIGHT }),
    ];
    mock = await startOllamaMock({ replies });
    const run = await runMvnx(root, ['-o', '-B', '-q', 'test', `--mvnx-host=${mock.url}`, '--mvnx-json']);
    expect(run.record?.status, JSON.stringify(run.record?.attempts, null, 1)).toBe('fixed');
    expect(run.record?.attempts[0]?.agent?.toolCalls).toEqual({
      extract_test_code: 1,
      express_hypothesis: 1,
      units_lint: 1,
      write_fix: 1,
    });
    const offered = mock
      .chatRequests()
      .map((request) =>
        ((request.body as { tools?: { function: { name: string; description: string } }[] }).tools ?? []).map(
          (tool) => tool.function.name,
        ),
      );
    for (const tools of offered) expect(tools).toContain('units_lint');
    const usable = usableNow(mock.chatRequests());
    expect(usable[0]).not.toContain('units_lint');
    expect(usable[1]).not.toContain('units_lint');
    expect(usable[2]).toContain('units_lint');
    // The analyser's report, read from its XML, reached the model with the path corrected and relative to the project.
    const fourth = mock.chatRequests()[3]!.body as { messages: { role: string; content: string }[] };
    expect(fourth.messages.at(-1)).toMatchObject({ role: 'tool', tool_name: 'units_lint' });
    expect(fourth.messages.at(-1)!.content).toMatch(
      new RegExp(
        `^${escapeRegExp(`(mvnx corrected your call: file "Cart.java" → "${CART}")\n${CART}:17: euro amount added to a cents total: convert it with Money.toCents (EuroAsCents)`)}\n\nState: `,
      ),
    );
    expect(run.record?.sandbox?.kind).toBe('bwrap');
  });

  it('a tool whose program is not installed answers one line, and the repair goes on', async () => {
    const root = await cartProject(
      `${CONFIG}tools:\n  - name: spotbugs_advisor\n    command: spotbugs-not-installed -textui %FILE%\n    outputFormat: xml\n`,
    );
    mock = await startOllamaMock({
      replies: [
        native('spotbugs_advisor', { file: CART }),
        native('express_hypothesis', { hypothesis: 'euros as cents' }),
        native('write_fix', { patch: RIGHT }),
      ],
    });
    const run = await runMvnx(root, ['-o', '-B', '-q', 'test', `--mvnx-host=${mock.url}`, '--mvnx-json']);
    expect(run.record?.status).toBe('fixed');
    const second = mock.chatRequests()[1]!.body as { messages: { role: string; content: string }[] };
    expect(second.messages.at(-1)?.content).toMatch(
      /^spotbugs_advisor: spotbugs-not-installed is not installed here \(not found on PATH\); use the other tools\n\nState: /,
    );
  });
});
