import { describe, expect, it } from 'vitest';
import { callKey, parseAgentReply } from '../../src/repair/agent/protocol.js';

describe('parseAgentReply', () => {
  it('reads a fenced tool call after prose, as local models write it', () => {
    const reply =
      'Let me look at the failing test first.\n\n```json\n{"tool": "extract_method", "args": {"file": "src/test/java/AppTest.java", "method": "adds"}}\n```\n';
    expect(parseAgentReply(reply)).toEqual({
      kind: 'call',
      tool: 'extract_method',
      args: { file: 'src/test/java/AppTest.java', method: 'adds' },
    });
  });

  it('reads OpenAI-style names, nested function objects, stringified arguments and trailing commas', () => {
    expect(parseAgentReply('{"name": "get_classes_and_methods", "arguments": {"file": "A.java"}}')).toEqual({
      kind: 'call',
      tool: 'get_classes_and_methods',
      args: { file: 'A.java' },
    });
    expect(
      parseAgentReply(
        '{"function": {"name": "read_range", "arguments": "{\\"file\\": \\"A.java\\", \\"start\\": 3}"}}',
      ),
    ).toEqual({ kind: 'call', tool: 'read_range', args: { file: 'A.java', start: 3 } });
    expect(
      parseAgentReply('Sure!\n{"tool": "read_range", "args": {"file": "A.java", "start": "1", "end": "7",},}'),
    ).toEqual({ kind: 'call', tool: 'read_range', args: { file: 'A.java', start: '1', end: '7' } });
    expect(parseAgentReply('{"action": "give_up"}')).toEqual({ kind: 'call', tool: 'give_up', args: {} });
  });

  it('takes a reply with a patch and no tool call as the fix', () => {
    const reply =
      'The divisor is wrong.\n\n```diff\n--- a/src/main/java/D.java\n+++ b/src/main/java/D.java\n@@ -5,1 +5,1 @@\n-        return p / 10;\n+        return p / 100;\n```\n';
    expect(parseAgentReply(reply)).toEqual({ kind: 'patch', text: reply });
  });

  it('does not mistake Java braces in prose for a tool call', () => {
    expect(parseAgentReply('I think `if (x) { return y; }` is the problem.')).toMatchObject({ kind: 'unreadable' });
    expect(parseAgentReply('')).toMatchObject({ kind: 'unreadable' });
  });
});

describe('callKey', () => {
  it('is the same for the same call whatever the key order or spacing', () => {
    expect(callKey('read_range', { start: 1, file: ' A.java ' })).toBe(
      callKey('read_range', { file: 'A.java', start: 1 }),
    );
    expect(callKey('read_range', { file: 'A.java', start: 1 })).not.toBe(
      callKey('read_range', { file: 'A.java', start: 2 }),
    );
  });
});
