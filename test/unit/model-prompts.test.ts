import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnose/types.js';
import { estimateTokens } from '../../src/model/context-window.js';
import {
  buildRepairPrompt,
  composeRepairPrompt,
  EDIT_FORMAT_INSTRUCTIONS,
  packContext,
  SYSTEM_PROMPT,
  type ContextPiece,
  type RepairPromptInput,
} from '../../src/model/prompts/index.js';

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
    stackTrace:
      'org.opentest4j.AssertionFailedError: expected: <5> but was: <6>\n\tat com.acme.CalcTest.addsTwoNumbers(CalcTest.java:9)',
    reportFile: 'target/surefire-reports/TEST-com.acme.CalcTest.xml',
  },
  fingerprint: 'f2',
};

const appSource: ContextPiece = {
  path: 'src/main/java/com/acme/App.java',
  startLine: 1,
  text: 'package com.acme;\n\npublic class App {\n    public static void main(String[] args) {\n        System.out.println(names());\n    }\n    static List<String> names() {\n        return java.util.List.of("a");\n    }\n}',
  tier: 'primary',
  score: 100,
  label: 'class App',
  reason: 'where javac fails',
};

function input(overrides: Partial<RepairPromptInput> = {}): RepairPromptInput {
  return {
    diagnostics: [missingImport],
    context: [appSource],
    editFormat: 'diff',
    history: [],
    contextTokens: 8192,
    ...overrides,
  };
}

const user = (messages: { role: string; content: string }[]) => messages.find((m) => m.role === 'user')?.content ?? '';
const system = (messages: { role: string; content: string }[]) =>
  messages.find((m) => m.role === 'system')?.content ?? '';

const piece = (overrides: Partial<ContextPiece> & Pick<ContextPiece, 'label'>): ContextPiece => ({
  tier: 'other',
  score: 0,
  text: 'x',
  ...overrides,
});
const lines = (n: number, word = 'code') => Array.from({ length: n }, (_, i) => `    ${word}${i}();`).join('\n');

describe('buildRepairPrompt', () => {
  it('sends the rules and the files the model may edit, then the failure and the numbered code', () => {
    const messages = buildRepairPrompt(input());
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(system(messages)).toBe(
      `${SYSTEM_PROMPT}\n\nFiles you may edit (all shown in the prompt):\n- src/main/java/com/acme/App.java`,
    );
    const text = user(messages);
    expect(text).toContain('Compile error in src/main/java/com/acme/App.java, line 7, column 9 (module app):');
    expect(text).toContain('symbol:   class List');
    expect(text).toContain('location: class com.acme.App');
    expect(text).toContain(
      '### src/main/java/com/acme/App.java\nShown: where javac fails\n```java\n 1 | package com.acme;',
    );
    expect(text).toContain(' 7 |     static List<String> names() {');
    expect(text).toContain('10 | }');
  });

  it('shows a file once, its pieces merged and numbered from their own lines, runs apart split into blocks', () => {
    const text = user(
      buildRepairPrompt(
        input({
          context: [
            piece({
              path: 'src/A.java',
              startLine: 98,
              text: 'a();\nb();',
              label: 'm1',
              reason: 'first',
              tier: 'primary',
            }),
            piece({ path: 'src/A.java', startLine: 99, text: 'b();\nc();', label: 'm2', reason: 'second' }),
            piece({ path: 'src/A.java', startLine: 1, text: 'package a;', label: 'imports', reason: 'first' }),
          ],
        }),
      ),
    );
    expect(text.match(/### src\/A\.java/g)).toHaveLength(1);
    expect(text).toContain('Shown: first; second');
    expect(text).toContain('```java\n  1 | package a;\n```\n...\n```java\n 98 | a();\n 99 | b();\n100 | c();\n```');
  });

  it('names a shown file that policy protects as read-only, in the system message and at the file', () => {
    const messages = buildRepairPrompt(
      input({
        context: [appSource, piece({ path: 'pom.xml', startLine: 1, text: '<project/>', label: 'pom' })],
        editable: (path) => path !== 'pom.xml',
      }),
    );
    expect(system(messages)).toContain(
      'Files you may edit (all shown in the prompt):\n- src/main/java/com/acme/App.java\nShown for reference only (team policy protects them):\n- pom.xml',
    );
    expect(user(messages)).toContain('### pom.xml (read-only: policy protects it)');
  });

  it('while tests fail: says the test side is read-only and shows its files as such (issue 25)', () => {
    const helper = piece({
      path: 'src/test/java/com/acme/AppTest.java',
      startLine: 1,
      text: 'class AppTest {}',
      label: 'test',
    });
    const messages = buildRepairPrompt(
      input({ context: [appSource, helper], testSide: (path) => path.startsWith('src/test/') }),
    );
    expect(system(messages)).toContain(
      'Files you may edit (all shown in the prompt):\n- src/main/java/com/acme/App.java\nShown for reference only (the test side is read-only while tests fail):\n- src/test/java/com/acme/AppTest.java',
    );
    expect(user(messages)).toContain(
      '### src/test/java/com/acme/AppTest.java (read-only: the test side, while tests fail)',
    );
    expect(user(messages)).toContain('The test side is read-only while tests fail');
    expect(user(buildRepairPrompt(input({ context: [appSource, helper] })))).not.toContain(
      'The test side is read-only',
    );
  });

  it('puts library declarations in their own section, never among the editable files', () => {
    const messages = buildRepairPrompt(
      input({
        context: [
          appSource,
          piece({
            heading: 'java.util.List (JDK)',
            text: 'interface java.util.List<E> {\n    boolean add(E);\n}',
            label: 'members of java.util.List',
            tier: 'declaration',
          }),
        ],
      }),
    );
    expect(user(messages)).toContain(
      '## Declarations from the JDK and libraries (not editable)\n\n### java.util.List (JDK)\n```java\ninterface java.util.List<E> {',
    );
    expect(system(messages)).not.toContain('java.util.List');
  });

  it.each(['diff', 'search-replace', 'json'] as const)('ends with the exact %s format instructions', (editFormat) => {
    const text = user(buildRepairPrompt(input({ editFormat })));
    expect(text.endsWith(EDIT_FORMAT_INSTRUCTIONS[editFormat])).toBe(true);
    for (const other of (['diff', 'search-replace', 'json'] as const).filter((f) => f !== editFormat)) {
      expect(text).not.toContain(EDIT_FORMAT_INSTRUCTIONS[other]);
    }
  });

  it('describes a test failure with its root cause and the whole stack', () => {
    const wrapped: Diagnostic = {
      ...failingTest,
      testFailure: {
        ...failingTest.testFailure!,
        rootCause: 'java.lang.NullPointerException: value is null',
        stackTrace:
          'com.acme.ExportException: boom\n\tat com.acme.Exporter.export(Exporter.java:15)\nCaused by: java.lang.NullPointerException: value is null\n\tat com.acme.CsvRow.cell(CsvRow.java:20)\n\t... 4 more',
      },
    };
    const text = user(buildRepairPrompt(input({ diagnostics: [wrapped] })));
    expect(text).toContain(
      'Test failure: com.acme.CalcTest#addsTwoNumbers (module app), failing at src/main/java/com/acme/Calc.java, line 4',
    );
    expect(text).toContain('   Root cause: java.lang.NullPointerException: value is null');
    expect(text).toContain(
      '     Caused by: java.lang.NullPointerException: value is null\n     at com.acme.CsvRow.cell(CsvRow.java:20)\n     ... 4 more',
    );
  });

  it('lists every earlier attempt with how it failed, and the diffs that were tried', () => {
    const text = user(
      buildRepairPrompt(
        input({
          history: [
            {
              n: 2,
              outcome: 'build-failed',
              reason: 'App.java:[3,1] class, interface, or enum expected',
              diff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+tried-second',
            },
            { n: 1, outcome: 'rejected', reason: 'the patch touches pom.xml, which is protected' },
          ],
        }),
      ),
    );
    expect(text).toContain('## Earlier attempts that did not work (do not repeat them)');
    expect(text).toContain('Attempt 1 (rejected): the patch touches pom.xml, which is protected');
    expect(text).toContain(
      'Attempt 2 (build-failed): App.java:[3,1] class, interface, or enum expected\n```diff\n--- a/x',
    );
    expect(text.indexOf('Attempt 1')).toBeLessThan(text.indexOf('Attempt 2'));
  });

  it('adds no history section on a first attempt', () => {
    expect(user(buildRepairPrompt(input()))).not.toContain('Earlier attempts');
  });

  it('puts the team guidelines last in the system message, cut at a line when they are too long', () => {
    const [first] = buildRepairPrompt(input({ guidelines: 'Use Optional instead of returning null.' }));
    expect(
      first?.content.endsWith(
        'Team guidelines (follow them in every change):\nUse Optional instead of returning null.',
      ),
    ).toBe(true);
    const long = Array.from({ length: 2000 }, (_, i) => `Rule ${i}: keep it short.`).join('\n');
    const cut = system(buildRepairPrompt(input({ guidelines: long, contextTokens: 4096 })));
    expect(cut).toContain('(guidelines cut here to fit the context window)');
    expect(estimateTokens(cut)).toBeLessThan(4096 * 0.2 + estimateTokens(SYSTEM_PROMPT) + 100);
  });

  it('fills the window with the most relevant whole pieces, leaves room for the answer and names what it left out', () => {
    const context = [
      piece({
        path: 'src/Main.java',
        startLine: 10,
        text: lines(40, 'primary'),
        label: 'method Main.run()',
        tier: 'primary',
        score: 100,
      }),
      ...Array.from({ length: 30 }, (_, i) =>
        piece({
          path: `src/F${i}.java`,
          startLine: 1,
          text: lines(20),
          label: `method F${i}.m()`,
          tier: 'declaration',
          score: 30 - i,
        }),
      ),
      piece({
        path: 'src/Test.java',
        startLine: 5,
        text: lines(10, 'test'),
        label: 'method T.test()',
        tier: 'test',
        score: 100,
      }),
    ];
    const prompt = composeRepairPrompt(input({ context, contextTokens: 5000 }));
    expect(prompt.tokens).toBeLessThanOrEqual(5000 - 2048);
    const text = user(prompt.messages);
    expect(text).toContain('primary39();');
    expect(text).toContain('test9();');
    expect(text).toContain('### src/F0.java');
    expect(text).not.toContain('### src/F29.java');
    expect(text).toMatch(/## Left out to keep the prompt short\n\n- src\/F\d+\.java: m\(\) at 1\n/);
    expect(text).toMatch(/- and \d+ more/);
    // One line per file, the owner's name taken off: the file says whose method it is.
    expect(text.slice(text.indexOf('## Left out'))).not.toContain('method F');
    // Only what is shown is offered for editing.
    expect(prompt.files).toContain('src/Main.java');
    expect(prompt.files).not.toContain('src/F29.java');
    expect(system(prompt.messages)).not.toContain('src/F29.java');
  });

  it('names what it left out one line per file, each name without its owner', () => {
    const money = 'src/main/java/com/acme/Money.java';
    const context = [
      piece({ path: money, startLine: 200, text: lines(30), label: 'method Money.parse(String)', tier: 'primary' }),
      piece({
        path: money,
        startLine: 100,
        text: lines(60),
        label: 'constructor Money.Money(long, String)',
        tier: 'other',
      }),
      piece({ path: money, startLine: 1, text: lines(60), label: 'imports of Money.java', tier: 'other' }),
      piece({ path: money, startLine: 300, text: lines(60), label: 'field Money.cents', tier: 'other' }),
      piece({ text: lines(80), label: 'members of List', heading: 'java.util.List (JDK)', tier: 'other' }),
    ];
    const text = user(composeRepairPrompt(input({ context, contextTokens: 8192 })).messages);
    expect(text.slice(text.indexOf('## Left out'), text.indexOf('## Your answer'))).toBe(
      `## Left out to keep the prompt short\n\n- ${money}: Money(long, String) at 100; imports at 1; field cents at 300\n- members of List\n\n`,
    );
  });

  it('drops older diffs before newer ones when the window is short', () => {
    const bigDiff = (tag: string) =>
      `--- a/x\n+++ b/x\n@@ -1,40 +1,40 @@\n${Array.from({ length: 40 }, () => `+${tag} line of a tried change`).join('\n')}`;
    const history = [1, 2, 3].map((n) => ({
      n,
      outcome: 'build-failed',
      reason: `reason ${n}`,
      diff: bigDiff(`try${n}`),
    }));
    const text = user(buildRepairPrompt(input({ history, contextTokens: 2048 + 1900 })));
    expect(text).toContain('+try3 line');
    expect(text).not.toContain('+try1 line');
    expect(text).toContain('Attempt 1 (build-failed): reason 1');
  });

  it('is a pure function: the same input gives the same messages', () => {
    expect(buildRepairPrompt(input())).toEqual(buildRepairPrompt(input()));
  });

  it('explains each bad input', () => {
    expect(() => buildRepairPrompt(input({ diagnostics: [] }))).toThrow(
      'buildRepairPrompt needs at least one diagnostic',
    );
    expect(() => buildRepairPrompt(input({ contextTokens: 0 }))).toThrow(
      'contextTokens must be a positive number of tokens, got 0',
    );
    expect(() => buildRepairPrompt(input({ contextTokens: 2048 }))).toThrow(
      'answerTokens must leave room for a prompt in 2048 tokens, got 2048',
    );
    expect(() => buildRepairPrompt(input({ editFormat: 'whole' as never }))).toThrow(
      'editFormat must be one of diff, search-replace, json, got "whole"',
    );
    expect(() => buildRepairPrompt(input({ context: [piece({ path: 'A.java', startLine: 0, label: 'm' })] }))).toThrow(
      'context piece of A.java must start at a line number of 1 or more, got 0',
    );
    expect(() => buildRepairPrompt(input({ context: [piece({ startLine: 3, label: 'orphan' })] }))).toThrow(
      'context piece "orphan" has a start line but no path',
    );
  });
});

describe('packContext', () => {
  const cases: { name: string; pieces: ContextPiece[]; budget: number; included: string[]; omitted: string[] }[] = [
    {
      name: 'takes tiers in order: primary, declaration, test, other, whatever the scores',
      pieces: [
        piece({ label: 'other', tier: 'other', score: 99, path: 'o.java', startLine: 1, text: 'o' }),
        piece({ label: 'test', tier: 'test', score: 99, path: 't.java', startLine: 1, text: 't' }),
        piece({ label: 'decl', tier: 'declaration', score: 1, path: 'd.java', startLine: 1, text: 'd' }),
        piece({ label: 'primary', tier: 'primary', score: 1, path: 'p.java', startLine: 1, text: 'p' }),
      ],
      budget: 10_000,
      included: ['primary', 'decl', 'test', 'other'],
      omitted: [],
    },
    {
      name: 'takes supporting (`other`) pieces only within a quarter of what the other tiers took, however large the window',
      pieces: [
        piece({ label: 'primary', tier: 'primary', score: 1, path: 'p.java', startLine: 1, text: lines(200) }),
        piece({ label: 'rest 1', tier: 'other', score: 30, path: 'p.java', startLine: 300, text: lines(40) }),
        piece({ label: 'rest 2', tier: 'other', score: 20, path: 'p.java', startLine: 400, text: lines(40) }),
        piece({ label: 'imports', tier: 'other', score: 0, path: 'q.java', startLine: 1, text: lines(40) }),
      ],
      budget: 100_000,
      included: ['primary', 'rest 1'],
      omitted: ['rest 2', 'imports'],
    },
    {
      name: 'takes a small supporting piece beside a small failure (the floor), and one whose lines are shown already',
      pieces: [
        piece({ label: 'primary', tier: 'primary', score: 1, path: 'p.java', startLine: 1, text: lines(3) }),
        piece({ label: 'rest', tier: 'other', score: 30, path: 'p.java', startLine: 10, text: lines(5) }),
        piece({ label: 'inside', tier: 'other', score: 0, path: 'p.java', startLine: 1, text: lines(2) }),
      ],
      budget: 100_000,
      included: ['primary', 'rest', 'inside'],
      omitted: [],
    },
    {
      name: 'orders by score within a tier, ties by input order',
      pieces: [
        piece({ label: 'low', tier: 'primary', score: 1, path: 'a.java', startLine: 1, text: 'a' }),
        piece({ label: 'high', tier: 'primary', score: 5, path: 'b.java', startLine: 1, text: 'b' }),
        piece({ label: 'tie', tier: 'primary', score: 1, path: 'c.java', startLine: 1, text: 'c' }),
      ],
      budget: 10_000,
      included: ['high', 'low', 'tie'],
      omitted: [],
    },
    {
      name: 'leaves a piece out whole and still takes a smaller one after it',
      pieces: [
        piece({ label: 'big', tier: 'primary', score: 10, path: 'a.java', startLine: 1, text: lines(200) }),
        piece({ label: 'small', tier: 'primary', score: 5, path: 'b.java', startLine: 1, text: lines(3) }),
      ],
      budget: 200,
      included: ['small'],
      omitted: ['big'],
    },
    {
      name: 'charges nothing for lines another piece of the file already brought',
      pieces: [
        piece({ label: 'class', tier: 'primary', score: 10, path: 'a.java', startLine: 1, text: lines(30) }),
        piece({
          label: 'method inside',
          tier: 'primary',
          score: 5,
          path: 'a.java',
          startLine: 5,
          text: lines(30).split('\n').slice(4, 10).join('\n'),
        }),
      ],
      budget: 10_000,
      included: ['class', 'method inside'],
      omitted: [],
    },
    {
      name: 'takes nothing with no budget',
      pieces: [piece({ label: 'a', tier: 'primary', path: 'a.java', startLine: 1, text: 'a' })],
      budget: 0,
      included: [],
      omitted: ['a'],
    },
  ];

  it.each(cases)('$name', ({ pieces, budget, included, omitted }) => {
    const result = packContext(pieces, budget);
    expect(result.included.map((p) => p.label)).toEqual(included);
    expect(result.omitted.map((p) => p.label)).toEqual(omitted);
    expect(result.tokens).toBeLessThanOrEqual(budget);
  });

  it('costs a piece inside lines already taken nothing more', () => {
    const whole = piece({ label: 'class', tier: 'primary', path: 'a.java', startLine: 1, text: lines(30) });
    const inner = piece({
      label: 'inner',
      tier: 'other',
      path: 'a.java',
      startLine: 5,
      text: lines(30).split('\n').slice(4, 10).join('\n'),
    });
    expect(packContext([whole, inner], 10_000).tokens).toBe(packContext([whole], 10_000).tokens);
  });

  it('refuses a negative or non-numeric budget', () => {
    expect(() => packContext([], -1)).toThrow('budgetTokens must be a non-negative number, got -1');
    expect(() => packContext([], Number.NaN)).toThrow('budgetTokens must be a non-negative number, got NaN');
  });
});

describe('the failure as the model reads it', () => {
  const prompt = (diagnostic: Diagnostic) =>
    buildRepairPrompt({
      diagnostics: [diagnostic],
      context: [],
      editFormat: 'diff',
      history: [],
      contextTokens: 8192,
    })[1]!.content;
  const base = { category: 'compile' as const, fixable: true, file: 'src/A.java', line: 3, fingerprint: 'f' };

  it('names a -Werror warning, a javadoc error and a quality finding as what they are', () => {
    expect(prompt({ ...base, kind: 'compile', message: 'found raw type: java.util.List', lint: 'rawtypes' })).toContain(
      '1. javac warning [rawtypes] that fails the build under -Werror in src/A.java, line 3:',
    );
    expect(prompt({ ...base, kind: 'compile', message: 'malformed HTML', tool: 'javadoc' })).toContain(
      '1. Javadoc error in src/A.java, line 3:',
    );
    expect(
      prompt({
        ...base,
        kind: 'quality',
        category: 'quality',
        message: 'File contains tab characters',
        tool: 'checkstyle',
        rule: 'FileTabCharacter',
      }),
    ).toContain('1. checkstyle check failed (rule FileTabCharacter) in src/A.java, line 3:');
    expect(prompt({ ...base, kind: 'compile', message: 'cannot find symbol' })).toContain(
      '1. Compile error in src/A.java, line 3:',
    );
  });
});

describe('a bug that fails many tests (jsoup: a wrong constant in Printer fails 152)', () => {
  const stack = Array.from(
    { length: 60 },
    (_, i) => `\tat org.jsoup.nodes.Printer.frame${i}(Printer.java:${100 + i})`,
  ).join('\n');
  const many: Diagnostic[] = Array.from({ length: 152 }, (_, i) => ({
    ...failingTest,
    test: `org.jsoup.nodes.ElementTest#outerHtml${i}`,
    message: `expected: <<p>One</p>> but was: <<p>\n One\n</p>> (case ${i})`,
    testFailure: {
      ...failingTest.testFailure!,
      className: 'org.jsoup.nodes.ElementTest',
      method: `outerHtml${i}`,
      stackTrace: `org.opentest4j.AssertionFailedError: case ${i}\n${stack}`,
    },
    fingerprint: `f${i}`,
  }));

  it('fits the window: the first failures in full, the next one line each, then how many more', () => {
    const prompt = composeRepairPrompt(input({ diagnostics: many, context: [appSource], contextTokens: 8192 }));
    expect(prompt.tokens).toBeLessThanOrEqual(8192 - 1024);
    const text = user(prompt.messages);
    expect(text).toContain('1. Test failure: org.jsoup.nodes.ElementTest#outerHtml0');
    expect(text).toMatch(
      /More failures, one line each:\n\d+\. org\.jsoup\.nodes\.ElementTest#outerHtml\d+: expected: <<p>One<\/p>> but was: <<p>/,
    );
    expect(text).toMatch(/\.\.\. and \d+ more failures not shown \(152 in all\)\./);
    // The code is still shown: the failures did not take the window.
    expect(text).toContain('public class App');
  });

  it('a few failures are all shown in full, with no count', () => {
    const few = many
      .slice(0, 3)
      .map((d) => ({ ...d, testFailure: { ...d.testFailure!, stackTrace: failingTest.testFailure!.stackTrace } }));
    const text = user(buildRepairPrompt(input({ diagnostics: few })));
    expect(text).toContain('3. Test failure: org.jsoup.nodes.ElementTest#outerHtml2');
    expect(text).not.toContain('not shown');
    expect(text).not.toContain('More failures');
  });
});
