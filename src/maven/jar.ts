/**
 * Reading a jar (a zip) without a process: the central directory lists the entries, each
 * one stored or deflated (`zlib.inflateRawSync`). Enough for the class files and sources
 * of a Maven artifact; no zip64, no encryption (a jar that needs them is refused by name).
 */
import { readFile } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';

export interface JarEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export interface Jar {
  path: string;
  entries: Map<string, JarEntry>;
  /** The bytes of one entry; undefined when the jar has no such entry. */
  read(name: string): Buffer | undefined;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** The entries of a zip held in memory; throws a one-line error for what is not a readable zip. */
export function openZip(bytes: Buffer, label: string): Jar {
  // The end record is in the last 22 bytes plus a comment of at most 65535.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error(`${label}: not a zip file (no end of central directory)`);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  if (at === 0xffffffff) throw new Error(`${label}: zip64 jars are not read`);
  const entries = new Map<string, JarEntry>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL_HEADER)
      throw new Error(`${label}: damaged central directory at entry ${i}`);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, {
      name,
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localHeaderOffset: bytes.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return {
    path: label,
    entries,
    read(name) {
      const entry = entries.get(name);
      if (!entry) return undefined;
      const local = entry.localHeaderOffset;
      if (bytes.readUInt32LE(local) !== LOCAL_HEADER) throw new Error(`${label}: damaged local header of ${name}`);
      const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
      const data = bytes.subarray(start, start + entry.compressedSize);
      if (entry.method === 0) return Buffer.from(data);
      if (entry.method === 8) return inflateRawSync(data);
      throw new Error(`${label}: ${name} uses zip method ${entry.method}, which is not read`);
    },
  };
}

export async function openJar(file: string): Promise<Jar> {
  return openZip(await readFile(file), file);
}
