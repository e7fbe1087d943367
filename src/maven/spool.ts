/**
 * The bounded capture of Maven's output: a temp file used as a ring of `limitBytes`, so
 * memory stays flat however long the log is. When the ring wrapped, `finish()` rewrites
 * it in order (oldest kept byte first) starting at the first whole line.
 */
import { markOwnerSync, OWNER_FILE } from './owner-marker.js';
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CapturedLog } from './types.js';

export const DEFAULT_CAPTURE_LIMIT = 64 * 1024 * 1024;
const COPY_CHUNK = 1024 * 1024;

export class LogSpool {
  private fd: number;
  private written = 0;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly file: string,
    private readonly limitBytes: number,
  ) {
    this.fd = openSync(file, 'w+');
  }

  static create(limitBytes = DEFAULT_CAPTURE_LIMIT): Promise<LogSpool> {
    return new Promise((resolve) => resolve(LogSpool.createNow(limitBytes)));
  }

  private static createNow(limitBytes: number): LogSpool {
    if (!Number.isInteger(limitBytes) || limitBytes < 1) {
      throw new RangeError(`capture limit must be a positive integer of bytes, got ${limitBytes}`);
    }
    // Synchronous: one mkdir, cheaper than a round trip through the thread pool before spawn.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mvnx-log-'));
    // A run killed with SIGKILL leaves the spool behind: the next run removes it by this marker (owner-marker.ts).
    markOwnerSync(dir);
    return new LogSpool(dir, path.join(dir, 'maven.log'), limitBytes);
  }

  /** Synchronous on purpose: a file write is fast and keeps no chunk queued in memory. */
  write(chunk: Uint8Array): void {
    if (this.closed) return;
    let offset = 0;
    // Only the last `limitBytes` of a huge chunk can survive, so skip the rest up front.
    if (chunk.length > this.limitBytes) {
      offset = chunk.length - this.limitBytes;
      this.written += offset;
    }
    while (offset < chunk.length) {
      const position = this.written % this.limitBytes;
      const length = Math.min(chunk.length - offset, this.limitBytes - position);
      writeSync(this.fd, chunk, offset, length, position);
      offset += length;
      this.written += length;
    }
  }

  finish(): Promise<CapturedLog> {
    return new Promise((resolve) => resolve(this.finishNow()));
  }

  private finishNow(): CapturedLog {
    if (this.closed) throw new Error('log spool already finished');
    this.closed = true;
    const truncated = this.written > this.limitBytes;
    let file = this.file;
    if (truncated) {
      file = path.join(this.dir, 'maven-tail.log');
      this.unwrapInto(file);
    }
    closeSync(this.fd);
    const dir = this.dir;
    const files = truncated ? [this.file, file] : [this.file];
    let disposed = false;
    return {
      file,
      bytes: this.written,
      truncated,
      async dispose() {
        if (disposed) return;
        disposed = true;
        await removeSpoolDir(dir, files);
      },
    };
  }

  /** Copies the ring in order, dropping the partial line the wrap cut through. */
  private unwrapInto(target: string): void {
    const out = openSync(target, 'w');
    try {
      const start = this.written % this.limitBytes;
      const buffer = Buffer.allocUnsafe(Math.min(COPY_CHUNK, this.limitBytes));
      let skippingPartialLine = true;
      for (const [from, to] of [
        [start, this.limitBytes],
        [0, start],
      ] as const) {
        for (let position = from; position < to;) {
          const read = readSync(this.fd, buffer, 0, Math.min(buffer.length, to - position), position);
          if (read === 0) break;
          position += read;
          let begin = 0;
          if (skippingPartialLine) {
            const newline = buffer.subarray(0, read).indexOf(10);
            if (newline < 0) continue;
            begin = newline + 1;
            skippingPartialLine = false;
          }
          writeSync(out, buffer, begin, read - begin);
        }
      }
    } finally {
      closeSync(out);
    }
  }

  /** Drop everything without producing a log (spawn failed before any output). */
  async abandon(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      closeSync(this.fd);
    }
    await removeSpoolDir(this.dir, [this.file]);
  }
}

/**
 * Removes the spool folder whose files are known: two unlinks and an rmdir, synchronous,
 * instead of a recursive `rm`, whose first use loads Node's rimraf (~2 ms on the passing
 * path, between Maven's exit and ours). Anything unexpected (a file someone else put
 * there) falls back to the recursive removal.
 */
function removeSpoolDir(dir: string, files: readonly string[]): void | Promise<void> {
  try {
    for (const file of [...files, path.join(dir, OWNER_FILE)]) {
      try {
        unlinkSync(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    rmdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    // fs/promises is not loaded up front: this fallback is off the start-up path.
    return import('node:fs/promises').then(({ rm }) => rm(dir, { recursive: true, force: true }));
  }
}
