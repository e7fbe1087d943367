/**
 * Agent mode (in the style of RepairAgent): instead of one prompt with fixed excerpts,
 * the model works through states, calling tools to read the code and run tests, and
 * ends with a patch that goes through the same checks and verification as any other.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import type { SourceView } from '../fixers/types.js';

/** understand the failure -> collect what the fix needs -> write the fix. */
export type AgentState = 'understand' | 'collect' | 'fix';

export interface ToolParameter {
  /** `string[]`: a list of texts (write_fix's candidate fixes). */
  type: 'string' | 'integer' | 'string[]';
  description: string;
  optional?: boolean;
}

/** What a tool hands back to the model. A bad call is `ok: false` with a message the model can act on, never a throw. */
export interface ToolResult {
  ok: boolean;
  output: string;
}

export interface AgentToolContext {
  /** The project as the current attempt sees it (original tree plus adopted progress). */
  view: SourceView;
  /** Builds the code as it is now in the workspace (failing tests, then the whole command) and says what still fails. */
  runTests(): Promise<ToolResult>;
  /** The failure being repaired (extract_test_code finds the failing test and its line here). */
  diagnostics?: readonly Diagnostic[];
}

export interface AgentTool {
  name: string;
  /** One line for the prompt. */
  description: string;
  parameters: Record<string, ToolParameter>;
  /** The states in which the model may call it. */
  states: readonly AgentState[];
  run(args: Record<string, unknown>, context: AgentToolContext): Promise<ToolResult>;
}

/** Upper bound of one tool result, so that a big file cannot crowd the context window. */
export const MAX_TOOL_OUTPUT_CHARS = 6_000;
