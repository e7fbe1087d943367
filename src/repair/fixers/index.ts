export { FixerRegistry, FixerError, BUILT_IN_FIXERS, candidateProblem, createDefaultFixerRegistry } from './registry.js';
export { createSourceView } from './source-view.js';
export { createTypeIndex, type TypeIndexOptions } from './type-index.js';
export { resolveDeclaredClasspath, parseDeclaredDependencies, defaultLocalRepository } from './declared-classpath.js';
export { loadJdkIndex, resolveJavaHome, defaultCacheDir } from './jdk-index.js';
