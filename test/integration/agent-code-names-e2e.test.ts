/**
 * Issue 30 end to end: a session whose every call names code the way a small model does
 * (a class and a method for a file, a qualified member, a file name alone, a stack-frame
 * source path, a CI runner's and a Windows path, lines as "L14-L20" and [1, 4]) reaches
 * write_fix with no call answered "needs", on a single-module project and on a
 * three-module one where OrderService exists in two modules and the first call gets the
 * candidates. The built mvnx, real Maven and the real Ollama client against the loopback
 * Ollama-API server.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBenchCases, materialiseCase } from '../../src/bench/cases.js';
import { startOllamaMock, type OllamaMock, type ScriptedReply } from '../helpers/ollama-mock.js';
import { repoRoot, runMvnx } from '../helpers/repair-project.js';

const CART = 'src/main/java/com/acme/shop/Cart.java';
const MONEY = 'src/main/java/com/acme/shop/Money.java';
// Wall and attempt time far above what the sessions need: this test is about names, and at the end of a
// full suite on two shared cores the default 300 s / 120 s once ended the run before attempt 1.
const CONFIG =
  'tier: monitor\nagent:\n  mode: always\n  maxSteps: 14\nfixers:\n  enabled: false\nbudget:\n  dynamic: false\n  maxModelCalls: 14\n  maxAttempts: 2\n' +
  '  maxWallSeconds: 1800\n  perAttemptTimeoutSeconds: 1200\n  hardCap:\n    maxWallSeconds: 1800\n    perAttemptTimeoutSeconds: 1200\n';

let mock: OllamaMock | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function benchProject(name: string): Promise<{ root: string; agentReplies: ScriptedReply[] }> {
  const [benchCase] = await loadBenchCases(path.join(repoRoot, 'bench/cases'), [name]);
  const parent = await mkdtemp(path.join(os.tmpdir(), 'mvnx-code-names-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  const root = path.join(parent, 'shop');
  await materialiseCase(benchCase!, root);
  await writeFile(path.join(root, '.mvnxrc.yaml'), CONFIG);
  return { root, agentReplies: (benchCase!.agentReplies ?? []) as ScriptedReply[] };
}

const native = (name: string, args: Record<string, unknown> = {}): ScriptedReply => ({
  text: '',
  toolCalls: [{ name, arguments: args }],
});
const text = (tool: string, args: Record<string, unknown>, prose: string): string =>
  `${prose}\n${JSON.stringify({ tool, args })}`;

/** What mvnx answered each call, from the session's log. */
async function answers(root: string, runId: string): Promise<string[]> {
  const log = await readFile(path.join(root, '.mvnx/runs', runId, 'attempt-1.agent-log.txt'), 'utf8');
  return log
    .split('### mvnx answered\n')
    .slice(1)
    .map((answer) => answer.split(/\n### /)[0]!.trimEnd());
}

const RIGHT = [
  '```diff',
  `--- a/${CART}`,
  `+++ b/${CART}`,
  '@@ -14,7 +14,7 @@ public class Cart {',
  '     public long totalCents() {',
  '         long sum = 0;',
  '         for (Item item : items) {',
  '-            sum += item.priceEuros() * item.quantity();',
  '+            sum += Money.toCents(item.priceEuros()) * item.quantity();',
  '         }',
  '         return sum;',
  '     }',
  '```',
].join('\n');

describe('agent tools take code the way models name it', () => {
  it('single module: every call names code by a Java name, a bare file name or a foreign path, and the session reaches a verified write_fix', async () => {
    const { root } = await benchProject('agent-cents-from-another-class');
    const replies: ScriptedReply[] = [
      // The call of the issue: on main it was answered `extract_method needs "file"` until the loop guard ended the session.
      text(
        'show_method',
        { class: 'Cart', method: 'totalCents' },
        'The test expects cents. Let me look at the method.',
      ),
      native('extract_test_code', { class: 'CartTest' }),
      native('express_hypothesis', { hypothesis: 'totalCents adds euro prices as if they were cents' }),
      native('get_classes_and_methods', { class: 'com.acme.shop.Money' }),
      native('extract_method', { file: 'Money.java', method: 'Money#toCents' }),
      native('read_range', { file: 'com/acme/shop/Cart.java', lines: 'L14-L20' }),
      native('read_range', {
        file: '/home/runner/work/shop/shop/src/main/java/com/acme/shop/Item.java',
        range: [1, 4],
      }),
      native('find_similar_api_calls', { class: 'Money', method: 'toCents' }),
      native('read_range', { file: 'C:\\ci\\shop\\src\\main\\java\\com\\acme\\shop\\Money.java', line: 9 }),
      native('extract_method', { method: 'toEuros()' }),
      native('write_fix', { patch: RIGHT }),
    ];
    mock = await startOllamaMock({ replies });
    const run = await runMvnx(root, ['-o', '-B', '-q', 'test', `--mvnx-host=${mock.url}`, '--mvnx-json']);
    expect(
      run.record?.status,
      `${run.record?.stopReason}: ${run.record?.message ?? ''} ${JSON.stringify(run.record?.attempts, null, 1)}`,
    ).toBe('fixed');
    expect(mock.failures).toEqual([]);
    const agent = run.record!.attempts[0]!.agent!;
    expect(agent).toMatchObject({ stop: 'fix-verified', steps: replies.length });
    expect(agent.toolCalls).toEqual({
      extract_method: 3,
      extract_test_code: 1,
      express_hypothesis: 1,
      get_classes_and_methods: 1,
      read_range: 3,
      find_similar_api_calls: 1,
      write_fix: 1,
    });
    const said = await answers(root, run.record!.runId);
    expect(said).toHaveLength(replies.length);
    for (const answer of said) expect(answer).not.toMatch(/needs "|was not run|no method|no file/);
    expect(said[0]).toBe(
      `(mvnx corrected your call: show_method → extract_method; "class" "Cart" and "method" "totalCents" → file "${CART}", method totalCents (method com.acme.shop.Cart.totalCents, line 14))\n` +
        '  14|     public long totalCents() {\n  15|         long sum = 0;\n  16|         for (Item item : items) {\n  17|             sum += item.priceEuros() * item.quantity();\n  18|         }\n  19|         return sum;\n  20|     }',
    );
    expect(said[1]).toContain('>>  20|         assertEquals(1050, cart.totalCents());');
    expect(said[3]).toContain('public static long toCents(double euros)');
    expect(said[4]).toContain(
      `(mvnx corrected your call: file "Money.java" and "method" "Money#toCents" → file "${MONEY}", method toCents`,
    );
    expect(said[5]).toContain('"lines" "L14-L20" → start 14, end 20;');
    expect(said[6]).toContain('   4| }');
    expect(said[7]).toContain('dropped "class" "Money": find_similar_api_calls does not look code up by class');
    expect(said[8]).toContain(
      `file "C:\\\\ci\\\\shop\\\\src\\\\main\\\\java\\\\com\\\\acme\\\\shop\\\\Money.java" → "${MONEY}"`,
    );
    expect(said[9]).toContain('public static double toEuros(long cents)');
    expect(said[10]).toBe('Fix 1: passed: the build and the tests pass with it');
  });

  it('three modules: the class in two modules gets the candidates, the next call picks one by its qualified name, and every other form resolves', async () => {
    const { root, agentReplies } = await benchProject('agent-code-names');
    mock = await startOllamaMock({ replies: agentReplies });
    const run = await runMvnx(root, ['-o', '-B', '-q', 'test', `--mvnx-host=${mock.url}`, '--mvnx-json']);
    expect(
      run.record?.status,
      `${run.record?.stopReason}: ${run.record?.message ?? ''} ${JSON.stringify(run.record?.attempts, null, 1)}`,
    ).toBe('fixed');
    expect(run.record!.attempts[0]!.agent).toMatchObject({ stop: 'fix-verified', steps: agentReplies.length });
    const said = await answers(root, run.record!.runId);
    expect(said).toHaveLength(agentReplies.length);
    for (const answer of said) expect(answer).not.toMatch(/needs "/);
    const orders = 'orders/src/main/java/com/acme/orders/OrderService.java';
    const legacy = 'legacy/src/main/java/com/acme/legacy/OrderService.java';
    expect(said[1]).toBe(
      [
        '(mvnx corrected your call: show_method → extract_method)',
        '"class" "OrderService" and "method" "total" names 2 declarations in the project; extract_method was not run. Call it again with the one you mean:',
        `- ${legacy}:7 (method com.acme.legacy.OrderService.total): {"tool":"extract_method","args":{"file":"${legacy}","method":"total"}}`,
        `- ${orders}:14 (method com.acme.orders.OrderService.total): {"tool":"extract_method","args":{"file":"${orders}","method":"total"}}`,
      ].join('\n'),
    );
    expect(said[2]).toContain('  19|         return sum - Discounts.percentOff(tier);');
    // Only the candidates answer was not run; every other reading call ran and answered from the code.
    expect(said.filter((answer) => answer.includes('was not run'))).toHaveLength(1);
    expect(said.at(-1)).toBe('Fix 1: passed: the build and the tests pass with it');
    expect(await readFile(path.join(root, '.mvnx/runs', run.record!.runId, 'fix.patch'), 'utf8')).toContain(
      '+        return Discounts.applyPercent(sum, Discounts.percentOff(tier));',
    );
  });
});
