/**
 * The agent's reading tools: what a developer does before touching a failing build (open
 * a file at a line, grep, look at a class's outline, read one method or the failing
 * test, see how others call an API). Each takes the model's raw JSON arguments, checks
 * them itself and answers with text the model can act on, never longer than
 * MAX_TOOL_OUTPUT_CHARS. Java is read with src/java's parser, never with brace counting.
 */
import { extractMethod, extractTestCode, findSimilarApiCalls, getClassesAndMethods } from './java-tools.js';
import { readRange, searchCodeBase } from './read-tools.js';
import type { AgentTool } from '../../plugins/contracts.js';

export { extractMethod, extractTestCode, findSimilarApiCalls, getClassesAndMethods } from './java-tools.js';
export { readRange, searchCodeBase } from './read-tools.js';

export const CODE_TOOLS: readonly AgentTool[] = [readRange, searchCodeBase, getClassesAndMethods, extractMethod, extractTestCode, findSimilarApiCalls];
