/** Prompt construction: pure functions from what the build said to the messages sent. */
export { buildRepairPrompt, renderDiagnostic, renderNumberedExcerpt, type AttemptSummary, type RepairPromptInput } from './repair-request.js';
export { selectSourceExcerpts, type SourceExcerpt } from './excerpts.js';
export { EDIT_FORMAT_INSTRUCTIONS, EDIT_FORMATS, type EditFormat } from './edit-formats.js';
export { SYSTEM_PROMPT } from './system.js';
export { AGENT_GOALS, AGENT_ROLE, buildAgentTurn, type AgentPromptState, type AgentToolDescription, type AgentTurn, type AgentTurnInput, type GatheredFact, type LastCall, type TriedFix } from './agent.js';
