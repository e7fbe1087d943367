/**
 * A table-driven tester for agent tools, on the model of ESLint's RuleTester: a row is one
 * call (its arguments, the failure's diagnostics when the tool reads them, project files
 * of its own when it needs them) and the answer the model must get (`ok`, and the output
 * exactly, a part of it, or a pattern).
 *
 * A row runs the way the agent runs a tool: a session (repair/agent/agent-session.ts) with
 * a scripted model makes the call, so it goes through the session's tool list (checked
 * like a plugin's tools), the state's tools, the argument middleware and the tool, on a
 * real SourceView of the project written to a temporary folder; the answer is what the
 * model is shown next turn, the middleware's corrections included. `direct: true` calls
 * `tool.run` alone: the tool's own check of a value that the middleware would correct
 * before it (a plugin's tool gets such values only from a test).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnose/types.js';
import type { ToolCall } from '../../src/model/types.js';
import type { AgentTool, AgentToolContext, ToolResult } from '../../src/plugins/contracts.js';
import { runAgentSession } from '../../src/repair/agent/agent-session.js';
import { sessionTools } from '../../src/repair/agent/toolbox.js';
import { BUILT_IN_AGENT_TOOLS } from '../../src/repair/agent/tools/index.js';
import { createSourceView } from '../../src/codebase/disk-source-view.js';

/** Where the table's project is: `root` (the project) inside `base` (which also holds `outside`). */
export interface TableProject {
  base: string;
  root: string;
}

type Computed<T> = T | ((project: TableProject) => T);

export interface ToolRow {
  /** The test's title; by default the arguments. */
  name?: string;
  args: Computed<Record<string, unknown>>;
  /** Files added to (or replacing) the table's project for this row alone. */
  files?: Record<string, string>;
  diagnostics?: Diagnostic[];
  /** Call `tool.run` without the session and its middleware. */
  direct?: boolean;
  ok: boolean;
  /** The whole output (a string), a pattern it matches, or a part it includes. */
  output: Computed<string | RegExp | { includes: string }>;
  /** Further checks on the output (its length, its lines). */
  check?: (output: string) => void;
}

export interface ToolTable {
  /** The project, path -> content. */
  files: Record<string, string>;
  /** Files beside the project folder (what a path leaving the project would reach). */
  outside?: Record<string, string>;
  /** What `run_tests` answers; by default it says it is not used. */
  runTests?: () => Promise<ToolResult>;
  rows: ToolRow[];
}

async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
}

async function makeProject(table: ToolTable, extra: Record<string, string> = {}): Promise<TableProject> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'mvnx-tool-table-'));
  const root = path.join(base, 'project');
  await writeTree(root, { ...table.files, ...extra });
  await writeTree(base, table.outside ?? {});
  return { base, root };
}

/** The call as a model makes it: one session, the call (after express_hypothesis where the tool is not offered while understanding), then give_up. */
export async function callAsTheModel(
  tool: AgentTool,
  args: Record<string, unknown>,
  context: AgentToolContext,
): Promise<ToolResult> {
  const calls: ToolCall[] = [
    ...(tool.states.includes('understand')
      ? []
      : [{ name: 'express_hypothesis', arguments: { hypothesis: 'a table row' } }]),
    { name: tool.name, arguments: args },
    { name: 'give_up', arguments: {} },
  ];
  let output: string | undefined;
  const result = await runAgentSession({
    tools: sessionTools(BUILT_IN_AGENT_TOOLS.includes(tool) ? [] : [tool]),
    context,
    mode: 'native',
    turn: (memory) => {
      if (memory.last?.tool === tool.name) output = memory.last.result;
      return [];
    },
    chat: async () => ({ text: '', toolCalls: [calls.shift()!] }),
    tryFixes: async () => {
      throw new Error('a tool table tries no fixes');
    },
    maxSteps: calls.length,
    maxCandidates: 1,
  });
  const step = result.steps.find((candidate) => candidate.tool === tool.name);
  if (!step || output === undefined) throw new Error(`the session did not run ${tool.name}: ${result.log.join('\n')}`);
  return { ok: step.ok, output };
}

/** One `describe` for the tool, one `it` per row. */
export function runToolTable(tool: AgentTool, table: ToolTable): void {
  describe(tool.name, () => {
    let shared: TableProject;
    beforeAll(async () => {
      shared = await makeProject(table);
    });
    afterAll(async () => {
      await rm(shared.base, { recursive: true, force: true });
    });

    for (const row of table.rows) {
      const title =
        row.name ??
        `${row.direct ? 'run directly: ' : ''}${typeof row.args === 'function' ? '(arguments in the project)' : JSON.stringify(row.args)}`;
      it(title, async () => {
        const project = row.files ? await makeProject(table, row.files) : shared;
        try {
          const args = typeof row.args === 'function' ? row.args(project) : row.args;
          const context: AgentToolContext = {
            view: createSourceView(project.root),
            runTests: table.runTests ?? (async () => ({ ok: true, output: 'run_tests is not used by this table' })),
            ...(row.diagnostics ? { diagnostics: row.diagnostics } : {}),
          };
          const result = row.direct ? await tool.run(args, context) : await callAsTheModel(tool, args, context);
          const expected = typeof row.output === 'function' ? row.output(project) : row.output;
          if (typeof expected === 'string') expect(result).toEqual({ ok: row.ok, output: expected });
          else {
            expect(result.ok, result.output).toBe(row.ok);
            if (expected instanceof RegExp) expect(result.output).toMatch(expected);
            else expect(result.output).toContain(expected.includes);
          }
          row.check?.(result.output);
        } finally {
          if (project !== shared) await rm(project.base, { recursive: true, force: true });
        }
      });
    }
  });
}
