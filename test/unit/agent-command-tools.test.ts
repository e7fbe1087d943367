/**
 * Command tools at run time: real scripts run through runCommandInWorkspace, without a
 * sandbox and under real bubblewrap, their reports read as text, XML and SARIF, and every
 * way a tool can go wrong answered in one line.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCommandTool,
  type CommandRunner,
  type CommandToolConfig,
} from '../../src/repair/agent/tools/command-tools.js';
import { readToolOutput } from '../../src/repair/agent/tools/support/tool-output.js';
import type { AgentToolContext } from '../../src/plugins/contracts.js';
import { createSourceView } from '../../src/codebase/index.js';
import { detectSandbox, runCommandInWorkspace, type SandboxInfo } from '../../src/workspace/index.js';

const APP = 'app/src/main/java/com/acme/App.java';
let base: string;
let root: string;
let outside: string;
let none: SandboxInfo;
let bwrap: SandboxInfo;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mvnx-command-tools-'));
  root = path.join(base, 'project');
  outside = path.join(base, 'outside');
  await mkdir(outside);
  await mkdir(path.join(root, 'app/src/main/java/com/acme'), { recursive: true });
  await mkdir(path.join(root, 'tools'));
  await writeFile(path.join(root, 'pom.xml'), '<project/>\n');
  await writeFile(path.join(root, 'app/pom.xml'), '<project/>\n');
  await writeFile(path.join(root, APP), 'package com.acme;\nclass App {}\n');
  const scripts: Record<string, string> = {
    // Prints its arguments and where it runs, as an analyser would print findings.
    'echo-args.sh':
      '#!/bin/sh\necho "args: $*"\necho "cwd: $(pwd)"\necho "$PWD/app/x.java:3: found in the workspace"\n',
    'fails.sh': '#!/bin/sh\necho "boom: cannot read config" >&2\nexit 3\n',
    'findings-exit.sh': '#!/bin/sh\necho "app/x.java:1: a finding"\nexit 1\n',
    'sleeps.sh': '#!/bin/sh\nsleep 30\n',
    'silent.sh': '#!/bin/sh\nexit 0\n',
    'writes-outside.sh': `#!/bin/sh\necho hi > "${outside}/leak.txt" 2>/dev/null && echo wrote || echo refused\ncurl -s -m 2 http://example.com >/dev/null 2>&1 && echo online || echo offline\necho "secret=\${MVNX_TEST_SECRET_TOKEN:-none}"\n`,
    'sarif.sh': `#!/bin/sh\ncat <<'EOF'\n{"version":"2.1.0","runs":[{"results":[{"ruleId":"NP_NULL","level":"error","message":{"text":"Possible null dereference"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file://$PWD/${APP}"},"region":{"startLine":2}}}]}]}]}\nEOF\n`,
  };
  for (const [name, text] of Object.entries(scripts)) {
    await writeFile(path.join(root, 'tools', name), text.replace('$PWD/', `${root}/`));
    await chmod(path.join(root, 'tools', name), 0o755);
  }
  none = await detectSandbox('none');
  bwrap = await detectSandbox('bwrap');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function runner(sandbox: SandboxInfo, env: NodeJS.ProcessEnv = process.env): CommandRunner {
  return {
    run: async (argvFor, timeoutMs) => ({
      run: await runCommandInWorkspace({
        argv: argvFor(root),
        cwd: root,
        scratchDir: outside,
        env,
        pass: [],
        sandbox,
        timeoutMs,
      }),
      workspaceRoot: root,
    }),
  };
}

function tool(config: Partial<CommandToolConfig> & { command: string }, sandbox = none, env?: NodeJS.ProcessEnv) {
  const full: CommandToolConfig = {
    name: 'check',
    outputFormat: 'text',
    states: ['collect', 'fix'],
    timeoutSeconds: 10,
    ...config,
  };
  return createCommandTool(full, runner(sandbox, env), createSourceView(root));
}

const context = (): AgentToolContext => ({
  view: createSourceView(root),
  runTests: async () => ({ ok: true, output: '' }),
});

describe('command tools', () => {
  it('takes its parameters from the placeholders and fills them with checked values', async () => {
    const check = tool({ command: './tools/echo-args.sh --file=%FILE% %LINE% %CLASS% %MODULE%' });
    expect(Object.entries(check.parameters).map(([name, p]) => `${name}:${p.type}${p.optional ? '?' : ''}`)).toEqual([
      'file:string',
      'class:string?',
      'line:integer',
    ]);
    expect(check.states).toEqual(['collect', 'fix']);
    const result = await check.run({ file: APP, line: '7' }, context());
    expect(result).toEqual({
      ok: true,
      output: `args: --file=${APP} 7 com.acme.App app\ncwd: ${root}\napp/x.java:3: found in the workspace`,
    });
  });

  it('refuses values that could be options or leave the project, before anything runs', async () => {
    const check = tool({ command: './tools/echo-args.sh %FILE% %LINE%' });
    expect(await check.run({ file: '-rf', line: 1 }, context())).toEqual({
      ok: false,
      output: 'check: refuses "-rf": give a path inside the project',
    });
    expect(await check.run({ file: '../outside/x', line: 1 }, context())).toEqual({
      ok: false,
      output: 'check: refuses "../outside/x": give a path inside the project',
    });
    expect(await check.run({ file: 'nope.java', line: 1 }, context())).toEqual({
      ok: false,
      output: 'check: no file nope.java in the project',
    });
    expect(await check.run({ file: APP, line: 'first' }, context())).toEqual({
      ok: false,
      output: 'check: needs "line" as a line number from 1',
    });
    expect(await tool({ command: './tools/echo-args.sh %CLASS%' }).run({ class: 'a;rm -rf /' }, context())).toEqual({
      ok: false,
      output: 'check: needs "class" as a fully qualified class name such as com.acme.App',
    });
  });

  it('answers one line when the program is missing, fails, finds nothing or runs too long', async () => {
    expect(
      await tool({ name: 'spotbugs_advisor', command: 'spotbugs-not-installed -textui %FILE%' }).run(
        { file: APP },
        context(),
      ),
    ).toEqual({
      ok: false,
      output: 'spotbugs_advisor: spotbugs-not-installed is not installed here (not found on PATH); use the other tools',
    });
    expect(await tool({ command: './tools/missing.sh' }).run({}, context())).toEqual({
      ok: false,
      output: 'check: ./tools/missing.sh is not installed here (not found); use the other tools',
    });
    expect(await tool({ command: './tools/fails.sh' }).run({}, context())).toEqual({
      ok: false,
      output: 'check failed (exit 3): boom: cannot read config',
    });
    expect(await tool({ command: './tools/silent.sh' }).run({}, context())).toEqual({
      ok: true,
      output: 'check found nothing to report',
    });
    // Analysers exit non-zero when they find something: the findings are the answer.
    expect(await tool({ command: './tools/findings-exit.sh' }).run({}, context())).toEqual({
      ok: true,
      output: 'app/x.java:1: a finding',
    });
    const started = Date.now();
    expect(await tool({ command: './tools/sleeps.sh', timeoutSeconds: 1 }).run({}, context())).toEqual({
      ok: false,
      output: 'check did not finish within 1 s',
    });
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('reads SARIF into file:line: message lines with project paths', async () => {
    expect(await tool({ command: './tools/sarif.sh', outputFormat: 'sarif' }).run({}, context())).toEqual({
      ok: true,
      output: `${APP}:2: error: Possible null dereference (NP_NULL)`,
    });
    expect(await tool({ command: './tools/echo-args.sh', outputFormat: 'sarif' }).run({}, context())).toMatchObject({
      ok: false,
      output: expect.stringMatching(/^check failed \(exit 0\): its output is not SARIF/),
    });
  });

  it('runs under bubblewrap like a verification build: no writes outside the workspace, no network, no secrets', async () => {
    expect(bwrap.available).toBe(true);
    const env = { ...process.env, MVNX_TEST_SECRET_TOKEN: 'tok_12345' };
    const unsandboxed = await tool({ command: './tools/writes-outside.sh' }, none, env).run({}, context());
    expect(unsandboxed.output).toContain('wrote');
    expect(unsandboxed.output).toContain('secret=none');
    await rm(path.join(outside, 'leak.txt'), { force: true });
    const sandboxed = await tool({ command: './tools/writes-outside.sh' }, bwrap, env).run({}, context());
    expect(sandboxed.output.split('\n')).toEqual(['refused', 'offline', 'secret=none']);
    expect(await readdir(outside)).not.toContain('leak.txt');
  });
});

describe('readToolOutput', () => {
  const ws = '/tmp/ws/project';

  it('reads SpotBugs XML: the primary source line, the long message and the bug type', () => {
    const xml = `<?xml version="1.0"?><BugCollection><BugInstance type="NP_NULL_ON_SOME_PATH" priority="1"><ShortMessage>Possible null</ShortMessage><LongMessage>Possible null pointer dereference of item in com.acme.Cart.total()</LongMessage><Class classname="com.acme.Cart"><SourceLine classname="com.acme.Cart" sourcepath="com/acme/Cart.java" start="1" end="30"/></Class><Method name="total"><SourceLine sourcepath="com/acme/Cart.java" start="16" end="20"/></Method><SourceLine classname="com.acme.Cart" sourcepath="com/acme/Cart.java" start="18" end="18" primary="true"/></BugInstance></BugCollection>`;
    expect(readToolOutput('xml', xml, ws)).toEqual({
      ok: true,
      findings: [
        {
          file: 'com/acme/Cart.java',
          line: 18,
          message: 'Possible null pointer dereference of item in com.acme.Cart.total() (NP_NULL_ON_SOME_PATH)',
        },
      ],
      text: 'com/acme/Cart.java:18: Possible null pointer dereference of item in com.acme.Cart.total() (NP_NULL_ON_SOME_PATH)',
    });
  });

  it('reads Checkstyle and PMD XML, whose <file> names the file of its children', () => {
    const checkstyle = `<checkstyle version="10"><file name="${ws}/src/A.java"><error line="3" column="5" severity="warning" message="Missing a Javadoc comment." source="com.puppycrawl.tools.checkstyle.checks.javadoc.MissingJavadocMethodCheck"/></file></checkstyle>`;
    expect(readToolOutput('xml', checkstyle, ws)).toMatchObject({
      ok: true,
      text: 'src/A.java:3: Missing a Javadoc comment. (MissingJavadocMethodCheck)',
    });
    const pmd = `<pmd><file name="src/B.java"><violation beginline="9" endline="9" rule="UnusedLocalVariable" priority="3">Avoid unused local variables such as 'x'.</violation></file></pmd>`;
    expect(readToolOutput('xml', pmd, ws)).toMatchObject({
      ok: true,
      text: "src/B.java:9: Avoid unused local variables such as 'x'. (UnusedLocalVariable)",
    });
  });

  it('passes text on without ANSI codes and with workspace paths made relative; says when XML or SARIF is not', () => {
    expect(readToolOutput('text', `\x1b[31m${ws}/src/A.java:3: bad\x1b[0m\n`, ws)).toEqual({
      ok: true,
      text: 'src/A.java:3: bad',
    });
    expect(readToolOutput('xml', 'no xml here', ws)).toEqual({ ok: false, problem: 'its output is not XML' });
    expect(readToolOutput('sarif', '{"version": "2.1.0"}', ws)).toEqual({
      ok: false,
      problem: 'its output is not SARIF: no "runs"',
    });
    expect(readToolOutput('xml', '', ws)).toEqual({ ok: true, findings: [], text: '' });
  });
});
