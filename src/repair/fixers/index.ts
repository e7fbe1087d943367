export {
  FixerRegistry,
  FixerError,
  BUILT_IN_FIXERS,
  candidateProblem,
  createDefaultFixerRegistry,
} from './registry.js';
export type { BuiltInFixerContext } from './support/built-in-context.js';
