/** discard_hypothesis: collect/fix -> understand, the hypothesis dropped. */
import { reasonOf, type MovingTool } from './support/state-tool.js';

export const discardHypothesis = {
  name: 'discard_hypothesis',
  states: ['collect', 'fix'],
  description: 'the hypothesis was wrong: back to understanding',
  parameters: { reason: { type: 'string', description: 'why', optional: true } },
  move(args, memory) {
    const reason = reasonOf(args);
    memory.hypothesis = undefined;
    memory.state = 'understand';
    return { ok: true, answer: `Hypothesis dropped${reason ? ` (${reason})` : ''}. Look at the failure again.` };
  },
} as const satisfies MovingTool;
