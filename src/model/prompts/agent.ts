/**
 * The opening of an agent session: what the agent is, its states and tools, how to
 * answer, and the failure. A pure function, like the single-shot repair prompt.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import type { ChatMessage } from '../types.js';
import { EDIT_FORMAT_INSTRUCTIONS, type EditFormat } from './edit-formats.js';
import { renderDiagnostic, type AttemptSummary } from './repair-request.js';
import { GUIDELINES_HEADING } from './system.js';

export interface AgentToolDescription {
  name: string;
  description: string;
  /** e.g. `{"file": string, "start": integer}` */
  parameters: string;
  states: readonly string[];
}

export interface AgentPromptInput {
  diagnostics: Diagnostic[];
  tools: AgentToolDescription[];
  editFormat: EditFormat;
  history: AttemptSummary[];
  guidelines?: string;
  maxSteps: number;
}

export const AGENT_SYSTEM_PROMPT = `You are mvnx, repairing a failing Maven build of a Java project. You cannot see the
code yet: you read it with tools, one call per answer, and then write the smallest fix.

You work in three states:
- understand: find out what fails and why. Read the failing code and the test.
  End it with express_hypothesis.
- collect: read what the fix needs (callers, the class under test, similar code), run the
  tests if that helps. End it with write_fix.
- fix: your fix did not fit the code; correct it and call write_fix again.

Answer with exactly one JSON object and nothing else, for example:
{"tool": "read_range", "args": {"file": "src/main/java/com/acme/App.java", "start": 1, "end": 40}}

Rules for the fix: change as little as possible, fix the main code rather than the test
unless the test itself is wrong, never weaken a test, keep indentation, do not copy line
numbers into the fix.`;

export function buildAgentPrompt(input: AgentPromptInput): ChatMessage[] {
  const tools = input.tools.map((tool) => `- ${tool.name} ${tool.parameters}: ${tool.description} (in: ${tool.states.join(', ')})`).join('\n');
  const system = [
    AGENT_SYSTEM_PROMPT,
    `## Tools\n\n${tools}`,
    `## The fix (the "patch" of write_fix)\n\n${EDIT_FORMAT_INSTRUCTIONS[input.editFormat]}`,
    ...(input.guidelines?.trim() ? [`${GUIDELINES_HEADING}\n${input.guidelines.trim()}`] : []),
  ].join('\n\n');
  const history =
    input.history.length === 0
      ? ''
      : `\n\n## Earlier attempts that did not work\n\n${input.history.map((a) => `- attempt ${a.n}: ${a.outcome}${a.reason ? `: ${a.reason}` : ''}`).join('\n')}`;
  const user = `## Build failure\n\n${input.diagnostics.map(renderDiagnostic).join('\n\n')}${history}\n\nYou have ${input.maxSteps} tool calls. Start by understanding the failure.\n(state: understand)`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
