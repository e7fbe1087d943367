/** The tools every agent session has: the code readers, and the build. */
import { CODE_TOOLS } from './tools.js';
import type { AgentTool } from '../../plugins/contracts.js';

export const RUN_TESTS_TOOL: AgentTool = {
  name: 'run_tests',
  description: 'build the code as it is now in a separate workspace (failing tests first) and say what still fails; takes a while',
  parameters: {},
  states: ['collect', 'fix'],
  run: async (_args, context) => context.runTests(),
};

export const BUILT_IN_AGENT_TOOLS: readonly AgentTool[] = [...CODE_TOOLS, RUN_TESTS_TOOL];
