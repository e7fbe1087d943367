/**
 * The app's door: what cli/ loads at the first sign of a failed build to hand it over, and
 * the agent's tools for `mvnx tool`. Subcommands that need one piece of a repair import
 * its module alone (`model-settings.ts` for `mvnx doctor`, `plugin-loading.ts`,
 * `tier-actions.ts` for `mvnx apply`), so they do not load the whole repair stage.
 */
export { handleBuildFailure, type BuildFailureContext } from './handle-build-failure.js';
export { BUILT_IN_AGENT_TOOLS, STATE_TOOLS } from '../repair/index.js';
