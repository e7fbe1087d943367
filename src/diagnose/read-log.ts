/**
 * Streams a log file into a line consumer in bounded memory, whatever machine wrote it:
 *
 * - Lines end at `\n`, `\r\n` or a lone `\r` (old Mac tools, progress bars saved to a file).
 * - A UTF-8 byte order mark is dropped. A UTF-16 log (a BOM `FF FE` or `FE FF`, as
 *   PowerShell's `>` writes) is decoded as UTF-16.
 * - Every other line is read as UTF-8 when it is valid UTF-8; in a line that is not, each
 *   byte that is no part of a valid UTF-8 sequence is read as Latin-1: one CP1252 byte
 *   (a path such as `C:\Users\Jürgen`) never costs the error on that line. `latin1Lines`
 *   counts such lines.
 * - An overlong line is cut at `maxLineLength` and the rest of it skipped, so a log
 *   without newlines cannot grow one string.
 *
 * Splitting works on bytes (UTF-8 never has 0x0A or 0x0D inside a character), so the
 * cost is one pass over the file whatever the line lengths.
 */
import { isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

export interface ReadLogOptions {
  maxLineLength?: number;
  chunkSize?: number;
}

export interface ReadLogStats {
  bytes: number;
  lines: number;
  cutLines: number;
  /** Lines that were not valid UTF-8 and were read as Latin-1. */
  latin1Lines: number;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
}

const DEFAULT_MAX_LINE = 64 * 1024;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits byte chunks into lines; carries a partial line (bounded) and a pending CR
 * between chunks. One UTF-8 check covers all the complete lines of a chunk (the common
 * case); only a chunk that fails it is checked line by line.
 */
class ByteLineSplitter {
  private parts: Buffer[] = [];
  private partLength = 0;
  private skipping = false;
  private afterCr = false;

  constructor(
    private readonly maxLine: number,
    private readonly emitBytes: (line: Buffer, cut: boolean) => void,
    private readonly emitText: (line: string, cut: boolean) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    // A CR at the end of the previous chunk already ended a line; an LF right after it belongs to it.
    if (this.afterCr && chunk.length > 0) {
      this.afterCr = false;
      if (chunk[0] === LF) start = 1;
    }
    // A line begun in an earlier chunk ends at the first break here.
    if (this.partLength > 0 || this.skipping) {
      const end = firstBreak(chunk, start);
      if (end === -1) {
        this.take(Buffer.from(chunk.subarray(start)));
        return;
      }
      this.take(chunk.subarray(start, end));
      this.endLine();
      start = this.afterBreak(chunk, end);
    }
    const last = Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR));
    if (last >= start) {
      const whole = chunk.subarray(start, last + 1);
      this.splitBytes(whole, isUtf8(whole));
      start = last + 1;
      if (chunk[last] === CR && start === chunk.length) this.afterCr = true;
    }
    // The unfinished tail outlives this chunk: copy it rather than keep a view into the chunk.
    if (start < chunk.length) this.take(Buffer.from(chunk.subarray(start)));
  }

  end(): void {
    if (!this.skipping && this.partLength > 0) this.endLine();
  }

  /**
   * Bytes that end with a line break. Each line is decoded on its own (a fresh string, so
   * a finding kept from one line never keeps the whole chunk alive); a chunk that is all
   * valid UTF-8 skips the per-line check.
   */
  private splitBytes(bytes: Buffer, utf8: boolean): void {
    let start = 0;
    // The next LF and CR are remembered, so a chunk without CRs is not rescanned per line.
    let nextLf = bytes.indexOf(LF);
    let nextCr = bytes.indexOf(CR);
    while (start < bytes.length) {
      if (nextLf !== -1 && nextLf < start) nextLf = bytes.indexOf(LF, start);
      if (nextCr !== -1 && nextCr < start) nextCr = bytes.indexOf(CR, start);
      const end = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      const cut = end - start > this.maxLine;
      const stop = cut ? start + this.maxLine : end;
      if (utf8) this.emitText(bytes.toString('utf8', start, stop), cut);
      else this.emitBytes(bytes.subarray(start, stop), cut);
      start = this.afterBreak(bytes, end);
    }
  }

  private afterBreak(bytes: Buffer, at: number): number {
    if (bytes[at] === CR) {
      if (at + 1 < bytes.length && bytes[at + 1] === LF) return at + 2;
      if (at + 1 === bytes.length) this.afterCr = true;
    }
    return at + 1;
  }

  private take(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    const room = this.maxLine - this.partLength;
    if (piece.length <= room) {
      this.parts.push(piece);
      this.partLength += piece.length;
      return;
    }
    this.parts.push(piece.subarray(0, room));
    this.partLength += room;
    this.flush(true);
    this.skipping = true;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    this.flush(false);
  }

  private flush(cut: boolean): void {
    const line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partLength);
    this.parts = [];
    this.partLength = 0;
    this.emitBytes(line, cut);
  }
}

function firstBreak(bytes: Buffer, from: number): number {
  const lf = bytes.indexOf(LF, from);
  const cr = bytes.indexOf(CR, from);
  return lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
}

function decodeLine(bytes: Buffer, stats: ReadLogStats): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  stats.latin1Lines++;
  return decodeMixed(bytes);
}

/**
 * A line that is not valid UTF-8: its valid UTF-8 sequences are read as UTF-8 and every
 * other byte as Latin-1, so a CP1252 `ü` (0xFC) stays `ü` and the line's `ü` written in
 * UTF-8 elsewhere does too. Only such lines come here, so the byte loop costs little.
 */
export function decodeMixed(bytes: Uint8Array): string {
  let out = '';
  let plainStart = 0;
  let i = 0;
  const flushPlain = (end: number) => {
    if (end > plainStart)
      out += Buffer.from(bytes.buffer, bytes.byteOffset + plainStart, end - plainStart).toString('latin1');
  };
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let valid = length > 0 && i + length <= bytes.length;
    for (let k = 1; valid && k < length; k++) valid = (bytes[i + k]! & 0xc0) === 0x80;
    if (valid && length === 3) {
      const second = bytes[i + 1]!;
      valid = !(b === 0xe0 && second < 0xa0) && !(b === 0xed && second >= 0xa0);
    }
    if (valid && length === 4) {
      const second = bytes[i + 1]!;
      valid = !(b === 0xf0 && second < 0x90) && !(b === 0xf4 && second >= 0x90);
    }
    flushPlain(i);
    if (valid) {
      out += Buffer.from(bytes.buffer, bytes.byteOffset + i, length).toString('utf8');
      i += length;
    } else {
      out += String.fromCharCode(b);
      i++;
    }
    plainStart = i;
  }
  flushPlain(bytes.length);
  return out;
}

export async function streamLogLines(
  file: string,
  onLine: (line: string) => void,
  options: ReadLogOptions = {},
): Promise<ReadLogStats> {
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
  const stats: ReadLogStats = { bytes: 0, lines: 0, cutLines: 0, latin1Lines: 0, encoding: 'utf-8' };
  const emitString = (line: string, cut: boolean): void => {
    stats.lines++;
    if (cut) stats.cutLines++;
    onLine(line);
  };
  const splitter = new ByteLineSplitter(maxLine, (bytes, cut) => emitString(decodeLine(bytes, stats), cut), emitString);
  let utf16: Utf16Lines | undefined;
  let first = true;

  // One buffer, reused for every read: nothing keeps a view into it past push() (tails are
  // copied), and a 200 MB log then costs no pile of chunk buffers waiting for the GC.
  const buffer = Buffer.allocUnsafe(options.chunkSize ?? 1024 * 1024);
  const handle = await open(file, 'r');
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      let chunk = buffer.subarray(0, bytesRead);
      stats.bytes += bytesRead;
      if (first) {
        first = false;
        if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
        else if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)) {
          stats.encoding = chunk[0] === 0xff ? 'utf-16le' : 'utf-16be';
          utf16 = new Utf16Lines(stats.encoding, maxLine, emitString);
          chunk = chunk.subarray(2);
        }
      }
      if (utf16) utf16.push(chunk);
      else splitter.push(chunk);
    }
  } finally {
    await handle.close();
  }
  if (utf16) utf16.end();
  else splitter.end();
  return stats;
}

/** The UTF-16 path: decode to text first, then split the text the same way. */
class Utf16Lines {
  private readonly decoder = new StringDecoder('utf16le');
  private odd: Buffer | undefined;
  private partial = '';
  private skipping = false;
  private afterCr = false;

  constructor(
    private readonly encoding: 'utf-16le' | 'utf-16be',
    private readonly maxLine: number,
    private readonly emit: (line: string, cut: boolean) => void,
  ) {}

  push(chunk: Buffer): void {
    let bytes = chunk;
    if (this.encoding === 'utf-16be') {
      // Swap byte pairs into little-endian; an odd trailing byte waits for its partner.
      bytes = this.odd ? Buffer.concat([this.odd, chunk]) : Buffer.from(chunk);
      this.odd = bytes.length % 2 === 1 ? bytes.subarray(bytes.length - 1) : undefined;
      bytes = bytes.subarray(0, bytes.length - (bytes.length % 2));
      bytes.swap16();
    }
    this.text(this.decoder.write(bytes));
  }

  end(): void {
    this.text(this.decoder.end());
    if (!this.skipping && this.partial !== '') this.emit(this.partial, false);
  }

  private text(text: string): void {
    let start = 0;
    if (this.afterCr && text.length > 0) {
      this.afterCr = false;
      if (text[0] === '\n') start = 1;
    }
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      this.line(text.slice(start, i));
      start = i + 1;
      if (c === CR) {
        if (start < text.length && text.charCodeAt(start) === LF) {
          i++;
          start++;
        } else if (start === text.length) this.afterCr = true;
      }
    }
    if (this.skipping) return;
    this.partial += text.slice(start);
    if (this.partial.length > this.maxLine) {
      this.emit(this.partial.slice(0, this.maxLine), true);
      this.partial = '';
      this.skipping = true;
    }
  }

  private line(piece: string): void {
    if (this.skipping) {
      this.skipping = false;
      this.partial = '';
      return;
    }
    this.emit(this.partial + piece, false);
    this.partial = '';
  }
}
