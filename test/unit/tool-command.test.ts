/** `mvnx tool add|list|remove` on real config files: YAML comments kept, JSON indentation kept, every bad input refused with one line. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/commands/tool.js';
import { addTool, removeTool } from '../../src/policy/edit-tools.js';
import { commandProblem, splitCommandLine } from '../../src/policy/command-line.js';

let root: string;
let out: string[];
let err: string[];
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-tool-command-'));
  await writeFile(path.join(root, 'pom.xml'), '<project/>\n');
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

const io = () => ({ cwd: root, env: { PATH: '/usr/bin:/bin' } });
const CONFIG = `# Team config: reviewed in PRs.
tier: monitor # monitor first

# Agent mode for the hard cases.
agent:
  mode: escalate
`;

describe('mvnx tool add', () => {
  it('adds a tool to the discovered .mvnxrc.yaml and keeps its comments and layout', async () => {
    await writeFile(path.join(root, '.mvnxrc.yaml'), CONFIG);
    expect(
      await run(
        [
          'add',
          '--name',
          'spotbugs_advisor',
          '--command',
          'spotbugs -textui -xml %FILE%',
          '--output-format',
          'xml',
          '--states',
          'collect,fix',
          '--timeout',
          '90',
        ],
        io(),
      ),
    ).toBe(0);
    const text = await readFile(path.join(root, '.mvnxrc.yaml'), 'utf8');
    expect(text).toBe(
      `${CONFIG}tools:\n  - name: spotbugs_advisor\n    command: spotbugs -textui -xml %FILE%\n    outputFormat: xml\n    states:\n      - collect\n      - fix\n    timeoutSeconds: 90\n`,
    );
    expect(out.join('')).toBe(
      'mvnx: added command tool spotbugs_advisor in .mvnxrc.yaml: offered in collect, fix; xml output; 90 s timeout\n',
    );
    expect(err.join('')).toBe(
      'mvnx: note: spotbugs is not found on PATH here; until it is, the tool answers the agent that it is not installed\n',
    );
  });

  it('creates .mvnxrc.yaml when the project has no config, and lists the tool with its defaults', async () => {
    expect(
      await run(
        ['add', '--name=lint', '--command=./tools/lint.sh %FILE% %LINE%', '--description', 'the team linter'],
        io(),
      ),
    ).toBe(0);
    expect(await readFile(path.join(root, '.mvnxrc.yaml'), 'utf8')).toBe(
      'tools:\n  - name: lint\n    command: ./tools/lint.sh %FILE% %LINE%\n    description: the team linter\n',
    );
    expect(out.join('')).toContain('(new file)');
    out.length = 0;
    expect(await run(['list'], io())).toBe(0);
    expect(out.join('')).toBe(
      [
        'name  states                  output  timeout  command',
        'lint  understand,collect,fix  text    60s      ./tools/lint.sh %FILE% %LINE%',
        '(from .mvnxrc.yaml)',
        '',
      ].join('\n'),
    );
    out.length = 0;
    expect(await run(['list', '--json'], io())).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual([
      {
        name: 'lint',
        command: './tools/lint.sh %FILE% %LINE%',
        description: 'the team linter',
        outputFormat: 'text',
        states: ['understand', 'collect', 'fix'],
        timeoutSeconds: 60,
      },
    ]);
  });

  it('edits a JSON config with its own indentation, and the file named by --config', async () => {
    await writeFile(path.join(root, 'team.json'), '{\n    "tier": "assist"\n}\n');
    expect(
      await run(
        [
          'add',
          '--name',
          'pmd',
          '--command',
          'pmd check -f sarif -d %FILE%',
          '--output-format',
          'sarif',
          '--config',
          'team.json',
        ],
        io(),
      ),
    ).toBe(0);
    expect(await readFile(path.join(root, 'team.json'), 'utf8')).toBe(
      '{\n    "tier": "assist",\n    "tools": [\n        {\n            "name": "pmd",\n            "command": "pmd check -f sarif -d %FILE%",\n            "outputFormat": "sarif"\n        }\n    ]\n}\n',
    );
  });

  it('refuses a second tool of the same name unless --replace, then replaces it in place', async () => {
    await run(['add', '--name', 'lint', '--command', 'lint %FILE%'], io());
    await expect(run(['add', '--name', 'lint', '--command', 'lint2 %FILE%'], io())).rejects.toThrow(
      'mvnx tool add: .mvnxrc.yaml already has a tool named lint; use --replace to change it',
    );
    expect(await run(['add', '--name', 'lint', '--command', 'lint2 %FILE%', '--replace'], io())).toBe(0);
    expect(await readFile(path.join(root, '.mvnxrc.yaml'), 'utf8')).toBe(
      'tools:\n  - name: lint\n    command: lint2 %FILE%\n',
    );
  });

  it.each([
    [['add', '--command', 'x'], 'mvnx tool add: --name is required'],
    [['add', '--name', 'x1'], 'mvnx tool add: --command is required'],
    [
      ['add', '--name', 'Bad-Name', '--command', 'x'],
      'mvnx tool add: --name: found "Bad-Name" (string), expected lower_snake_case, 2-40 characters, starting with a letter',
    ],
    [['add', '--name', 'read_range', '--command', 'x'], 'read_range is a built-in tool of agent mode'],
    [['add', '--name', 'lint', '--command', 'lint %FLIE%'], 'unknown placeholder %FLIE%'],
    [['add', '--name', 'lint', '--command', 'lint "unclosed'], 'the command has an unclosed " quote'],
    [['add', '--name', 'lint', '--command', '%FILE% x'], 'the program itself cannot be a placeholder'],
    [
      ['add', '--name', 'lint', '--command', 'x', '--output-format', 'html'],
      'mvnx tool add: --output-format: found "html" (string), expected one of "text", "xml", "sarif"',
    ],
    [
      ['add', '--name', 'lint', '--command', 'x', '--states', 'collect,deploy'],
      'mvnx tool add: --states: found "deploy" (string), expected one of "understand", "collect", "fix"',
    ],
    [
      ['add', '--name', 'lint', '--command', 'x', '--timeout', '1m'],
      'mvnx tool add: --timeout 1m: expected whole seconds, e.g. 60',
    ],
    [['rename', 'x'], 'mvnx tool: unknown action "rename"'],
  ])('%j is refused with one line naming what is wrong', async (args, message) => {
    await expect(run(args, io())).rejects.toThrow(message);
  });

  const ADD =
    'usage: mvnx tool add --name NAME --command "PROGRAM ARGS... %FILE%" [--output-format text|xml|sarif] [--states understand,collect,fix] [--timeout SECONDS] [--description TEXT] [--replace] [--config FILE]';
  const LIST = 'usage: mvnx tool list [--json] [--config FILE]';
  const REMOVE = 'usage: mvnx tool remove NAME [--config FILE]';
  it.each([
    [
      ['add', '--name', 'lint', '--command', 'x', '--frobnicate'],
      `mvnx tool add: unknown argument --frobnicate; ${ADD}`,
    ],
    [['add', '--name', 'lint', '--command'], `mvnx tool add: --command needs the command line; ${ADD}`],
    [['add', '--name', '--command', 'x'], `mvnx tool add: --name needs a value; ${ADD}`],
    [
      ['add', '--name', 'lint', '--command', 'x', '--timeout', '--replace'],
      `mvnx tool add: --timeout needs whole seconds; ${ADD}`,
    ],
    [['add', '--name', 'lint', '--command', 'x', '--replace=yes'], `mvnx tool add: --replace takes no value; ${ADD}`],
    [['add', 'lint', '--command', 'x'], `mvnx tool add: unknown argument lint; ${ADD}`],
    [['add', '--command', 'x'], `mvnx tool add: --name is required; ${ADD}`],
    [['list', '--config'], `mvnx tool list: --config needs a file; ${LIST}`],
    [['list', 'lint'], `mvnx tool list: unknown argument lint; ${LIST}`],
    [['list', '--json', '--name', 'lint'], `mvnx tool list: unknown argument --name; ${LIST}`],
    [['remove'], `mvnx tool remove: which tool? ${REMOVE}`],
    [['remove', 'lint', 'pmd'], `mvnx tool remove: one tool at a time, got lint and pmd; ${REMOVE}`],
    [['remove', 'lint', '--json'], `mvnx tool remove: unknown argument --json; ${REMOVE}`],
  ])('%j is refused with the usage error (exit 2)', async (args, message) => {
    await expect(run(args, io())).rejects.toMatchObject({ exitCode: 2, message });
  });

  it('takes option values that start with a dash as separate arguments', async () => {
    expect(
      await run(
        [
          'add',
          '--name',
          'lint',
          '--command',
          './lint.sh -x %FILE%',
          '--description',
          '-- the strict one, run with -x',
        ],
        io(),
      ),
    ).toBe(0);
    expect(await readFile(path.join(root, '.mvnxrc.yaml'), 'utf8')).toBe(
      'tools:\n  - name: lint\n    command: ./lint.sh -x %FILE%\n    description: -- the strict one, run with -x\n',
    );
    // Read as the value (not "--command needs a value"), then refused for what it says.
    await expect(run(['add', '--name', 'dash', '--command', '-x %FILE%'], io())).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('the command starts with the option -x; name the program first'),
    });
  });

  it('prints the usage for --help after an action, and exit 2 with no action', async () => {
    expect(await run(['add', '--help'], io())).toBe(0);
    expect(out.join('')).toContain(ADD);
    expect(await run([], io())).toBe(2);
  });

  it('refuses to rewrite a JavaScript config and says what to add by hand', async () => {
    await writeFile(path.join(root, '.mvnxrc.cjs'), 'module.exports = { tier: "monitor" };\n');
    await expect(run(['add', '--name', 'lint', '--command', 'lint %FILE%'], io())).rejects.toThrow(
      'mvnx tool add: .mvnxrc.cjs is JavaScript, which mvnx does not rewrite; add this to its tools list by hand: {"name":"lint","command":"lint %FILE%"}',
    );
  });
});

describe('mvnx tool remove', () => {
  it('removes the tool and the then empty tools list, keeping the rest of the file', async () => {
    await writeFile(path.join(root, '.mvnxrc.yaml'), CONFIG);
    await run(['add', '--name', 'lint', '--command', 'lint %FILE%'], io());
    expect(await run(['remove', 'lint'], io())).toBe(0);
    expect(await readFile(path.join(root, '.mvnxrc.yaml'), 'utf8')).toBe(CONFIG);
    await expect(run(['remove', 'lint'], io())).rejects.toThrow(
      'mvnx tool remove: .mvnxrc.yaml has no tool named lint; a tool from an extended config is removed there',
    );
  });

  it('says there is nothing to remove without a config file', async () => {
    await expect(run(['remove', 'lint'], io())).rejects.toThrow(
      'mvnx tool remove: no config file (looked for .mvnxrc.yaml); there is no tool lint to remove',
    );
  });
});

describe('config text editing', () => {
  it('turns a flow tools list into a block list when adding, and removes from JSON', () => {
    expect(addTool('tools: []\n', 'yaml', { name: 'a', command: 'a' }, 'f')).toBe(
      'tools:\n  - name: a\n    command: a\n',
    );
    expect(
      removeTool('{\n  "tools": [{"name": "a", "command": "a"}, {"name": "b", "command": "b"}]\n}\n', 'json', 'a', 'f'),
    ).toBe('{\n  "tools": [\n    {\n      "name": "b",\n      "command": "b"\n    }\n  ]\n}\n');
    expect(() => addTool('tools: 3\n', 'yaml', { name: 'a', command: 'a' }, 'f')).toThrow(
      'f: "tools" is not a list; fix it by hand first',
    );
    expect(() => addTool('a: [\n', 'yaml', { name: 'a', command: 'a' }, 'f')).toThrow(
      /^f: cannot edit a file that does not parse/,
    );
  });
});

describe('command lines', () => {
  it('splits like a shell, quotes and backslashes kept together, no expansion', () => {
    expect(splitCommandLine(`spotbugs -textui "-include=my filter.xml" 'a b' c\\ d $HOME %FILE%`)).toEqual([
      'spotbugs',
      '-textui',
      '-include=my filter.xml',
      'a b',
      'c d',
      '$HOME',
      '%FILE%',
    ]);
    expect(splitCommandLine('x ""')).toEqual(['x', '']);
    expect(commandProblem('   ')).toBe('the command is empty');
    expect(commandProblem('pmd -d %FILE% -r %WORKSPACE%/out.xml')).toBeUndefined();
  });
});
