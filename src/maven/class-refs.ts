/**
 * What one compiled class uses, read from its bytes (JVMS chapter 4): every class its
 * constant pool names (CONSTANT_Class entries, and the `Lpkg/Name;` types inside the
 * descriptors and generic signatures of its fields, methods, calls, annotations and
 * lambdas), the source file it was compiled from, whether it loads classes by name
 * (reflection, `ServiceLoader`), and which of its fields are compile-time constants
 * (javac copies those into the classes that use them, leaving no reference behind). Pure.
 *
 * Every UTF-8 entry of the pool is scanned for `Lpkg/Name;`: descriptors, signatures and
 * annotation types are all there. A string literal that happens to look like one adds an
 * edge that is not real, which only makes test selection keep more; it never loses one.
 */
import { parseClassFile } from './class-file.js';

export interface ClassRefs {
  /** Binary name with dots: `com.acme.Outer$Inner`. */
  name: string;
  /** The `SourceFile` attribute (`Outer.java`), when javac wrote it (it does unless -g:none). */
  sourceFile?: string;
  /** Binary names (dots) of the classes it names, itself left out, sorted. */
  references: string[];
  /**
   * Why it can reach classes no constant pool names (`Class.forName`, `ServiceLoader`...); undefined when it cannot.
   */
  dynamic?: string;
  /** Fields with a constant value (`static final` primitives and Strings) that javac inlines into users. */
  constantFields: string[];
}

/** Calls that reach a class or member by name. */
const DYNAMIC_CALLS: Record<string, RegExp> = {
  'java/lang/Class':
    /^(forName|getMethods?|getDeclaredMethods?|getFields?|getDeclaredFields?|getConstructors?|getDeclaredConstructors?|newInstance|getRecordComponents)$/,
  'java/lang/ClassLoader': /^(loadClass|findClass)$/,
  'java/lang/invoke/MethodHandles$Lookup': /^(find\w*|unreflect\w*|findClass)$/,
};

const TYPE_IN_DESCRIPTOR = /L([A-Za-z_$][\w$]*(?:\/[A-Za-z_$][\w$]*)*)[;<]/g;

export function readClassRefs(bytes: Buffer): ClassRefs {
  if (bytes.length < 10 || bytes.readUInt32BE(0) !== 0xcafebabe) throw new Error('not a class file (bad magic)');
  const count = bytes.readUInt16BE(8);
  const utf8: (string | undefined)[] = new Array<string | undefined>(count);
  /** Pool index of a CONSTANT_Class -> the pool index of its name. */
  const classNameIndex = new Map<number, number>();
  const memberRefs: { classIndex: number; natIndex: number }[] = [];
  const natName = new Map<number, number>();
  let at = 10;
  for (let i = 1; i < count; i++) {
    const tag = bytes.readUInt8(at++);
    switch (tag) {
      case 1: {
        const length = bytes.readUInt16BE(at);
        utf8[i] = bytes.toString('utf8', at + 2, at + 2 + length);
        at += 2 + length;
        break;
      }
      case 7:
        classNameIndex.set(i, bytes.readUInt16BE(at));
        at += 2;
        break;
      case 8:
      case 16:
      case 19:
      case 20:
        at += 2;
        break;
      case 15:
        at += 3;
        break;
      case 9:
      case 10:
      case 11:
        memberRefs.push({ classIndex: bytes.readUInt16BE(at), natIndex: bytes.readUInt16BE(at + 2) });
        at += 4;
        break;
      case 12:
        natName.set(i, bytes.readUInt16BE(at));
        at += 4;
        break;
      case 3:
      case 4:
      case 17:
      case 18:
        at += 4;
        break;
      case 5:
      case 6:
        at += 8;
        i++;
        break;
      default:
        throw new Error(`class file constant pool entry ${i} has unknown tag ${tag}`);
    }
  }
  const classAt = new Map([...classNameIndex.entries()].map(([i, nameIndex]) => [i, utf8[nameIndex] ?? '']));

  const info = parseClassFile(bytes);
  const self = info.name.replace(/\./g, '/');
  const references = new Set<string>();
  const add = (internal: string) => {
    if (internal !== self) references.add(internal.replace(/\//g, '.'));
  };
  for (const index of classNameIndex.values()) {
    const name = utf8[index] ?? '';
    if (name.startsWith('[')) for (const match of name.matchAll(TYPE_IN_DESCRIPTOR)) add(match[1]!);
    else if (name !== '') add(name);
  }
  for (const text of utf8)
    if (text && text.includes('L')) for (const match of text.matchAll(TYPE_IN_DESCRIPTOR)) add(match[1]!);

  let dynamic: string | undefined;
  if (references.has('java.util.ServiceLoader')) dynamic = 'uses java.util.ServiceLoader';
  for (const ref of memberRefs) {
    if (dynamic) break;
    const owner = classAt.get(ref.classIndex) ?? '';
    const member = utf8[natName.get(ref.natIndex) ?? 0] ?? '';
    if (DYNAMIC_CALLS[owner]?.test(member)) dynamic = `calls ${owner.replace(/\//g, '.')}.${member}`;
    else if (owner.startsWith('java/lang/reflect/') && owner !== 'java/lang/reflect/UndeclaredThrowableException')
      dynamic = `uses ${owner.replace(/\//g, '.')}`;
  }

  return {
    name: info.name,
    ...sourceFileOf(bytes, utf8),
    references: [...references].sort(),
    ...(dynamic ? { dynamic } : {}),
    constantFields: constantFieldsOf(bytes, utf8),
  };
}

/**
 * Walks past the pool, fields and methods (calling `onField` per field with its attribute names); returns the offset of
 * the class's attributes.
 */
function walkMembers(
  bytes: Buffer,
  utf8: (string | undefined)[],
  onField: (name: string, attributes: string[]) => void,
): number {
  let at = 10;
  const count = bytes.readUInt16BE(8);
  for (let i = 1; i < count; i++) {
    const tag = bytes.readUInt8(at++);
    if (tag === 1) at += 2 + bytes.readUInt16BE(at);
    else if (tag === 15) at += 3;
    else if (tag === 5 || tag === 6) {
      at += 8;
      i++;
    } else at += [7, 8, 16, 19, 20].includes(tag) ? 2 : 4;
  }
  at += 6; // access, this, super
  at += 2 + 2 * bytes.readUInt16BE(at); // interfaces
  for (const kind of ['field', 'method'] as const) {
    let n = bytes.readUInt16BE(at);
    at += 2;
    for (; n > 0; n--) {
      const name = utf8[bytes.readUInt16BE(at + 2)] ?? '';
      at += 6;
      const attributes: string[] = [];
      let a = bytes.readUInt16BE(at);
      at += 2;
      for (; a > 0; a--) {
        attributes.push(utf8[bytes.readUInt16BE(at)] ?? '');
        at += 6 + bytes.readUInt32BE(at + 2);
      }
      if (kind === 'field') onField(name, attributes);
    }
  }
  return at;
}

function constantFieldsOf(bytes: Buffer, utf8: (string | undefined)[]): string[] {
  const constants: string[] = [];
  walkMembers(bytes, utf8, (name, attributes) => {
    if (attributes.includes('ConstantValue')) constants.push(name);
  });
  return constants;
}

function sourceFileOf(bytes: Buffer, utf8: (string | undefined)[]): { sourceFile?: string } {
  let at = walkMembers(bytes, utf8, () => undefined);
  const n = bytes.readUInt16BE(at);
  at += 2;
  for (let i = 0; i < n; i++) {
    const name = utf8[bytes.readUInt16BE(at)] ?? '';
    const length = bytes.readUInt32BE(at + 2);
    if (name === 'SourceFile' && length === 2) return { sourceFile: utf8[bytes.readUInt16BE(at + 6)] ?? '' };
    at += 6 + length;
  }
  return {};
}
