export { FixerRegistry, FixerError, BUILT_IN_FIXERS, candidateProblem, createDefaultFixerRegistry } from './registry.js';
