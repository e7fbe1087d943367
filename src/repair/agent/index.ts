/**
 * The door of agent mode: what code outside repair/agent/ may use. The proposer for the
 * loop, the config's command tools (made from the user's config, so a factory), and the
 * built-in tool names a plugin or a command tool may not reuse. Files inside the folder
 * import each other directly, never this door.
 */
export {
  createAgentProposer,
  type AgentAttemptInput,
  type AgentProposerOptions,
  type ToolCallingSetting,
} from './proposer.js';
export { createCommandTool, type CommandRunner, type CommandToolConfig } from './tools/command-tools.js';
export { allToolNames, STATE_TOOLS } from './toolbox.js';
export { BUILT_IN_AGENT_TOOLS } from './tools/index.js';
