/**
 * mvnx's one Java-source module: parse a file once into a small source model
 * (compilation unit -> types -> methods -> statements, with text and ranges) and ask it
 * questions (method calls with their arguments, try/catch blocks, returns). Any stage may
 * import it; it imports nothing from the other stages. See docs/ARCHITECTURE.md.
 */
export { parseJava } from './parse.js';
export { findMethodCalls, findReturnStatements, findStatements, findTryStatements, isInside, tokenText, tokenTextOfRange } from './queries.js';
export { allTypes, findType, lineAt } from './model.js';
export type * from './types.js';
export { fieldsOf, implicitMethodsOf, returnTypeOf, superTypesOf, typeHeaderOf, typeParametersOf, type JavaField, type SuperTypes } from './members.js';
export { callReceivers, qualifyTypeName, rawTypeName, variableAt, variablesOf, type CallReceiver, type JavaVariable, type ReceiverOptions } from './resolve.js';
