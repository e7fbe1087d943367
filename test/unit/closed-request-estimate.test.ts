import { describe, expect, it } from 'vitest';
import { estimateClosedRequest, promptAsSent } from '../../src/model/closed-request-estimate.js';
import { estimateTokens } from '../../src/model/context-window.js';
import { ModelTraffic } from '../../src/model/traffic.js';

const system = { role: 'system' as const, content: 'You fix Java builds. Answer with one unified diff.' };
const failure = {
  role: 'user' as const,
  content: 'Calculator.java:12: error: ";" expected\n        int result = a + b',
};
const answer = '```diff\n--- a/src/Calculator.java\n+++ b/src/Calculator.java\n@@ -12 +12 @@\n-x\n+x;\n```\nDone.';

describe("a request mvnx closed at a whole answer: its tokens by mvnx's estimate", () => {
  it('with nothing known of the cache, the whole prompt is evaluated; the completion is the text read', () => {
    const prompt = promptAsSent([system, failure]);
    expect(estimateClosedRequest(undefined, prompt, answer)).toEqual({
      prompt: estimateTokens(prompt),
      completion: estimateTokens(answer),
    });
  });

  it("a second prompt that repeats the first and its answer is charged only what follows them, like the server's cache", () => {
    const first = promptAsSent([system, failure]);
    const feedback = { role: 'user' as const, content: 'The patch did not apply: hunk 1 matches nothing.' };
    const second = promptAsSent([system, failure, { role: 'assistant', content: answer }, feedback]);
    const estimate = estimateClosedRequest(`${first}${answer}`, second, '');
    expect(estimate.prompt).toBe(estimateTokens(second.slice(`${first}${answer}`.length)));
    expect(estimate.prompt).toBeLessThan(estimateTokens(feedback.content) + 10);
    expect(estimate.completion).toBe(0);
  });

  it('a prompt the cache holds whole still evaluates its last token', () => {
    const prompt = promptAsSent([system]);
    expect(estimateClosedRequest(`${prompt}more`, prompt, 'x').prompt).toBe(1);
  });

  it('tool definitions come first, as the model reads them', () => {
    const tools = [{ name: 'read_file', description: 'Reads a file', parameters: { type: 'object' } }];
    expect(promptAsSent([system], tools).startsWith(JSON.stringify(tools))).toBe(true);
    expect(promptAsSent([system], tools).length).toBeGreaterThan(promptAsSent([system]).length);
  });
});

describe('ModelTraffic keeps the estimate only where the server counted nothing', () => {
  const run = (host: string) => {
    const traffic = new ModelTraffic();
    const first = traffic.begin(host, 'm');
    first.sent(promptAsSent([system, failure]));
    first.end('answered', { promptTokens: 40, completionTokens: 30 }, { doneReason: 'stop' }, answer);
    const second = traffic.begin(host, 'm');
    second.sent(promptAsSent([system, failure, { role: 'assistant', content: answer }, failure]));
    second.end('answered', {}, { stoppedEarly: true }, answer);
    return traffic.requests;
  };

  it('a counted answer has no estimate; the closed one after it is estimated against the counted one', () => {
    const [counted, closed] = run('http://127.0.0.1:11434');
    expect(counted!.estimatedTokens).toBeUndefined();
    expect(closed).toMatchObject({ stoppedEarly: true });
    expect(closed!.promptTokens).toBeUndefined();
    // Only the repeated failure message after the first exchange is new.
    expect(closed!.estimatedTokens!.prompt).toBeLessThan(estimateTokens(failure.content) + 10);
    expect(closed!.estimatedTokens!.completion).toBe(estimateTokens(answer));
  });

  it('a failed call is not estimated and a call with no prompt recorded is not either', () => {
    const traffic = new ModelTraffic();
    const failed = traffic.begin('h', 'm');
    failed.sent('prompt');
    failed.end('failed');
    const unsent = traffic.begin('h', 'm');
    unsent.end('answered', {}, { stoppedEarly: true }, answer);
    expect(traffic.requests.map((request) => request.estimatedTokens)).toEqual([undefined, undefined]);
  });
});
