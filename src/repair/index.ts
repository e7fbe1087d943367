/**
 * The repair stage's door: the loop and its ports, the proposers, verification, the
 * fixers and the agent. src/app/ wires a session from these; nothing else imports repair/.
 *
 * The integrity check is not exported here: `verification/integrity-check.ts` imports it
 * with `import()` only for a fix that needs it, so that loading the repair stage does not
 * load the rules and their Java readers (the parser itself loads lazily, at the first parse
 * or at the failure sign).
 */
export { runRepairLoop } from './loop/repair-loop.js';
export { ProviderUnavailable } from './loop/ports.js';
export type {
  FailureRecheck,
  IntegrityOutcome,
  LoopBudget,
  LoopPorts,
  LoopResult,
  Proposal,
  RecheckEvents,
  Verification,
} from './loop/ports.js';
export { overlayReaders } from './loop/compose.js';
export type { ChangeChecker } from './loop/change-check.js';
export { createFixerProposer, type FixerProposerOptions } from './proposers/quick-fix-proposer.js';
export { createModelProposer } from './proposers/model-proposer.js';
export { createIntegrityCheck } from './verification/integrity-check.js';
export { createFailureRecheck, recheckApplies } from './verification/flaky-recheck.js';
export { startVerificationSession, type VerificationSession } from './verification/verification-session.js';
export { failingModuleDirs, failingTests } from './verification/verifier.js';
export { recoverHiddenWarnings } from './verification/warning-recovery.js';
export { createWorkspacePool } from './verification/workspace-pool.js';
export {
  allToolNames,
  BUILT_IN_AGENT_TOOLS,
  createAgentProposer,
  createCommandTool,
  STATE_TOOLS,
  type AgentAttemptInput,
} from './agent/index.js';
export { buildPromptFor, renderMessages, renderPromptText } from './proposers/model-proposer.js';
export { BUILT_IN_FIXERS, FixerRegistry } from './fixers/registry.js';
/** The integrity rules and checks, loaded on demand (see above). */
export const loadIntegrity = () => import('./integrity/index.js');
export { createDependencyUpdateRepair } from './dependency-update/update-repair.js';
export { dependencyUpdateLine, dependencyUpdatePiece } from './dependency-update/record.js';
