/** Prompt construction: pure functions from what the build said to the messages sent. */
export {
  buildRepairPrompt,
  composeRepairPrompt,
  renderDiagnostic,
  type AttemptSummary,
  type RepairPrompt,
  type RepairPromptInput,
} from './repair-request.js';
export {
  CONTEXT_TIERS,
  orderPieces,
  packContext,
  type ContextPiece,
  type ContextTier,
  type PackResult,
} from './context-pack.js';
export { EDIT_FORMAT_INSTRUCTIONS, EDIT_FORMATS, type EditFormat } from './edit-formats.js';
export { SYSTEM_PROMPT, editableFilesSection } from './system.js';
export {
  AGENT_GOALS,
  AGENT_ROLE,
  buildAgentTurn,
  type AgentExchange,
  type AgentPromptState,
  type AgentToolDescription,
  type AgentTurn,
  type AgentTurnInput,
  type GatheredFact,
  type LastCall,
  type TriedFix,
  type TurnStanding,
} from './agent.js';
export { failureSection, FAILURE_SHARE, MAX_CONTEXT_FAILURES, MAX_FULL_FAILURES } from './failure-section.js';
