import { describe, expect, it } from 'vitest';
import { readSseData } from '../../src/model/sse.js';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const data of readSseData(stream)) out.push(data);
  return out;
}

describe('readSseData', () => {
  it('joins events split across chunks, even inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('data: {"c":"é"}\n\ndata: [DONE]\n\n');
    const split = 13; // between the two bytes of é
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split));
        controller.enqueue(bytes.slice(split));
        controller.close();
      },
    });
    expect(await collect(stream)).toEqual(['{"c":"é"}', '[DONE]']);
  });

  it('ignores comments and other fields, joins multi-line data, accepts CRLF and a missing final blank line', async () => {
    expect(await collect(streamOf(': ping\r\n\r\nevent: message\r\ndata: a\r\ndata: b\r\n\r\nid: 7\ndata:c'))).toEqual([
      'a\nb',
      'c',
    ]);
  });

  it('yields nothing for an empty body', async () => {
    expect(await collect(streamOf())).toEqual([]);
  });
});
