/** Small helpers over the source model itself (no syntax tree needed). */
import type { JavaSourceFile, JavaType } from './types.js';

/** Every type of the file, member types included, outer before inner. */
export function allTypes(file: JavaSourceFile): JavaType[] {
  const out: JavaType[] = [];
  const visit = (type: JavaType) => {
    out.push(type);
    type.types.forEach(visit);
  };
  file.types.forEach(visit);
  return out;
}

/** The type with this binary name (`com.acme.Outer$Inner`), if the file declares it. */
export function findType(file: JavaSourceFile, binaryName: string): JavaType | undefined {
  return allTypes(file).find((type) => type.binaryName === binaryName);
}

/** 1-based line of an offset in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) if (text.charCodeAt(index) === 10) line++;
  return line;
}
