/**
 * The bounded capture of Maven's output: a temp file used as a ring of `limitBytes`, so
 * memory stays flat however long the log is. When the ring wrapped, `finish()` rewrites
 * it in order (oldest kept byte first) starting at the first whole line.
 *
 * The copy is mvnx's, never the build's: a TMPDIR that is full, missing or read-only
 * stops the copy (what was written so far stays readable) and `CapturedLog.lost` says
 * why, while Maven runs on and its exit code stands.
 */
import { markOwnerSync, ownedPrefix, OWNER_FILE, processStartTicks } from './owner-marker.js';
import { pauseForKillTest } from './kill-window-pause.js';
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errnoPhrase } from '../shared/errors.js';
import type { CapturedLog } from './types.js';

export const DEFAULT_CAPTURE_LIMIT = 64 * 1024 * 1024;
const COPY_CHUNK = 1024 * 1024;

export class LogSpool {
  private fd: number | undefined;
  private written = 0;
  /** Bytes that reached the file; below `written` once the copy stopped. */
  private kept = 0;
  private closed = false;
  /** Why the copy stopped, once it did. */
  private lost: string | undefined;

  private constructor(
    private readonly dir: string | undefined,
    private readonly file: string,
    private readonly limitBytes: number,
    problem?: unknown,
  ) {
    if (problem !== undefined) this.lose(problem, 'create a file in');
    else
      try {
        this.fd = openSync(file, 'w+');
      } catch (error) {
        this.lose(error, 'create a file in');
      }
  }

  static create(limitBytes = DEFAULT_CAPTURE_LIMIT): Promise<LogSpool> {
    return new Promise((resolve) => resolve(LogSpool.createNow(limitBytes)));
  }

  private static createNow(limitBytes: number): LogSpool {
    if (!Number.isInteger(limitBytes) || limitBytes < 1) {
      throw new RangeError(`capture limit must be a positive integer of bytes, got ${limitBytes}`);
    }
    // Synchronous: one mkdir, cheaper than a round trip through the thread pool before spawn.
    let dir: string;
    try {
      dir = mkdtempSync(path.join(os.tmpdir(), ownedPrefix('mvnx-log-')));
    } catch (error) {
      return new LogSpool(undefined, path.join(os.tmpdir(), 'mvnx-log-not-created', 'maven.log'), limitBytes, error);
    }
    // A run killed with SIGKILL leaves the spool behind: the next run removes it by this marker (owner-marker.ts).
    // A TMPDIR too full for the marker keeps the spool unmarked; the log copy itself says what it lost.
    try {
      pauseForKillTest('log-marker');
      markOwnerSync(dir);
    } catch {
      // nothing to add: the spool's own writes report the lack of space
    }
    return new LogSpool(dir, path.join(dir, 'maven.log'), limitBytes);
  }

  /** Stop copying, and keep the reason as one phrase: "ENOSPC (no space left on device)". */
  private lose(error: unknown, doing: string): void {
    this.lost ??= `could not ${doing} ${os.tmpdir()} for its copy of Maven's log: ${errnoPhrase(error)}`;
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // Already failing: the reason above is the one to report.
      }
      this.fd = undefined;
    }
  }

  /** Synchronous on purpose: a file write is fast and keeps no chunk queued in memory. Never throws. */
  write(chunk: Uint8Array): void {
    if (this.closed) return;
    if (this.fd === undefined) {
      this.written += chunk.length;
      return;
    }
    try {
      this.writeNow(this.fd, chunk);
    } catch (error) {
      this.written += chunk.length;
      this.lose(error, 'write to');
    }
  }

  private writeNow(fd: number, chunk: Uint8Array): void {
    let offset = 0;
    // Only the last `limitBytes` of a huge chunk can survive, so skip the rest up front.
    if (chunk.length > this.limitBytes) {
      offset = chunk.length - this.limitBytes;
      this.written += offset;
    }
    while (offset < chunk.length) {
      const position = this.written % this.limitBytes;
      const length = Math.min(chunk.length - offset, this.limitBytes - position);
      writeSync(fd, chunk, offset, length, position);
      offset += length;
      this.written += length;
      this.kept = Math.min(this.limitBytes, this.kept + length);
    }
  }

  finish(): Promise<CapturedLog> {
    return new Promise((resolve) => resolve(this.finishNow()));
  }

  private finishNow(): CapturedLog {
    if (this.closed) throw new Error('log spool already finished');
    this.closed = true;
    let truncated = this.written > this.limitBytes;
    let file = this.file;
    const fd = this.fd;
    if (fd !== undefined && truncated) {
      const tail = path.join(this.dir ?? os.tmpdir(), 'maven-tail.log');
      try {
        this.unwrapInto(fd, tail);
        file = tail;
      } catch (error) {
        // The ring is still there, out of order: better than nothing for the diagnosis.
        this.lose(error, 'write to');
      }
    }
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    // What a stopped copy kept is the head of the output, not its tail.
    if (this.lost) truncated = this.kept < this.written;
    const dir = this.dir;
    const files = file === this.file ? [this.file] : [this.file, file];
    const lost = this.lost;
    let disposed = false;
    return {
      file,
      bytes: this.written,
      truncated,
      ...(lost ? { lost } : {}),
      async dispose() {
        if (disposed || dir === undefined) return;
        disposed = true;
        await removeSpoolDir(dir, files);
      },
    };
  }

  /** Copies the ring in order, dropping the partial line the wrap cut through. */
  private unwrapInto(fd: number, target: string): void {
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
          const read = readSync(fd, buffer, 0, Math.min(buffer.length, to - position), position);
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

  /**
   * Adds the process group Maven runs in (its own, `detached`) to the spool's owner marker: should mvnx be killed
   * outright, the next run that removes this spool stops the build it left running (report/killed-runs.ts).
   * Never throws.
   */
  keepGroup(pid: number): void {
    if (this.dir === undefined) return;
    try {
      const startTicks = processStartTicks(pid);
      markOwnerSync(this.dir, {
        mavenGroup: pid,
        ...(startTicks !== undefined ? { mavenGroupStartTicks: startTicks } : {}),
      });
    } catch {
      // A full TMPDIR: the marker written before the spawn stands.
    }
  }

  /** Drop everything without producing a log (spawn failed before any output). */
  async abandon(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
    }
    if (this.dir !== undefined) await removeSpoolDir(this.dir, [this.file]);
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
