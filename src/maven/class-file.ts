/**
 * A class file's public face, read from its bytes (JVMS chapter 4): name, supertypes,
 * fields, methods and constructors with Java-style types, and whether each is deprecated
 * (the `Deprecated` attribute or a `@java.lang.Deprecated` runtime annotation). Pure;
 * nothing of the code is read. `jar-api.ts` reads a whole jar through it.
 */

export const ACC_PUBLIC = 0x0001;
export const ACC_PRIVATE = 0x0002;
export const ACC_PROTECTED = 0x0004;
export const ACC_STATIC = 0x0008;
export const ACC_FINAL = 0x0010;
export const ACC_INTERFACE = 0x0200;
export const ACC_ABSTRACT = 0x0400;
export const ACC_SYNTHETIC = 0x1000;
export const ACC_ENUM = 0x4000;

export interface ClassMember {
  kind: 'field' | 'method' | 'constructor';
  name: string;
  /** JVM descriptor, `(Ljava/lang/String;I)V`: what "the same signature" compares. */
  descriptor: string;
  access: number;
  /** Java types of the parameters (`java.lang.String`, `int[]`); empty for a field. */
  parameters: string[];
  /** The field's type or the method's return type (`void`); the class for a constructor. */
  type: string;
  deprecated: boolean;
}

export interface ClassInfo {
  /** Binary name with dots: `com.acme.Outer$Inner`. */
  name: string;
  access: number;
  superName?: string;
  interfaces: string[];
  deprecated: boolean;
  members: ClassMember[];
}

class Reader {
  at = 0;
  constructor(readonly bytes: Buffer) {}
  u1(): number {
    return this.bytes.readUInt8(this.at++);
  }
  u2(): number {
    const value = this.bytes.readUInt16BE(this.at);
    this.at += 2;
    return value;
  }
  u4(): number {
    const value = this.bytes.readUInt32BE(this.at);
    this.at += 4;
    return value;
  }
  skip(n: number): void {
    this.at += n;
  }
}

const PRIMITIVES: Record<string, string> = {
  B: 'byte',
  C: 'char',
  D: 'double',
  F: 'float',
  I: 'int',
  J: 'long',
  S: 'short',
  Z: 'boolean',
  V: 'void',
};

/** One field descriptor from `at`: the Java type and where it ends. */
function readType(descriptor: string, at: number): { type: string; end: number } {
  let dims = 0;
  while (descriptor[at] === '[') {
    dims++;
    at++;
  }
  let base: string;
  if (descriptor[at] === 'L') {
    const end = descriptor.indexOf(';', at);
    if (end < 0) throw new Error(`bad descriptor ${descriptor}`);
    base = descriptor.slice(at + 1, end).replace(/\//g, '.');
    at = end + 1;
  } else {
    const primitive = PRIMITIVES[descriptor[at] ?? ''];
    if (!primitive) throw new Error(`bad descriptor ${descriptor}`);
    base = primitive;
    at++;
  }
  return { type: base + '[]'.repeat(dims), end: at };
}

/** `(Ljava/lang/String;[I)V` -> parameters `java.lang.String`, `int[]` and return `void`. */
export function parseMethodDescriptor(descriptor: string): { parameters: string[]; returns: string } {
  if (descriptor[0] !== '(') throw new Error(`bad method descriptor ${descriptor}`);
  const parameters: string[] = [];
  let at = 1;
  while (descriptor[at] !== ')') {
    if (at >= descriptor.length) throw new Error(`bad method descriptor ${descriptor}`);
    const read = readType(descriptor, at);
    parameters.push(read.type);
    at = read.end;
  }
  return { parameters, returns: readType(descriptor, at + 1).type };
}

export function parseFieldDescriptor(descriptor: string): string {
  return readType(descriptor, 0).type;
}

/** Parses one class file; throws a one-line error for bytes that are not one. */
export function parseClassFile(bytes: Buffer): ClassInfo {
  const r = new Reader(bytes);
  if (bytes.length < 10 || r.u4() !== 0xcafebabe) throw new Error('not a class file (bad magic)');
  r.skip(4); // minor, major
  const count = r.u2();
  const utf8: (string | undefined)[] = new Array<string | undefined>(count);
  const classIndex: (number | undefined)[] = new Array<number | undefined>(count);
  for (let i = 1; i < count; i++) {
    const tag = r.u1();
    switch (tag) {
      case 1: {
        const length = r.u2();
        // Modified UTF-8 differs from UTF-8 only for NUL and supplementary characters: names never hold them.
        utf8[i] = bytes.toString('utf8', r.at, r.at + length);
        r.skip(length);
        break;
      }
      case 7:
        classIndex[i] = r.u2();
        break;
      case 8:
      case 16:
      case 19:
      case 20:
        r.skip(2);
        break;
      case 15:
        r.skip(3);
        break;
      case 3:
      case 4:
      case 9:
      case 10:
      case 11:
      case 12:
      case 17:
      case 18:
        r.skip(4);
        break;
      case 5:
      case 6:
        r.skip(8);
        i++; // a long or a double takes two entries
        break;
      default:
        throw new Error(`class file constant pool entry ${i} has unknown tag ${tag}`);
    }
  }
  const text = (index: number) => utf8[index] ?? '';
  const className = (index: number) => (index === 0 ? undefined : text(classIndex[index] ?? 0).replace(/\//g, '.'));

  /** Reads attributes; says whether one marks the owner deprecated. */
  const readAttributes = (): boolean => {
    let deprecated = false;
    const n = r.u2();
    for (let i = 0; i < n; i++) {
      const name = text(r.u2());
      const length = r.u4();
      if (name === 'Deprecated') deprecated = true;
      else if (name === 'RuntimeVisibleAnnotations' && annotatesDeprecated(bytes.subarray(r.at, r.at + length), text))
        deprecated = true;
      r.skip(length);
    }
    return deprecated;
  };

  const access = r.u2();
  const name = className(r.u2()) ?? '';
  const superName = className(r.u2());
  const interfaces: string[] = [];
  for (let n = r.u2(); n > 0; n--) interfaces.push(className(r.u2()) ?? '');
  const members: ClassMember[] = [];
  for (const kind of ['field', 'method'] as const) {
    for (let n = r.u2(); n > 0; n--) {
      const memberAccess = r.u2();
      const memberName = text(r.u2());
      const descriptor = text(r.u2());
      const deprecated = readAttributes();
      if (memberName === '<clinit>') continue;
      if (kind === 'field') {
        members.push({
          kind,
          name: memberName,
          descriptor,
          access: memberAccess,
          parameters: [],
          type: parseFieldDescriptor(descriptor),
          deprecated,
        });
        continue;
      }
      const { parameters, returns } = parseMethodDescriptor(descriptor);
      const constructor = memberName === '<init>';
      members.push({
        kind: constructor ? 'constructor' : 'method',
        name: constructor ? simpleName(name) : memberName,
        descriptor,
        access: memberAccess,
        parameters,
        type: constructor ? name : returns,
        deprecated,
      });
    }
  }
  const deprecated = readAttributes();
  return { name, access, ...(superName ? { superName } : {}), interfaces, deprecated, members };
}

/** Whether a RuntimeVisibleAnnotations attribute holds `@java.lang.Deprecated` (only the top-level types are read). */
function annotatesDeprecated(attribute: Buffer, text: (index: number) => string): boolean {
  if (attribute.length < 2) return false;
  const count = attribute.readUInt16BE(0);
  let at = 2;
  for (let i = 0; i < count && at + 2 <= attribute.length; i++) {
    if (text(attribute.readUInt16BE(at)) === 'Ljava/lang/Deprecated;') return true;
    // Element values vary in length; the first annotation that is not Deprecated ends the cheap scan
    // unless it has no elements.
    const pairs = attribute.readUInt16BE(at + 2);
    if (pairs !== 0) return false;
    at += 4;
  }
  return false;
}

/** `com.acme.Outer$Inner` -> `Inner`. */
export function simpleName(binaryName: string): string {
  return binaryName.slice(Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$')) + 1);
}

export function packageOf(binaryName: string): string {
  const dot = binaryName.lastIndexOf('.');
  return dot < 0 ? '' : binaryName.slice(0, dot);
}

export const isVisible = (access: number) =>
  (access & (ACC_PUBLIC | ACC_PROTECTED)) !== 0 && (access & ACC_SYNTHETIC) === 0;
export const isStatic = (access: number) => (access & ACC_STATIC) !== 0;
