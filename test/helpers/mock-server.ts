/**
 * The faults the tests' model servers can script on top of a healthy reply, and a URL
 * where nothing listens. Test-only: the shipped server (src/bench/) answers as a healthy
 * server does and knows none of this.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReplySpec, ScriptedReply } from '../../src/bench/recording-server.js';

export interface MockReplySpec extends ReplySpec {
  /** Send an error line/event after this many pieces, then end the stream (still HTTP 200). */
  errorAfterChunks?: { after: number; message: string };
  /** Answer with this HTTP status and `{"error": errorMessage}` instead of a completion. */
  status?: number;
  errorMessage?: string;
  /** Accept the request and never answer it. */
  hang?: boolean;
}

export type MockScriptedReply = ScriptedReply<MockReplySpec>;

/** A reply that is a fault, not a completion. */
export function isFault(reply: MockReplySpec): boolean {
  return (
    reply.hang === true || (reply.status !== undefined && reply.status !== 200) || reply.errorAfterChunks !== undefined
  );
}

/** A URL where nothing listens: a port the OS just handed out and that was closed again. */
export async function deadServerUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
