import { describe, expect, it } from 'vitest';
import { checkPlugin } from '../../../../../src/plugins/check.js';
import type { AgentTool } from '../../../../../src/plugins/contracts.js';
import { sessionTools } from '../../../../../src/repair/agent/toolbox.js';
import {
  BUILT_IN_AGENT_TOOLS,
  CODE_TOOLS,
  extractMethod,
  extractTestCode,
  findSimilarApiCalls,
  getClassesAndMethods,
  readRange,
  runTests,
  searchCodeBase,
  STATE_TOOLS,
} from '../../../../../src/repair/agent/tools/index.js';

describe('the map of built-in tools', () => {
  it('lists the reading tools in order, each usable in every state, with their parameters', () => {
    expect(CODE_TOOLS).toEqual([
      readRange,
      searchCodeBase,
      getClassesAndMethods,
      extractMethod,
      extractTestCode,
      findSimilarApiCalls,
    ]);
    expect(
      CODE_TOOLS.map((tool) => [
        tool.name,
        tool.states,
        Object.entries(tool.parameters).map(([name, p]) => `${name}:${p.type}${p.optional ? '?' : ''}`),
      ]),
    ).toEqual([
      ['read_range', ['understand', 'collect', 'fix'], ['file:string', 'start:integer', 'end:integer?']],
      ['search_code_base', ['understand', 'collect', 'fix'], ['pattern:string', 'glob:string?']],
      ['get_classes_and_methods', ['understand', 'collect', 'fix'], ['file:string']],
      ['extract_method', ['understand', 'collect', 'fix'], ['file:string', 'method:string']],
      ['extract_test_code', ['understand', 'collect', 'fix'], ['test:string?', 'file:string?']],
      ['find_similar_api_calls', ['understand', 'collect', 'fix'], ['call:string', 'file:string?', 'line:integer?']],
    ]);
    for (const tool of CODE_TOOLS) expect(tool.description).not.toContain('\n');
  });

  it('runs the reading tools, then run_tests; the state tools are keyed by their own names, in the order the model sees them', () => {
    expect(BUILT_IN_AGENT_TOOLS).toEqual([...CODE_TOOLS, runTests]);
    expect(Object.entries(STATE_TOOLS).map(([key, tool]) => [key, tool.name])).toEqual(
      [
        'express_hypothesis',
        'discard_hypothesis',
        'collect_more_information',
        'write_fix',
        'goals_accomplished',
        'give_up',
      ].map((name) => [name, name]),
    );
  });
});

describe("a session's tools go through the check a plugin's tools get", () => {
  const pluginTool: AgentTool = {
    name: 'who_owns',
    description: 'the team that owns a file',
    parameters: { file: { type: 'string', description: 'a project file' } },
    states: ['collect'],
    run: async () => ({ ok: true, output: 'team-payments' }),
  };

  it('passes every built-in tool and state tool, and keeps the built-in ones first', () => {
    expect(sessionTools([])).toEqual(BUILT_IN_AGENT_TOOLS);
    expect(sessionTools([pluginTool])).toEqual([...BUILT_IN_AGENT_TOOLS, pluginTool]);
  });

  it("refuses a malformed built-in tool in the words it refuses a plugin's tool", () => {
    const malformed = {
      ...readRange,
      states: [],
      parameters: { file: { type: 'path', description: 'a file' } },
    } as unknown as AgentTool;
    const asPlugin = checkPlugin({ name: 'p', tools: [malformed] });
    expect(asPlugin).toEqual({
      problem: expect.stringContaining(
        'tools[0].parameters.file.type: found "path" (string), expected one of "string", "integer", "string[]"',
      ),
    });
    expect(() => sessionTools([], [malformed])).toThrow(
      'tool read_range: parameters.file.type: found "path" (string), expected one of "string", "integer", "string[]"',
    );
    expect(() => sessionTools([], [{ ...runTests, run: undefined } as unknown as AgentTool])).toThrow(
      'tool run_tests: run: found nothing, expected a function',
    );
    expect(() => sessionTools([], [{ ...runTests, name: 'Run Tests' }])).toThrow(
      'tool Run Tests: name: found "Run Tests" (string), expected a lower_snake_case name',
    );
  });

  it("checks the state tools' declarations too, without a run", () => {
    expect(() => sessionTools([], BUILT_IN_AGENT_TOOLS, [{ ...STATE_TOOLS.give_up, description: ' ' }])).toThrow(
      /^state tool give_up: description: /,
    );
    expect(() => sessionTools([], BUILT_IN_AGENT_TOOLS, [{ ...STATE_TOOLS.write_fix, states: [] }])).toThrow(
      /^state tool write_fix: states: /,
    );
  });

  it('refuses a tool named like a built-in or a state tool, and a name used twice', () => {
    expect(() => sessionTools([{ ...pluginTool, name: 'read_range' }])).toThrow(
      'an agent tool named read_range is already registered',
    );
    expect(() => sessionTools([{ ...pluginTool, name: 'write_fix' }])).toThrow(
      'an agent tool named write_fix is already registered',
    );
    expect(() => sessionTools([pluginTool, pluginTool])).toThrow('an agent tool named who_owns is already registered');
  });
});
