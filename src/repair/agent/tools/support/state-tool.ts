/**
 * The shape of a state tool (RepairAgent's state machine): declared like any agent tool
 * (name, description, parameters, states: plugins/check.ts checks it), but answered by the
 * session itself, since it moves the session between understand, collect and fix instead
 * of reading the project. write_fix is one too; its candidates are built by the session.
 */
import type { AgentState, AgentTool } from '../../../../plugins/contracts.js';

/** What the model sees of a tool: an agent tool without `run`. */
export type ToolDeclaration = Omit<AgentTool, 'run'>;

/** The part of the session's memory a state tool changes. */
export interface StateMemory {
  state: AgentState;
  hypothesis?: string;
}

export interface Move {
  ok: boolean;
  /** What the model is told. */
  answer: string;
  /** The session ends here. */
  stop?: 'goals-accomplished' | 'gave-up';
}

/** A state tool that moves the session: where it leads (changing `memory`) and what the model is told. */
export interface MovingTool extends ToolDeclaration {
  move(args: Record<string, unknown>, memory: StateMemory): Move;
}

export const reasonOf = (args: Record<string, unknown>) => (typeof args.reason === 'string' ? args.reason.trim() : '');
