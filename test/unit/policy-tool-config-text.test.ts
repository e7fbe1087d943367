/**
 * The pure parts of `mvnx tool add|remove` and of command tools (src/policy/edit-tools.ts,
 * command-line.ts), and the patch stage's view of the config (patch-policy.ts): text in,
 * text out, each case pinned to the exact text or the exact one-line error. tool-command.test.ts
 * reaches the same functions through the CLI on real files; this file is what the mutation
 * slice policy-capabilities runs (it loads no CLI, so a mutant run takes milliseconds).
 */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/policy/schema.js';
import { commandProblem, PLACEHOLDERS, splitCommandLine } from '../../src/policy/command-line.js';
import { addTool, configTextFormat, removeTool, toolNamesIn } from '../../src/policy/edit-tools.js';
import { toPatchPolicy } from '../../src/policy/patch-policy.js';

const LINT = { name: 'lint', command: 'lint %FILE%' };

/** The message JSON.parse gives for `text` on this Node version (the error quotes it after the file label). */
function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parses`);
}

describe('splitCommandLine', () => {
  it.each([
    ['', []],
    [' \t\n ', []],
    ['  pmd   check\t-d\n%FILE%  ', ['pmd', 'check', '-d', '%FILE%']],
    ["''", ['']],
    ['x "" y', ['x', '', 'y']],
    [`a"b c"'d e'f`, ['ab cd ef']],
    [`'single \\ "keeps" $all'`, ['single \\ "keeps" $all']],
    ['"say \\"hi\\""', ['say "hi"']],
    ['"\\\\ \\$HOME \\`x\\`"', ['\\ $HOME `x`']],
    ['"a\\nb \\%FILE%"', ['a\\nb \\%FILE%']],
    ['"$\\x"', ['$\\x']],
    ['c\\ d \\"e\\\' \\\\', ['c d', `"e'`, '\\']],
    ['trailing\\', ['trailing\\']],
    ['\\', ['\\']],
  ])('splits %j into %j', (command, words) => {
    expect(splitCommandLine(command)).toEqual(words);
  });

  it.each([
    ['lint "unclosed', 'the command has an unclosed " quote'],
    ["lint 'unclosed", "the command has an unclosed ' quote"],
    ['lint "ends in an escaped quote\\"', 'the command has an unclosed " quote'],
    ['lint "ends in a backslash\\', 'the command has an unclosed " quote'],
  ])('refuses %j: %s', (command, message) => {
    expect(() => splitCommandLine(command)).toThrow(new Error(message));
  });
});

describe('commandProblem', () => {
  it.each([
    ['', 'the command is empty'],
    ['  \t ', 'the command is empty'],
    ['lint "unclosed %FILE%', 'the command has an unclosed " quote'],
    ['%FILE% --check', 'the program itself cannot be a placeholder'],
    ['tools/%MODULE%/lint', 'the program itself cannot be a placeholder'],
    ['-x %FILE%', 'the command starts with the option -x; name the program first'],
    ['--strict lint', 'the command starts with the option --strict; name the program first'],
    ['lint %FLIE%', `unknown placeholder %FLIE% (known: ${PLACEHOLDERS.join(' ')})`],
    ['lint %FILE% %L%', `unknown placeholder %L% (known: ${PLACEHOLDERS.join(' ')})`],
    [
      'lint %FILE% "%NOT_KNOWN%"',
      'unknown placeholder %NOT_KNOWN% (known: %FILE% %LINE% %CLASS% %MODULE% %WORKSPACE%)',
    ],
  ])('%j: %s', (command, problem) => {
    expect(commandProblem(command)).toBe(problem);
  });

  it.each([
    ['lint'],
    ['lint- %FILE%'],
    ['pmd -d %FILE% -r %WORKSPACE%/out.xml --line %LINE% %CLASS% %MODULE%'],
    ['echo 100% sure'],
    ['echo %lower%'],
  ])('accepts %j', (command) => {
    expect(commandProblem(command)).toBeUndefined();
  });
});

describe('configTextFormat', () => {
  it.each([
    ['.mvnxrc.yaml', 'yaml'],
    ['.mvnxrc.yml', 'yaml'],
    ['.mvnxrc', 'yaml'],
    ['team.json', 'json'],
    ['config/.mvnxrc.json', 'json'],
    ['json.yaml', 'yaml'],
    ['.mvnxrc.js', undefined],
    ['mvnx.config.mjs', undefined],
    ['.mvnxrc.cjs', undefined],
    ['scripts.js.yaml', 'yaml'],
  ])('%s is %s', (file, format) => {
    expect(configTextFormat(file)).toBe(format);
  });
});

describe('toolNamesIn', () => {
  it('reads the names from YAML and JSON, an entry that is no mapping as ""', () => {
    expect(
      toolNamesIn(
        'tier: assist\ntools:\n  - name: lint\n    command: lint\n  - 3\n  - name: pmd\n    command: pmd\n',
        'yaml',
        'f',
      ),
    ).toEqual(['lint', '', 'pmd']);
    expect(toolNamesIn('{"tools": [{"name": "lint"}, null, 7, {"name": "pmd"}]}', 'json', 'f')).toEqual([
      'lint',
      '',
      '',
      'pmd',
    ]);
  });

  it.each([
    ['', 'yaml'],
    ['# nothing yet\n', 'yaml'],
    ['tier: assist\n', 'yaml'],
    ['tools: 3\n', 'yaml'],
    ['tools:\n', 'yaml'],
    ['  ', 'json'],
    ['null', 'json'],
    ['"text"', 'json'],
    ['[{"name": "lint"}]', 'json'],
    ['{"tools": {"name": "lint"}}', 'json'],
  ] as const)('finds none in %j (%s)', (text, format) => {
    expect(toolNamesIn(text, format, 'f')).toEqual([]);
  });

  it('reads JSON as JSON: YAML that is not JSON is refused with the parser message', () => {
    const text = 'tools:\n  - name: lint\n';
    expect(() => toolNamesIn(text, 'json', 'team.json')).toThrow(
      `team.json: cannot edit a file that does not parse: ${jsonParseMessage(text)}`,
    );
    expect(toolNamesIn(text, 'yaml', 'f')).toEqual(['lint']);
  });

  it('refuses YAML that does not parse with the first line of the parser message', () => {
    expect(() => toolNamesIn('a: [\n', 'yaml', '.mvnxrc.yaml')).toThrow(
      expect.objectContaining({
        message:
          '.mvnxrc.yaml: cannot edit a file that does not parse: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:',
        exitCode: 2,
      }),
    );
  });
});

describe('addTool in YAML', () => {
  it('appends to the list, keeping comments and the other settings', () => {
    const text = '# team\ntier: assist # reviewed\ntools:\n  # the linter\n  - name: lint\n    command: lint %FILE%\n';
    expect(
      addTool(
        text,
        'yaml',
        { name: 'pmd', command: 'pmd -d %FILE%', outputFormat: 'sarif', states: ['fix'], timeoutSeconds: 30 },
        'f',
      ),
    ).toBe(
      `${text}  - name: pmd\n    command: pmd -d %FILE%\n    outputFormat: sarif\n    states:\n      - fix\n    timeoutSeconds: 30\n`,
    );
  });

  it('starts a list in an empty file, a comment-only file, and under an empty tools key', () => {
    expect(addTool('', 'yaml', LINT, 'f')).toBe('tools:\n  - name: lint\n    command: lint %FILE%\n');
    expect(addTool('# tools for the agent\n', 'yaml', LINT, 'f')).toBe(
      '# tools for the agent\n\ntools:\n  - name: lint\n    command: lint %FILE%\n',
    );
    expect(addTool('tier: assist\ntools:\n', 'yaml', LINT, 'f')).toBe(
      'tier: assist\ntools:\n  - name: lint\n    command: lint %FILE%\n',
    );
    expect(addTool('tier: monitor\n', 'yaml', LINT, 'f')).toBe(
      'tier: monitor\ntools:\n  - name: lint\n    command: lint %FILE%\n',
    );
  });

  it('turns a flow list into a block list', () => {
    expect(addTool('tools: [{name: a, command: a}]\n', 'yaml', LINT, 'f')).toBe(
      'tools:\n  - { name: a, command: a }\n  - name: lint\n    command: lint %FILE%\n',
    );
  });

  it('adds a second tool of the same name unless asked to replace, and replaces in place', () => {
    const text = 'tools:\n  - name: lint\n    command: old\n  - name: pmd\n    command: pmd\n';
    expect(addTool(text, 'yaml', LINT, 'f')).toBe(`${text}  - name: lint\n    command: lint %FILE%\n`);
    expect(addTool(text, 'yaml', LINT, 'f', true)).toBe(
      'tools:\n  - name: lint\n    command: lint %FILE%\n  - name: pmd\n    command: pmd\n',
    );
    expect(addTool(text, 'yaml', { name: 'pmd', command: 'pmd2' }, 'f', true)).toBe(
      'tools:\n  - name: lint\n    command: old\n  - name: pmd\n    command: pmd2\n',
    );
    expect(addTool(text, 'yaml', { name: 'spotbugs', command: 'sb' }, 'f', true)).toBe(
      `${text}  - name: spotbugs\n    command: sb\n`,
    );
  });

  it('passes over list entries that are no mapping', () => {
    expect(addTool('tools:\n  - 3\n  - name: lint\n    command: old\n', 'yaml', LINT, 'f', true)).toBe(
      'tools:\n  - 3\n  - name: lint\n    command: lint %FILE%\n',
    );
  });

  it.each([
    ['- a\n', 'f: the config is not a mapping of settings'],
    ['just text\n', 'f: the config is not a mapping of settings'],
    ['tools: 3\n', 'f: "tools" is not a list; fix it by hand first'],
    ['tools: ""\n', 'f: "tools" is not a list; fix it by hand first'],
    ['tools:\n  name: lint\n', 'f: "tools" is not a list; fix it by hand first'],
    [
      'tools: [\n',
      'f: cannot edit a file that does not parse: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:',
    ],
  ])('refuses %j: %s (exit 2)', (text, message) => {
    expect(() => addTool(text, 'yaml', LINT, 'f')).toThrow(expect.objectContaining({ message, exitCode: 2 }));
  });
});

describe('addTool in JSON', () => {
  it('appends with the file own indentation (spaces or a tab), two spaces when it has none', () => {
    expect(addTool('{\n    "tier": "assist"\n}\n', 'json', LINT, 'f')).toBe(
      '{\n    "tier": "assist",\n    "tools": [\n        {\n            "name": "lint",\n            "command": "lint %FILE%"\n        }\n    ]\n}\n',
    );
    expect(addTool('{\n\t"tier": "assist"\n}', 'json', LINT, 'f')).toBe(
      '{\n\t"tier": "assist",\n\t"tools": [\n\t\t{\n\t\t\t"name": "lint",\n\t\t\t"command": "lint %FILE%"\n\t\t}\n\t]\n}\n',
    );
    expect(addTool('{"tier": "assist"}', 'json', LINT, 'f')).toBe(
      '{\n  "tier": "assist",\n  "tools": [\n    {\n      "name": "lint",\n      "command": "lint %FILE%"\n    }\n  ]\n}\n',
    );
  });

  it.each([[''], [' \n'], ['null']])('starts an object for %j', (text) => {
    expect(addTool(text, 'json', LINT, 'f')).toBe(
      '{\n  "tools": [\n    {\n      "name": "lint",\n      "command": "lint %FILE%"\n    }\n  ]\n}\n',
    );
  });

  it('replaces a list that is no list, and keeps entries that are no object', () => {
    expect(addTool('{"tools": 3}', 'json', LINT, 'f')).toBe(
      '{\n  "tools": [\n    {\n      "name": "lint",\n      "command": "lint %FILE%"\n    }\n  ]\n}\n',
    );
    expect(JSON.parse(addTool('{"tools": [null, 4]}', 'json', LINT, 'f', true))).toEqual({ tools: [null, 4, LINT] });
  });

  it('adds a second tool of the same name unless asked to replace, and replaces in place', () => {
    const text = JSON.stringify({
      tools: [
        { name: 'lint', command: 'old' },
        { name: 'pmd', command: 'pmd' },
      ],
    });
    expect(JSON.parse(addTool(text, 'json', LINT, 'f')).tools).toEqual([
      { name: 'lint', command: 'old' },
      { name: 'pmd', command: 'pmd' },
      LINT,
    ]);
    expect(JSON.parse(addTool(text, 'json', LINT, 'f', true)).tools).toEqual([LINT, { name: 'pmd', command: 'pmd' }]);
    expect(JSON.parse(addTool(text, 'json', { name: 'pmd', command: 'pmd2' }, 'f', true)).tools).toEqual([
      { name: 'lint', command: 'old' },
      { name: 'pmd', command: 'pmd2' },
    ]);
    expect(JSON.parse(addTool(text, 'json', { name: 'sb', command: 'sb' }, 'f', true)).tools).toEqual([
      { name: 'lint', command: 'old' },
      { name: 'pmd', command: 'pmd' },
      { name: 'sb', command: 'sb' },
    ]);
  });

  it.each([['[]'], ['[{"name": "lint"}]'], ['3'], ['"tools"'], ['true']])(
    'refuses %j: the config is not a JSON object (exit 2)',
    (text) => {
      expect(() => addTool(text, 'json', LINT, 'team.json')).toThrow(
        expect.objectContaining({ message: 'team.json: the config is not a JSON object', exitCode: 2 }),
      );
    },
  );

  it('refuses JSON that does not parse with the parser message', () => {
    for (const text of ['{"tier": ', 'tier: assist\n']) {
      expect(() => addTool(text, 'json', LINT, 'team.json')).toThrow(
        expect.objectContaining({
          message: `team.json: cannot edit a file that does not parse: ${jsonParseMessage(text)}`,
          exitCode: 2,
        }),
      );
    }
  });
});

describe('removeTool', () => {
  it('removes the named tool from YAML, the tools key with the last one, and leaves other files alone', () => {
    const text =
      '# team\ntier: assist\ntools:\n  - name: lint\n    command: lint\n  - 3\n  - name: pmd\n    command: pmd\n';
    expect(removeTool(text, 'yaml', 'lint', 'f')).toBe(
      '# team\ntier: assist\ntools:\n  - 3\n  - name: pmd\n    command: pmd\n',
    );
    expect(removeTool('tier: assist\ntools:\n  - name: lint\n    command: lint\n', 'yaml', 'lint', 'f')).toBe(
      'tier: assist\n',
    );
    expect(removeTool(text, 'yaml', 'spotbugs', 'f')).toBe(text);
    for (const other of ['tier: assist\n', 'tools: 3\n', 'tools:\n', ''])
      expect(removeTool(other, 'yaml', 'lint', 'f')).toBe(other);
  });

  it('refuses YAML that does not parse', () => {
    expect(() => removeTool('tools: [\n', 'yaml', 'lint', 'f')).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/^f: cannot edit a file that does not parse: Flow sequence/),
        exitCode: 2,
      }),
    );
  });

  it('removes the named tool from JSON with the file indentation, and the tools key with the last one', () => {
    const text = '{\n    "tier": "assist",\n    "tools": [{"name": "lint"}, null, {"name": "pmd"}]\n}\n';
    expect(removeTool(text, 'json', 'lint', 'f')).toBe(
      '{\n    "tier": "assist",\n    "tools": [\n        null,\n        {\n            "name": "pmd"\n        }\n    ]\n}\n',
    );
    expect(removeTool('{"tier": "assist", "tools": [{"name": "lint"}]}', 'json', 'lint', 'f')).toBe(
      '{\n  "tier": "assist"\n}\n',
    );
    expect(removeTool('{"tier": "assist"}', 'json', 'lint', 'f')).toBe('{\n  "tier": "assist"\n}\n');
    expect(removeTool('{"tools": 3}', 'json', 'lint', 'f')).toBe('{}\n');
    expect(removeTool('', 'json', 'lint', 'f')).toBe('{}\n');
  });
});

describe('toPatchPolicy', () => {
  it('hands the patch stage every patch limit, the allowed changes and the effective protected paths', () => {
    const config = configSchema.parse({
      allowedChanges: ['edit-main-source'],
      protectedPaths: ['secrets/**', 'build/**'],
      rules: [
        { paths: ['build/**'], protected: false },
        { paths: ['src/main/resources/**'], protected: true },
      ],
      patch: {
        maxFilesTouched: 2,
        maxLinesChanged: 30,
        ignoreWhitespace: true,
        allowTabSpaceContext: false,
        allowNonUtf8: true,
        maxFileBytes: 1000,
        maxChangeSetBytes: 3000,
        maxLineLength: 120,
      },
    });
    const policy = toPatchPolicy(config);
    expect(policy).toEqual({
      allowedChanges: ['edit-main-source'],
      protectedPaths: ['secrets/**', 'src/main/resources/**'],
      maxFilesTouched: 2,
      maxLinesChanged: 30,
      ignoreWhitespace: true,
      allowTabSpaceContext: false,
      allowNonUtf8: true,
      maxFileBytes: 1000,
      maxChangeSetBytes: 3000,
      maxLineLength: 120,
    });
    // A copy: the patch stage's list is not the config's.
    expect(policy.allowedChanges).not.toBe(config.allowedChanges);
  });
});
