export type { LibraryMember, LibraryType, SourceScope, TypeIndex } from './types.js';
export { createSourceView } from './disk-source-view.js';
export { createParseCache, parseCacheDir, type ParseCacheOptions } from './parse-store.js';
export { createTypeIndex, type TypeIndexOptions } from './type-index.js';
export {
  resolveDeclaredClasspath,
  parseDeclaredDependencies,
  defaultLocalRepository,
  type DeclaredClasspath,
} from './declared-classpath.js';
export { loadJdkIndex, resolveJavaHome, defaultCacheDir } from './jdk-index.js';
export { projectTypes, type ProjectTypes } from './project-types.js';
export { scopeOfPath, packageImpliedByPath } from './maven-layout.js';
