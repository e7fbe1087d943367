/** run_tests: the build as the model's tool, through the context's runTests (the session's workspace pool). */
import type { AgentTool } from '../../../plugins/contracts.js';

export const runTests: AgentTool = {
  name: 'run_tests',
  description: 'build and test the code as it is now in a copy: what still fails (slow)',
  parameters: {},
  states: ['collect', 'fix'],
  run: async (_args, context) => context.runTests(),
};
