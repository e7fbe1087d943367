import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commonPrefixLength,
  parseModelCost,
  PromptCacheCost,
  renderPromptAsModelReadsIt,
  sharedPrefixShare,
} from '../../src/bench/model-cost.js';
import { SCRIPTED_MODEL, startScriptedOllama, type ScriptedOllama } from '../../src/bench/scripted-ollama.js';
import { formatModelCostTable } from '../../src/bench/model-cost-table.js';
import { estimateTokens } from '../../src/model/context-window.js';

const RATES = { prompt: 60, output: 8, load: 6, scale: 0 };
let server: ScriptedOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const system = 'You repair Java builds. '.repeat(40);
const failure = 'Test failure: SeriesTest.sum expected 6 but was 3. '.repeat(10);

describe('parseModelCost', () => {
  it('reads prompt, output, load and an optional scale', () => {
    expect(parseModelCost('prompt=60,output=8,load=6')).toEqual(RATES);
    expect(parseModelCost('prompt=60, output=8.5, load=0, scale=0.1')).toEqual({
      prompt: 60,
      output: 8.5,
      load: 0,
      scale: 0.1,
    });
  });

  it.each([
    ['prompt=60,output=8', /"load" missing/],
    ['prompt=60,output=8,load=6,speed=2', /unknown key "speed"/],
    ['prompt=60,prompt=70,output=8,load=6', /"prompt" given twice/],
    ['prompt=0,output=8,load=6', /above zero/],
    ['prompt=fast,output=8,load=6', /"prompt=fast" is not key=number/],
  ])('%s is refused with a clear error', (text, why) => {
    expect(() => parseModelCost(text)).toThrow(why);
  });
});

describe('the model as it reads a request', () => {
  it('renders ChatML with the tools in the system turn and an open assistant turn', () => {
    const text = renderPromptAsModelReadsIt({
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'U' },
        { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read', arguments: { f: 1 } } }] },
        { role: 'tool', content: 'R' },
      ],
      tools: [{ type: 'function', function: { name: 'read' } }],
    });
    expect(text).toBe(
      '<|im_start|>system\nS\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n<tools>\n{"type":"function","function":{"name":"read"}}\n</tools><|im_end|>\n' +
        '<|im_start|>user\nU<|im_end|>\n' +
        '<|im_start|>assistant\n\n<tool_call>\n{"name":"read","arguments":{"f":1}}\n</tool_call><|im_end|>\n' +
        '<|im_start|>user\n<tool_response>\nR\n</tool_response><|im_end|>\n<|im_start|>assistant\n',
    );
    expect(renderPromptAsModelReadsIt({ messages: [] })).toBe('');
  });

  it('measures common prefixes', () => {
    expect(commonPrefixLength('abcdef', 'abcxyz')).toBe(3);
    expect(sharedPrefixShare('abcd', 'abcdefgh')).toBe(1);
    expect(sharedPrefixShare('abcd', 'abxx')).toBe(0.5);
  });
});

describe('PromptCacheCost', () => {
  it('charges the load once, then only the tokens after the prefix the model holds', () => {
    const cost = new PromptCacheCost(RATES);
    const first = cost.charge('m', 'A'.repeat(10) + ' stable words here', 'answer');
    expect(first.loadSeconds).toBe(6);
    expect(first.evaluatedTokens).toBe(first.promptTokens);
    const second = cost.charge('m', 'A'.repeat(10) + ' stable words here' + 'answer' + ' and more', 'x');
    expect(second.loadSeconds).toBe(0);
    expect(second.evaluatedTokens).toBeLessThan(second.promptTokens);
    expect(second.evaluatedTokens).toBe(estimateTokens(' and more'));
    // Another model has its own cache and its own load.
    expect(cost.charge('other', 'A'.repeat(10), 'y')).toMatchObject({ loadSeconds: 6, evaluatedTokens: 2 });
  });

  it('another num_ctx loads the model again and empties its cache, as Ollama reloads it', () => {
    const cost = new PromptCacheCost(RATES);
    cost.charge('m', 'hello there', 'x', 4096);
    expect(cost.charge('m', 'hello therex more', 'y', 4096)).toMatchObject({ loadSeconds: 0 });
    const bigger = cost.charge('m', 'hello therex morey again', 'z', 8192);
    expect(bigger.loadSeconds).toBe(6);
    expect(bigger.evaluatedTokens).toBe(bigger.promptTokens);
    // No num_ctx named: the loaded window stays.
    expect(cost.charge('m', 'hello therex morey againz', 'w').loadSeconds).toBe(0);
  });

  it('a load request loads without evaluating or forgetting', () => {
    const cost = new PromptCacheCost(RATES);
    expect(cost.load('m')).toMatchObject({ loadSeconds: 6, evaluatedTokens: 0, outputTokens: 0 });
    expect(cost.charge('m', 'hello there', 'x').loadSeconds).toBe(0);
    cost.load('m');
    // The cache holds the prompt and the answer written after it.
    expect(cost.charge('m', 'hello therex and on', 'y').evaluatedTokens).toBe(estimateTokens(' and on'));
  });
});

describe('the scripted server with a cost model, through the real ollama client', () => {
  it('reports Ollama fields: prompt_eval_count counts only evaluated tokens; a changed top is paid in full', async () => {
    server = await startScriptedOllama(['first answer', 'second answer', 'third answer'], { cost: RATES });
    const client = new Ollama({ host: server.url });
    const ask = (messages: { role: string; content: string }[]) =>
      client.chat({ model: SCRIPTED_MODEL, messages, stream: false });
    const one = await ask([
      { role: 'system', content: system },
      { role: 'user', content: failure },
    ]);
    expect(one.load_duration).toBe(6e9);
    const sent = estimateTokens(
      renderPromptAsModelReadsIt({
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: failure },
        ],
      }),
    );
    expect(one.prompt_eval_count).toBe(sent);
    expect(one.prompt_eval_duration).toBe(Math.round((sent / 60) * 1e9));
    expect(one.eval_count).toBe(estimateTokens('first answer'));
    expect(one.eval_duration).toBe(Math.round((estimateTokens('first answer') / 8) * 1e9));

    // Appended: only the new turn is evaluated (the model holds its own answer too), no load.
    const two = await ask([
      { role: 'system', content: system },
      { role: 'user', content: failure },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'Attempt 1 failed: still 3.' },
    ]);
    expect(two.load_duration).toBe(0);
    expect(two.prompt_eval_count).toBe(
      estimateTokens('<|im_end|>\n<|im_start|>user\nAttempt 1 failed: still 3.<|im_end|>\n<|im_start|>assistant\n'),
    );

    // A counter at the top: everything after it is evaluated again.
    const three = await ask([
      { role: 'system', content: `Step 3. ${system}` },
      { role: 'user', content: failure },
    ]);
    expect(three.prompt_eval_count).toBeGreaterThan(sent - 10);
    expect(server.charges().map((charge) => charge.evaluatedTokens)).toEqual([
      one.prompt_eval_count,
      two.prompt_eval_count,
      three.prompt_eval_count,
    ]);
  });

  it('streams the same counters on the closing line, and answers a load request without using a reply', async () => {
    server = await startScriptedOllama(['only answer'], { cost: RATES });
    const client = new Ollama({ host: server.url });
    const load = await client.chat({ model: SCRIPTED_MODEL, messages: [], stream: false, keep_alive: '5m' });
    expect(load.done_reason).toBe('load');
    expect(load.load_duration).toBe(6e9);
    let last: { prompt_eval_count?: number; load_duration?: number; done?: boolean } = {};
    for await (const part of await client.chat({
      model: SCRIPTED_MODEL,
      messages: [{ role: 'user', content: failure }],
      stream: true,
    }))
      last = part;
    expect(last.done).toBe(true);
    expect(last.load_duration).toBe(0);
    expect(last.prompt_eval_count).toBeGreaterThan(50);
    expect(server.calls()).toBe(1);
  });

  it('the cost table gives per run the tokens sent, evaluated and written and the seconds', () => {
    const table = formatModelCostTable(
      [
        {
          name: 'case-a',
          kind: 'test',
          expect: 'fixed',
          modules: 1,
          mavenMs: 1000,
          samples: [
            {
              exitCode: 0,
              latencyMs: 5000,
              status: 'fixed',
              modelCalls: 2,
              attempts: 2,
              proposed: 2,
              applicable: 2,
              modelCost: {
                calls: 2,
                loads: 1,
                promptTokens: 2000,
                evaluatedTokens: 1200,
                outputTokens: 100,
                modelSeconds: 38.5,
                aheadSeconds: 0,
                otherSeconds: 5,
                perCall: [
                  { sent: 900, evaluated: 900, output: 50 },
                  { sent: 1100, evaluated: 300, output: 50 },
                ],
              },
            },
          ],
        },
      ],
      RATES,
    );
    expect(table).toContain(
      '| case-a | fixed | 2 | 2000 | 1200 | 60% | 100 | 38.5 | 0.0 | 5.0 | 43.5 | 900→900, 1100→300 |',
    );
    expect(table).toContain('Per fixed run (1): 1200 tokens evaluated, 38.5 model s.');
    expect(table).toContain('Calls after the first of a run (1): 27% of their prompt tokens evaluated.');
  });
});
