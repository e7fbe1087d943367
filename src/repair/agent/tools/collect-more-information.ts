/** collect_more_information: fix -> collect, to read more before the next write_fix. */
import type { MovingTool } from './support/state-tool.js';

export const collectMoreInformation = {
  name: 'collect_more_information',
  states: ['fix'],
  description: 'read more code before the next write_fix',
  parameters: { reason: { type: 'string', description: 'what is missing', optional: true } },
  move(_args, memory) {
    memory.state = 'collect';
    return { ok: true, answer: 'Back to collecting: read what the next fix needs, then call write_fix.' };
  },
} as const satisfies MovingTool;
