/**
 * mvnx's one Java-source module: parse a file once into a small source model
 * (compilation unit -> types -> methods -> statements, with text and ranges) and ask it
 * questions (method calls with their arguments, try/catch blocks, returns). Any stage may
 * import it; it imports nothing from the other stages. See docs/ARCHITECTURE.md.
 */
export { loadJavaParser, parseJava } from './parse.js';
export { viewJavaFile, type SourceView, type ViewedJavaFile } from './source-view.js';
export {
  flushJavaParses,
  forgetJavaParses,
  javaParseStats,
  parseKept,
  parseKey,
  useJavaParseCache,
  PARSE_CACHE_FORMAT,
  type JavaParseCacheStats,
  type ParseStore,
} from './parse-cache.js';
export { findBranches, type JavaBranch } from './branches.js';
export {
  bodyRanges,
  findMethodCalls,
  findReturnStatements,
  findStatements,
  findTryStatements,
  isInside,
  tokenText,
  tokenTextOfRange,
} from './queries.js';
export {
  allTypes,
  commentedStartLine,
  findType,
  lineAt,
  offsetAt,
  methodAt,
  typeAt,
  type SourcePosition,
} from './model.js';
export type * from './types.js';
export {
  fieldsOf,
  implicitMethodsOf,
  returnTypeOf,
  superTypesOf,
  typeBodyLine,
  typeHeaderOf,
  typeParametersOf,
  type JavaField,
  type SuperTypes,
} from './members.js';
export {
  callReceivers,
  qualifyTypeName,
  rawTypeName,
  variableAt,
  variablesOf,
  type CallReceiver,
  type JavaVariable,
  type ReceiverOptions,
} from './resolve.js';
// The agent's tools and the quick-fixes: outlines, a test's code, headers, enclosing methods, the lexical layer.
export {
  outline,
  signatureOf,
  declarationLine,
  initializersOf,
  hasAnnotation,
  type JavaInitializer,
  type OutlineEntry,
} from './outline.js';
export { findTestCode, type TestCode } from './test-code.js';
export {
  readJavaHeader,
  scanJavaHeader,
  headerOf,
  usesSimpleName,
  type JavaHeader,
  type JavaImport,
} from './header.js';
export { enclosingMethodAt, type EnclosingMethod } from './enclosing.js';
export { maskCommentsAndLiterals, splitLines, joinLines, type SourceLines } from './lexical.js';
