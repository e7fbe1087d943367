/**
 * The built-in agent tools, one file each, listed once here. The order is the order the
 * model sees them in (the reading tools, run_tests, then the state tools), so a new tool is
 * one line in the list of its kind. Each goes through the same check as a plugin's tool
 * (toolbox.ts, plugins/check.ts).
 */
import { collectMoreInformation } from './collect-more-information.js';
import { discardHypothesis } from './discard-hypothesis.js';
import { expressHypothesis } from './express-hypothesis.js';
import { extractMethod } from './extract-method.js';
import { extractTestCode } from './extract-test-code.js';
import { findSimilarApiCalls } from './find-similar-api-calls.js';
import { getClassesAndMethods } from './get-classes-and-methods.js';
import { giveUp } from './give-up.js';
import { goalsAccomplished } from './goals-accomplished.js';
import { readRange } from './read-range.js';
import { runTests } from './run-tests.js';
import { searchCodeBase } from './search-code-base.js';
import { writeFix } from './write-fix.js';
import type { AgentTool } from '../../../plugins/contracts.js';

export {
  collectMoreInformation,
  discardHypothesis,
  expressHypothesis,
  extractMethod,
  extractTestCode,
  findSimilarApiCalls,
  getClassesAndMethods,
  giveUp,
  goalsAccomplished,
  readRange,
  runTests,
  searchCodeBase,
  writeFix,
};

/** The reading tools: what a developer does before touching a failing build. */
export const CODE_TOOLS: readonly AgentTool[] = [
  readRange,
  searchCodeBase,
  getClassesAndMethods,
  extractMethod,
  extractTestCode,
  findSimilarApiCalls,
];

/** The tools every agent session runs: the code readers, and the build. */
export const BUILT_IN_AGENT_TOOLS: readonly AgentTool[] = [...CODE_TOOLS, runTests];

/** The tools the session answers itself, by name: they move it between its states (toolbox.ts). */
export const STATE_TOOLS = {
  express_hypothesis: expressHypothesis,
  discard_hypothesis: discardHypothesis,
  collect_more_information: collectMoreInformation,
  write_fix: writeFix,
  goals_accomplished: goalsAccomplished,
  give_up: giveUp,
} as const;
