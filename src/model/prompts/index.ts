/** Prompt construction: pure functions from what the build said to the messages sent. */
export { buildRepairPrompt, renderDiagnostic, renderNumberedExcerpt, type AttemptSummary, type RepairPromptInput } from './repair-request.js';
export { selectSourceExcerpts, type SourceExcerpt } from './excerpts.js';
export { EDIT_FORMAT_INSTRUCTIONS, EDIT_FORMATS, type EditFormat } from './edit-formats.js';
export { SYSTEM_PROMPT } from './system.js';
export { AGENT_SYSTEM_PROMPT, buildAgentPrompt, type AgentPromptInput, type AgentToolDescription } from './agent.js';
