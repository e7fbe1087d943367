/** give_up: any state -> end, no fix. */
import { reasonOf, type MovingTool } from './support/state-tool.js';

export const giveUp = {
  name: 'give_up',
  states: ['understand', 'collect', 'fix'],
  description: 'no fix can be found from here',
  parameters: { reason: { type: 'string', description: 'why', optional: true } },
  move(args) {
    const reason = reasonOf(args);
    return { ok: true, answer: `Giving up${reason ? `: ${reason}` : ''}.`, stop: 'gave-up' };
  },
} as const satisfies MovingTool;
