/**
 * Streams a log file into a line consumer in bounded memory: chunks are decoded
 * incrementally (invalid UTF-8 becomes U+FFFD instead of throwing) and an overlong
 * line is cut at `maxLineLength`, so a log without newlines cannot grow one string.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export interface ReadLogOptions {
  maxLineLength?: number;
  chunkSize?: number;
}

export interface ReadLogStats {
  bytes: number;
  lines: number;
  cutLines: number;
}

const DEFAULT_MAX_LINE = 64 * 1024;

export async function streamLogLines(
  file: string,
  onLine: (line: string) => void,
  options: ReadLogOptions = {},
): Promise<ReadLogStats> {
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
  const decoder = new StringDecoder('utf8');
  const stats: ReadLogStats = { bytes: 0, lines: 0, cutLines: 0 };
  let partial = '';
  let skippingRest = false;

  const emit = (line: string): void => {
    stats.lines++;
    onLine(line);
  };
  const take = (text: string): void => {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) break;
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (skippingRest) {
        skippingRest = false;
        partial = '';
        continue;
      }
      emit(partial === '' ? piece : partial + piece);
      partial = '';
    }
    if (skippingRest) return;
    partial += text.slice(start);
    if (partial.length > maxLine) {
      stats.cutLines++;
      emit(partial.slice(0, maxLine));
      partial = '';
      skippingRest = true;
    }
  };

  const stream = createReadStream(file, { highWaterMark: options.chunkSize ?? 1024 * 1024 });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    stats.bytes += chunk.length;
    take(decoder.write(chunk));
  }
  take(decoder.end());
  if (!skippingRest && partial !== '') emit(partial);
  return stats;
}
