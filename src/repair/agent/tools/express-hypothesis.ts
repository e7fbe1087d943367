/** express_hypothesis: understand -> collect, with the hypothesis kept in the session's memory. */
import type { MovingTool } from './support/state-tool.js';

export const expressHypothesis = {
  name: 'express_hypothesis',
  states: ['understand', 'collect'],
  description: 'one sentence on what causes the failure; then collect what the fix needs',
  parameters: { hypothesis: { type: 'string', description: 'the cause' } },
  move(args, memory) {
    const text = typeof args.hypothesis === 'string' ? args.hypothesis.trim() : '';
    if (text === '')
      return { ok: false, answer: 'express_hypothesis needs "hypothesis": one sentence on what causes the failure.' };
    memory.hypothesis = text;
    memory.state = 'collect';
    return { ok: true, answer: 'Noted. Now collect what the fix needs, then call write_fix.' };
  },
} as const satisfies MovingTool;
