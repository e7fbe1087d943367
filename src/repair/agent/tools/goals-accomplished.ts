/** goals_accomplished: fix -> end, keeping the best fix so far. */
import type { MovingTool } from './support/state-tool.js';

export const goalsAccomplished = {
  name: 'goals_accomplished',
  states: ['fix'],
  description: 'stop and keep the fix that got furthest, when it made progress and the rest needs a new attempt',
  parameters: {},
  move: () => ({ ok: true, answer: 'Stopping here with the best fix so far.', stop: 'goals-accomplished' }),
} as const satisfies MovingTool;
