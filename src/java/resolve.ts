/**
 * Which type a name or a call belongs to, as far as one file can tell: variables in scope
 * (parameters, locals, `for` and `catch` variables, `var` with a `new`), the type's
 * fields, `this`/`super`, static calls on a type name, and type names qualified through
 * the file's imports, its package and its own nested types. A chained call
 * (`a.b().c()`) is followed when the caller can say what a member returns.
 */
import { child, childNodes, childTokens, descendants, originOf, rangeOf, textOf } from './cst.js';
import { fieldsOf, superTypesOf } from './members.js';
import { allTypes } from './model.js';
import { findMethodCalls } from './queries.js';
import type { JavaMethod, JavaMethodCall, JavaSourceFile, JavaType, SourceRange } from './types.js';
import { remembered } from './parse-cache.js';

export interface JavaVariable {
  name: string;
  /** As written; `var` when the declaration says so and no `new` tells more. */
  type: string;
  kind: 'parameter' | 'local' | 'catch';
  /** Where the declaration is; a variable is in scope after its start. */
  range: SourceRange;
}

/** Parameters and every local variable declared in the method, in source order. */
function variablesOfFromTree(method: JavaMethod): JavaVariable[] {
  const { node, source } = originOf(method);
  const out: JavaVariable[] = method.parameters.map((parameter) => ({
    name: parameter.name,
    type: parameter.type,
    kind: 'parameter' as const,
    range: method.range,
  }));
  for (const declaration of descendants(node, 'localVariableDeclaration')) {
    const typeNode = child(declaration, 'localVariableType');
    const written = typeNode ? textOf(source, typeNode) : 'var';
    const declarators = child(declaration, 'variableDeclaratorList');
    for (const declarator of declarators ? childNodes(declarators, 'variableDeclarator') : []) {
      const id = child(declarator, 'variableDeclaratorId');
      const initializer = child(declarator, 'variableInitializer');
      const created =
        written === 'var' && initializer
          ? /^new\s+([\w$.]+(?:<[^()]*>)?)\s*\(/.exec(textOf(source, initializer))?.[1]
          : undefined;
      out.push({
        name: id ? (childTokens(id)[0]?.image ?? '') : '',
        type: created?.replace(/<>$/, '') ?? written,
        kind: 'local',
        range: rangeOf(declarator),
      });
    }
  }
  for (const parameter of descendants(node, 'catchFormalParameter')) {
    const types = child(parameter, 'catchType');
    const id = child(parameter, 'variableDeclaratorId');
    const first = types && [...childNodes(types, 'unannClassType'), ...childNodes(types, 'classType')][0];
    out.push({
      name: id ? (childTokens(id)[0]?.image ?? '') : '',
      type: first ? textOf(source, first) : 'Throwable',
      kind: 'catch',
      range: rangeOf(parameter),
    });
  }
  return out.sort((a, b) => a.range.start - b.range.start);
}

/** The variable `name` refers to at `offset` in the method: the nearest declaration before it. */
export function variableAt(method: JavaMethod, name: string, offset: number): JavaVariable | undefined {
  let found: JavaVariable | undefined;
  for (const variable of variablesOf(method))
    if (variable.name === name && variable.range.start <= offset) found = variable;
  return found;
}

/** `Map<String, List<Integer>>[]` -> `Map`; `java.util.List<T>` -> `java.util.List`; `? extends Foo` -> `Foo`. */
export function rawTypeName(written: string): string {
  let text = written
    .replace(/@[\w$.]+(\([^)]*\))?\s*/g, '')
    .replace(/^\?\s*(extends|super)\s+/, '')
    .trim();
  for (let depth = 0; depth < 8 && text.includes('<'); depth++) text = text.replace(/<[^<>]*>/g, '');
  return text
    .replace(/\[\s*\]|\.\.\./g, '')
    .replace(/\s+/g, '')
    .trim();
}

/**
 * The qualified name of a type written in `file`, or undefined when the file cannot tell
 * (a JDK type, a type from a wildcard import of a library). `exists` says whether a
 * qualified name is a type the caller knows (the project's own, typically). Nested
 * types come back with `$`: `com.acme.Outer$Inner`.
 */
export function qualifyTypeName(
  written: string,
  file: JavaSourceFile,
  exists: (qualifiedName: string) => boolean,
): string | undefined {
  const name = rawTypeName(written);
  if (name === '') return undefined;
  const [first, ...rest] = name.split('.');
  const nested = allTypes(file).find((type) => type.name === first);
  if (nested) return [nested.binaryName, ...rest].join('$');
  if (rest.length > 0 && /^[a-z]/.test(first!) && exists(name)) return name;
  const imported = file.imports.find((entry) => !entry.startsWith('static ') && entry.endsWith(`.${first}`));
  if (imported) return [imported, ...rest].join(rest.length > 0 && exists([imported, ...rest].join('.')) ? '.' : '$');
  const samePackage = file.packageName ? `${file.packageName}.${first}` : first!;
  if (exists(samePackage)) return [samePackage, ...rest].join('$');
  for (const entry of file.imports) {
    if (entry.startsWith('static ') || !entry.endsWith('.*')) continue;
    const candidate = `${entry.slice(0, -2)}.${first}`;
    if (exists(candidate)) return [candidate, ...rest].join('$');
  }
  return undefined;
}

export interface CallReceiver {
  call: JavaMethodCall;
  /** The type the call is made on, as written in the source; absent when it cannot be told. */
  typeName?: string;
  /** Made on a type name (`Money.format(x)`), not on a value. */
  isStatic: boolean;
  /** A call without a qualifier, or on `this`/`super`: the enclosing type or its supertypes. */
  onSelf: boolean;
}

export interface ReceiverOptions {
  /**
   * The type a member of `typeName` has: a method's return type when `argumentCount` is
   * given, a field's type otherwise. Lets `a.b().c()` and `this.x.y()` be followed.
   */
  memberType?(typeName: string, member: string, argumentCount?: number): string | undefined;
}

/** Every call in `method` (declared in `type`) with the type it is made on, where it can be told. */
export function callReceivers(method: JavaMethod, type: JavaType, options: ReceiverOptions = {}): CallReceiver[] {
  const calls = findMethodCalls(method);
  const fields = fieldsOf(type);
  const superclass = superTypesOf(type).superclass;
  const byText = new Map<string, CallReceiver>();
  const out: CallReceiver[] = [];

  const typeOfValue = (text: string, offset: number): string | undefined => {
    const expression = text.trim();
    if (expression === 'this') return type.name;
    if (expression === 'super') return superclass;
    const created = /^new\s+([\w$.]+(?:\s*<[^()]*>)?)\s*\([^]*\)$/.exec(expression);
    if (created) return rawTypeName(created[1]!);
    const cast = /^\(\s*\(\s*([\w$.<>, ?]+)\s*\)[^]*\)$/.exec(expression);
    if (cast) return rawTypeName(cast[1]!);
    if (/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(expression)) {
      const variable = variableAt(method, expression, offset);
      if (variable) return variable.type === 'var' ? undefined : variable.type;
      return fields.find((field) => field.name === expression)?.type;
    }
    const member = /^(.*)\.\s*([\p{L}_$][\p{L}\p{N}_$]*)$/su.exec(expression);
    if (member && member[1]!.trim() === 'this') return fields.find((field) => field.name === member[2])?.type;
    if (member && options.memberType) {
      const owner =
        typeOfValue(member[1]!, offset) ?? (/^[A-Z]/.test(member[1]!.trim()) ? member[1]!.trim() : undefined);
      return owner ? options.memberType(rawTypeName(owner), member[2]!) : undefined;
    }
    const previous = byText.get(expression);
    if (previous?.typeName && options.memberType)
      return options.memberType(rawTypeName(previous.typeName), previous.call.name, previous.call.arguments.length);
    return undefined;
  };

  for (const call of calls) {
    const qualifier = call.qualifier?.trim();
    let receiver: CallReceiver;
    if (qualifier === undefined || qualifier === 'this')
      receiver = { call, typeName: type.name, isStatic: false, onSelf: true };
    else if (qualifier === 'super')
      receiver = { call, ...(superclass ? { typeName: superclass } : {}), isStatic: false, onSelf: true };
    else {
      const valueType = typeOfValue(qualifier, call.range.start);
      const isTypeName =
        valueType === undefined &&
        /^(?:[a-z_$][\w$]*\.)*[A-Z][\w$]*$/.test(qualifier) &&
        !variableAt(method, qualifier, call.range.start);
      receiver = {
        call,
        ...(valueType ? { typeName: valueType } : isTypeName ? { typeName: qualifier } : {}),
        isStatic: isTypeName,
        onSelf: false,
      };
    }
    byText.set(call.text.trim(), receiver);
    out.push(receiver);
  }
  return out;
}

// Asked once per file content (parse-cache.ts): kept across attempts and, with a store, across runs.
export function variablesOf(method: JavaMethod): JavaVariable[] {
  return remembered('variablesOf', method, () => variablesOfFromTree(method));
}
