/**
 * What an agent session takes and gives: its input (the model, the tools, the budget and
 * the ports of a fix's trial), what each step and each fix tried did, the memory a turn's
 * prompt is rebuilt from, and the session's result.
 */
import type {
  AgentExchange,
  AgentToolDescription,
  GatheredFact,
  LastCall,
  TriedFix,
  TurnStanding,
} from '../../model/prompts/index.js';
import type { ChatMessage, ToolCall, ToolSpec } from '../../model/types.js';
import { type AgentState, type AgentTool, type AgentToolContext } from '../../plugins/contracts.js';

export type AgentStop =
  | 'fix-verified'
  | 'goals-accomplished'
  | 'gave-up'
  | 'step-limit'
  | 'loop-guard'
  | 'unreadable'
  | 'build-budget'
  | 'time-limit';

export interface AgentStep {
  state: AgentState;
  tool: string;
  ok: boolean;
}

/** What became of one candidate of a write_fix call. */
export interface FixOutcome {
  outcome: string;
  /** One line for the model: why it did not pass, or that it did. */
  detail: string;
  files: string[];
}

export interface FixTrial {
  outcomes: FixOutcome[];
  /** Index of the candidate that passed, if one did. */
  verified?: number;
  /** Builds the budget still allows after this trial. */
  buildsLeft: number;
}

export interface AgentModelReply {
  text: string;
  toolCalls?: ToolCall[];
}

/** The server refused native tools: the session goes on in text mode. */
export class ToolCallingRefused extends Error {}

export interface TurnMemory {
  mode: 'native' | 'text';
  state: AgentState;
  /** Every tool of the session in a fixed order: the prompt lists them once, the server gets them all. */
  tools: AgentToolDescription[];
  /** Where the session stood at its first call. */
  opening: TurnStanding;
  /** The conversation so far: every call and its answer, oldest first; a turn only appends. */
  exchanges: AgentExchange[];
  hypothesis?: string;
  facts: GatheredFact[];
  fixesTried: TriedFix[];
  last?: LastCall;
  stepsLeft: number;
}

export interface AgentSessionInput {
  tools: readonly AgentTool[];
  context: AgentToolContext;
  mode: 'native' | 'text';
  /** The messages of one turn, built from the memory (model/prompts/agent.ts). */
  turn(memory: TurnMemory): ChatMessage[];
  chat(messages: ChatMessage[], tools: ToolSpec[] | undefined): Promise<AgentModelReply>;
  /** Builds each candidate fix (in parallel where allowed) and says what became of each. */
  tryFixes(candidates: string[]): Promise<FixTrial>;
  maxSteps: number;
  /** Most fixes one write_fix may hold; more are dropped with a note. */
  maxCandidates: number;
  /** Epoch milliseconds after which no new step starts. */
  deadline?: number;
  /** Where the step log goes (kept by the caller also when the session ends in an error). */
  log?: string[];
  onStep?(line: string): void;
}

export interface AgentSessionResult {
  stop: AgentStop;
  hypothesis?: string;
  steps: AgentStep[];
  modelCalls: number;
  /** Calls run per tool (state tools included), after name correction. */
  toolCalls: Record<string, number>;
  /** Calls the middleware had to correct. */
  corrections: number;
  /** Text when the server refused native tools during the session. */
  mode: 'native' | 'text';
  modeNote?: string;
  /** A readable log: the first prompt, then each reply and answer. */
  log: string[];
}
