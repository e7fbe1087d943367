/** run_tests: the build as the model's tool, through the context's runTests (the session's workspace pool). */
import type { AgentTool } from '../../../plugins/contracts.js';

export const runTests: AgentTool = {
  name: 'run_tests',
  description:
    'build the code as it is now in a separate workspace (failing tests first) and say what still fails; takes a while',
  parameters: {},
  states: ['collect', 'fix'],
  run: async (_args, context) => context.runTests(),
};
