/**
 * Command tools (RepairAgent's add-tool): a program from the config's `tools:` section,
 * offered to the agent like a built-in tool. Its placeholders become the tool's
 * parameters (%FILE% a file, %LINE% a line, %CLASS% a class), each value checked before
 * it reaches the command line, which is split once and never given to a shell. It runs in
 * the workspace on the code as the attempt sees it, in the verification sandbox, and its
 * report is read (text as is; XML and SARIF as `file:line: message` lines) and capped. A
 * program that is missing, fails or times out answers one line: it never stops a repair.
 */
import { escape } from 'minimatch';
import {
  type AgentState,
  type AgentTool,
  MAX_TOOL_OUTPUT_CHARS,
  type SourceView,
  type ToolParameter,
  type ToolResult,
} from '../../../plugins/contracts.js';
import type { CommandRun } from '../../../workspace/command.js';
import { splitCommandLine } from '../../../policy/command-line.js';
import { fit, plural } from './support/tool-kit.js';
import { readToolOutput, renderFinding, type OutputFormat } from './support/tool-output.js';

export interface CommandToolConfig {
  name: string;
  command: string;
  description?: string;
  outputFormat: OutputFormat;
  states: AgentState[];
  timeoutSeconds: number;
}

/** Runs an argument list in a workspace holding the attempt's code, and says how it went. */
export interface CommandRunner {
  /** `argvFor` gets the workspace's root (for %WORKSPACE%) once one is ready. */
  run(
    argvFor: (workspaceRoot: string) => string[],
    timeoutMs: number,
  ): Promise<{ run: CommandRun; workspaceRoot: string }>;
}

export function createCommandTool(config: CommandToolConfig, runner: CommandRunner, view: SourceView): AgentTool {
  const uses = (placeholder: string) => config.command.includes(placeholder);
  const parameters: Record<string, ToolParameter> = {};
  if (uses('%FILE%') || uses('%MODULE%'))
    parameters.file = {
      type: 'string',
      description: 'project-relative path of the file to check',
      optional: !uses('%FILE%'),
    };
  if (uses('%CLASS%'))
    parameters.class = {
      type: 'string',
      description: 'fully qualified class name, e.g. com.acme.App (default: the class of "file")',
      optional: uses('%FILE%'),
    };
  if (uses('%LINE%')) parameters.line = { type: 'integer', description: 'a line number in "file"' };
  const describe = config.description ?? `runs \`${config.command}\``;

  return {
    name: config.name,
    description: `${describe} (a command tool; ${config.outputFormat} output)`,
    parameters,
    states: config.states,
    async run(args): Promise<ToolResult> {
      const values = await placeholderValues(config, args, view);
      if ('problem' in values) return { ok: false, output: `${config.name}: ${values.problem}` };
      const words = splitCommandLine(config.command);
      const { run, workspaceRoot } = await runner.run(
        (workspace) =>
          words.map((word) =>
            word
              .replaceAll('%FILE%', values.file ?? '')
              .replaceAll('%LINE%', values.line ?? '')
              .replaceAll('%CLASS%', values.className ?? '')
              .replaceAll('%MODULE%', values.module ?? '.')
              .replaceAll('%WORKSPACE%', workspace),
          ),
        config.timeoutSeconds * 1000,
      );
      return answer(config, run, workspaceRoot, view);
    },
  };
}

interface Values {
  file?: string;
  line?: string;
  className?: string;
  module?: string;
}

/** Every value checked before it reaches a command line: a project file, a number, a class name. */
async function placeholderValues(
  config: CommandToolConfig,
  args: Record<string, unknown>,
  view: SourceView,
): Promise<Values | { problem: string }> {
  const values: Values = {};
  if (args.file !== undefined) {
    if (typeof args.file !== 'string' || args.file.trim() === '')
      return { problem: 'needs "file" as a project-relative path' };
    const file = args.file.trim().replace(/\\/g, '/').replace(/^\.\//, '');
    if (file.startsWith('/') || file.startsWith('-') || file.split('/').includes('..'))
      return { problem: `refuses "${args.file}": give a path inside the project` };
    if ((await view.list(escape(file))).length !== 1) return { problem: `no file ${file} in the project` };
    values.file = file;
    values.module = await moduleOf(file, view);
  } else if (config.command.includes('%FILE%')) {
    return { problem: 'needs "file" (a project-relative path)' };
  }
  if (config.command.includes('%LINE%')) {
    const line = typeof args.line === 'string' && /^\s*\d+\s*$/.test(args.line) ? Number(args.line) : args.line;
    if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1)
      return { problem: 'needs "line" as a line number from 1' };
    values.line = String(line);
  }
  if (config.command.includes('%CLASS%')) {
    const given = typeof args.class === 'string' ? args.class.trim() : undefined;
    const className = given || (values.file ? classOfFile(values.file) : undefined);
    if (!className || !/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(className))
      return { problem: 'needs "class" as a fully qualified class name such as com.acme.App' };
    values.className = className;
  }
  return values;
}

/** `src/main/java/com/acme/App.java` -> com.acme.App (the Maven layout). */
function classOfFile(file: string): string | undefined {
  const match = /(?:^|\/)src\/(?:main|test)\/java\/(.+)\.java$/.exec(file);
  return match ? match[1]!.replace(/\//g, '.') : undefined;
}

/** The folder of the nearest pom.xml above the file ('.' for the root module). */
async function moduleOf(file: string, view: SourceView): Promise<string> {
  const parts = file.split('/').slice(0, -1);
  for (let depth = parts.length; depth > 0; depth--) {
    const folder = parts.slice(0, depth).join('/');
    if ((await view.list(escape(`${folder}/pom.xml`))).length > 0) return folder;
  }
  return '.';
}

async function answer(
  config: CommandToolConfig,
  run: CommandRun,
  workspace: string,
  view: SourceView,
): Promise<ToolResult> {
  if (run.notFound)
    return {
      ok: false,
      output: `${config.name}: ${run.notFound} is not installed here (not found${run.notFound.includes('/') ? '' : ' on PATH'}); use the other tools`,
    };
  if (run.timedOut) return { ok: false, output: `${config.name} did not finish within ${config.timeoutSeconds} s` };
  const read = readToolOutput(config.outputFormat, run.stdout, workspace);
  const stderr = run.stderr
    .trim()
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 200);
  if (!read.ok)
    return {
      ok: false,
      output: `${config.name} failed (exit ${run.exitCode ?? 'killed'}): ${read.problem}${stderr ? `; it said: ${stderr}` : ''}`,
    };
  const empty = read.findings ? read.findings.length === 0 : read.text === '';
  if (empty && run.exitCode !== 0)
    return {
      ok: false,
      output: `${config.name} failed (exit ${run.exitCode ?? 'killed'})${stderr ? `: ${stderr}` : ' without output'}`,
    };
  if (empty) return { ok: true, output: `${config.name} found nothing to report` };
  const lines = read.findings
    ? await Promise.all(
        read.findings.map(async (finding) =>
          renderFinding({ ...finding, file: await projectFile(finding.file, view) }),
        ),
      )
    : read.text.split('\n');
  const tail = (shown: number) =>
    shown < lines.length
      ? `... ${plural(lines.length - shown, 'more line', 'more lines')} not shown${run.truncated ? ' (the output was cut at 2 MiB)' : ''}`
      : run.truncated
        ? '(the output was cut at 2 MiB)'
        : '';
  return { ok: true, output: fit(lines, tail, MAX_TOOL_OUTPUT_CHARS) };
}

/** SpotBugs names files by their path under the source folder (com/acme/App.java): the project file, when one fits. */
async function projectFile(file: string, view: SourceView): Promise<string> {
  if (file.startsWith('/') || file.startsWith('(') || (await view.list(escape(file))).length === 1) return file;
  const matches = await view.list(`**/${escape(file)}`);
  return matches.length === 1 ? matches[0]! : file;
}
