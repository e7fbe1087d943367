import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type ReadOutcome =
  { kind: 'text'; content: string; encoding: 'utf8' | 'latin1' } | { kind: 'missing' } | { kind: 'non-utf8' };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A project file as text. Strict UTF-8 (a BOM is kept, so writing back is byte-exact);
 * other bytes come back as latin1, a lossless one-char-per-byte view, only when allowed.
 */
export async function readProjectFile(root: string, path: string, allowNonUtf8: boolean): Promise<ReadOutcome> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(root, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return { kind: 'missing' };
    throw error;
  }
  try {
    return { kind: 'text', content: strictUtf8.decode(bytes), encoding: 'utf8' };
  } catch {
    return allowNonUtf8
      ? { kind: 'text', content: bytes.toString('latin1'), encoding: 'latin1' }
      : { kind: 'non-utf8' };
  }
}
