/**
 * The app's door: what cli/ needs to hand a failed build over, and the few pieces of a
 * repair its subcommands use (the model settings for `mvnx doctor`, plugin loading, the
 * apply of a recorded fix, the agent's tools for `mvnx tool`).
 */
export { handleBuildFailure, isCI, type BuildFailureContext } from './handle-build-failure.js';
export { modelSettings, guidelinesText } from './model-settings.js';
export { loadPlugins } from './plugin-loading.js';
export { applyInPlace, confirm, fixBaseOf, staleFiles } from './tier-actions.js';
export { BUILT_IN_AGENT_TOOLS, STATE_TOOLS } from '../repair/index.js';
