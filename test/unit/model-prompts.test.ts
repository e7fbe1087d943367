import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnose/types.js';
import { estimateTokens } from '../../src/model/context-window.js';
import { buildRepairPrompt, EDIT_FORMAT_INSTRUCTIONS, SYSTEM_PROMPT, type RepairPromptInput } from '../../src/model/prompts/index.js';

const missingImport: Diagnostic = {
  kind: 'compile',
  category: 'compile',
  fixable: true,
  message: 'cannot find symbol',
  file: 'src/main/java/com/acme/App.java',
  line: 7,
  column: 9,
  module: 'app',
  details: ['symbol:   class List', 'location: class com.acme.App'],
  scope: 'main',
  fingerprint: 'f1',
};

const failingTest: Diagnostic = {
  kind: 'test',
  category: 'test',
  fixable: true,
  message: 'expected: <5> but was: <6>',
  file: 'src/main/java/com/acme/Calc.java',
  line: 4,
  module: 'app',
  test: 'com.acme.CalcTest#addsTwoNumbers',
  testFailure: {
    className: 'com.acme.CalcTest',
    method: 'addsTwoNumbers',
    outcome: 'failure',
    failureType: 'org.opentest4j.AssertionFailedError',
    stackTrace: 'org.opentest4j.AssertionFailedError: expected: <5> but was: <6>\n\tat com.acme.CalcTest.addsTwoNumbers(CalcTest.java:9)',
    reportFile: 'target/surefire-reports/TEST-com.acme.CalcTest.xml',
  },
  fingerprint: 'f2',
};

const appSource = { path: 'src/main/java/com/acme/App.java', startLine: 1, text: 'package com.acme;\n\npublic class App {\n    public static void main(String[] args) {\n        System.out.println(names());\n    }\n    static List<String> names() {\n        return java.util.List.of("a");\n    }\n}' };

function input(overrides: Partial<RepairPromptInput> = {}): RepairPromptInput {
  return { diagnostics: [missingImport], sources: [appSource], editFormat: 'diff', history: [], tokenBudget: 6000, ...overrides };
}

const user = (messages: { role: string; content: string }[]) => messages.find((m) => m.role === 'user')?.content ?? '';

describe('buildRepairPrompt', () => {
  it('sends a system message with the rules and a user message with the failure and numbered source', () => {
    const messages = buildRepairPrompt(input());
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toBe(SYSTEM_PROMPT);
    const text = user(messages);
    expect(text).toContain('Compile error in src/main/java/com/acme/App.java, line 7, column 9 (module app):');
    expect(text).toContain('cannot find symbol');
    expect(text).toContain('symbol:   class List');
    expect(text).toContain('location: class com.acme.App');
    expect(text).toContain('### src/main/java/com/acme/App.java (lines 1-10)\n```java\n 1 | package com.acme;');
    expect(text).toContain(' 7 |     static List<String> names() {');
    expect(text).toContain('10 | }');
  });

  it('numbers an excerpt from its own start line', () => {
    const text = user(buildRepairPrompt(input({ sources: [{ path: 'src/A.java', startLine: 98, text: 'a();\nb();\nc();' }] })));
    expect(text).toContain(' 98 | a();\n 99 | b();\n100 | c();');
    expect(text).toContain('(lines 98-100)');
  });

  it.each(['diff', 'search-replace', 'json'] as const)('ends with the exact %s format instructions', (editFormat) => {
    const text = user(buildRepairPrompt(input({ editFormat })));
    expect(text.endsWith(EDIT_FORMAT_INSTRUCTIONS[editFormat])).toBe(true);
    for (const other of (['diff', 'search-replace', 'json'] as const).filter((f) => f !== editFormat)) {
      expect(text).not.toContain(EDIT_FORMAT_INSTRUCTIONS[other]);
    }
  });

  it('describes a test failure with its test, assertion, stack and the failing test code', () => {
    const testCode = { path: 'src/test/java/com/acme/CalcTest.java', startLine: 8, text: '    @Test void addsTwoNumbers() {\n        assertEquals(5, new Calc().add(2, 3));\n    }' };
    const text = user(buildRepairPrompt(input({ diagnostics: [failingTest], sources: [{ path: 'src/main/java/com/acme/Calc.java', startLine: 3, text: '    int add(int a, int b) {\n        return a + b + 1;\n    }' }], failingTests: [testCode] })));
    expect(text).toContain('Test failure: com.acme.CalcTest#addsTwoNumbers (module app), failing at src/main/java/com/acme/Calc.java, line 4');
    expect(text).toContain('Assertion failed: org.opentest4j.AssertionFailedError');
    expect(text).toContain('at com.acme.CalcTest.addsTwoNumbers(CalcTest.java:9)');
    expect(text).toContain('## The failing test');
    expect(text).toContain(' 9 |         assertEquals(5, new Calc().add(2, 3));');
    expect(text.indexOf('## Source')).toBeLessThan(text.indexOf('## The failing test'));
  });

  it('lists every earlier attempt with how it failed, and the diffs that were tried', () => {
    const text = user(
      buildRepairPrompt(
        input({
          history: [
            { n: 2, outcome: 'build-failed', reason: 'App.java:[3,1] class, interface, or enum expected', diff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+tried-second' },
            { n: 1, outcome: 'rejected', reason: 'the patch touches pom.xml, which is protected' },
          ],
        }),
      ),
    );
    expect(text).toContain('## Earlier attempts that did not work (do not repeat them)');
    expect(text).toContain('Attempt 1 (rejected): the patch touches pom.xml, which is protected');
    expect(text).toContain('Attempt 2 (build-failed): App.java:[3,1] class, interface, or enum expected\n```diff\n--- a/x');
    expect(text).toContain('+tried-second');
    expect(text.indexOf('Attempt 1')).toBeLessThan(text.indexOf('Attempt 2'));
  });

  it('adds no history section on a first attempt', () => {
    expect(user(buildRepairPrompt(input()))).not.toContain('Earlier attempts');
  });

  it('puts the team guidelines into the system message', () => {
    const [system] = buildRepairPrompt(input({ guidelines: 'Use Optional instead of returning null.' }));
    expect(system?.content).toContain('Team guidelines (follow them in every change):\nUse Optional instead of returning null.');
  });

  it('stays within the token budget by leaving out source, noting what it left out', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ path: `src/main/java/F${i}.java`, startLine: 1, text: `class F${i} {\n${'    int field;\n'.repeat(40)}}` }));
    const budget = 2500;
    const messages = buildRepairPrompt(input({ sources: many, tokenBudget: budget }));
    const total = messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
    expect(total).toBeLessThanOrEqual(budget);
    const text = user(messages);
    expect(text).toContain('### src/main/java/F0.java');
    expect(text).not.toContain('### src/main/java/F29.java');
    expect(text).toMatch(/\(\d+ more excerpts left out to fit the context window\)/);
    expect(text).toContain('cannot find symbol');
  });

  it('drops older diffs before newer ones when the budget is short', () => {
    const bigDiff = (tag: string) => `--- a/x\n+++ b/x\n@@ -1,40 +1,40 @@\n${Array.from({ length: 40 }, () => `+${tag} line of a tried change`).join('\n')}`;
    const history = [1, 2, 3].map((n) => ({ n, outcome: 'build-failed', reason: `reason ${n}`, diff: bigDiff(`try${n}`) }));
    const text = user(buildRepairPrompt(input({ history, tokenBudget: 1300 })));
    expect(text).toContain('+try3 line');
    expect(text).not.toContain('+try1 line');
    expect(text).toContain('Attempt 1 (build-failed): reason 1');
  });

  it('is a pure function: the same input gives the same messages', () => {
    expect(buildRepairPrompt(input())).toEqual(buildRepairPrompt(input()));
  });

  it('explains each bad input', () => {
    expect(() => buildRepairPrompt(input({ diagnostics: [] }))).toThrow('buildRepairPrompt needs at least one diagnostic');
    expect(() => buildRepairPrompt(input({ tokenBudget: 0 }))).toThrow('tokenBudget must be a positive number of tokens, got 0');
    expect(() => buildRepairPrompt(input({ editFormat: 'whole' as never }))).toThrow('editFormat must be one of diff, search-replace, json, got "whole"');
    expect(() => buildRepairPrompt(input({ sources: [{ path: 'A.java', startLine: 0, text: 'x' }] }))).toThrow('excerpt of A.java must start at a line number of 1 or more, got 0');
  });
});

describe('the failure as the model reads it', () => {
  const prompt = (diagnostic: Diagnostic) => buildRepairPrompt({ diagnostics: [diagnostic], sources: [], editFormat: 'diff', history: [], tokenBudget: 4_000 })[1]!.content;
  const base = { category: 'compile' as const, fixable: true, file: 'src/A.java', line: 3, fingerprint: 'f' };

  it('names a -Werror warning, a javadoc error and a quality finding as what they are', () => {
    expect(prompt({ ...base, kind: 'compile', message: 'found raw type: java.util.List', lint: 'rawtypes' })).toContain('1. javac warning [rawtypes] that fails the build under -Werror in src/A.java, line 3:');
    expect(prompt({ ...base, kind: 'compile', message: 'malformed HTML', tool: 'javadoc' })).toContain('1. Javadoc error in src/A.java, line 3:');
    expect(prompt({ ...base, kind: 'quality', category: 'quality', message: 'File contains tab characters', tool: 'checkstyle', rule: 'FileTabCharacter' })).toContain('1. checkstyle check failed (rule FileTabCharacter) in src/A.java, line 3:');
    expect(prompt({ ...base, kind: 'compile', message: 'cannot find symbol' })).toContain('1. Compile error in src/A.java, line 3:');
  });
});
