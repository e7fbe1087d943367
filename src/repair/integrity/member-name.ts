/**
 * The member a finding is in, named the way every finding names it: `Type#method(params)`,
 * else `class Type`, when the file parses. Shared by the rules that quote a place in Java code.
 */
import { methodAt, parseJava, typeAt, type JavaSourceFile } from '../../java/index.js';

export function parsedJava(text: string): JavaSourceFile | undefined {
  const result = parseJava(text);
  return result.ok ? result.file : undefined;
}

/** The method (`Type#method(params)`) of the first of these lines inside one, else the type of the first line. */
export function memberAt(file: JavaSourceFile | undefined, lines: number[]): string | undefined {
  if (!file) return undefined;
  for (const line of lines) {
    const found = methodAt(file, { line });
    if (found)
      return `${found.type.name}#${found.method.name}(${found.method.parameters.map((parameter) => parameter.type).join(', ')})`;
  }
  const type = typeAt(file, { line: lines[0]! });
  return type ? `class ${type.name}` : undefined;
}
