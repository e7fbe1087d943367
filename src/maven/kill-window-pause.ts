/**
 * A TEST HOOK, not a feature and not part of the contract: it lets the fault-injection tests
 * (test/integration/kill-windows.test.ts) stop a real mvnx between two steps that a `kill -9`
 * can fall between (a record written but not yet renamed, a temp folder made but not yet
 * marked) and kill it there, which no timing from outside can hit reliably.
 *
 * It acts only when BOTH variables are set: `MVNX_TEST_PAUSE_AT` names one of the points
 * below exactly and `MVNX_TEST_PAUSE_FILE` names a file. At that point, the first time it is
 * reached, mvnx writes its pid and the point's name into the file and then blocks (the whole
 * process, nothing else runs) for up to 60 s before going on. With either variable unset,
 * or naming anything else, it costs one comparison.
 */
import { writeFileSync } from 'node:fs';

export const PAUSE_AT_VARIABLE = 'MVNX_TEST_PAUSE_AT';
export const PAUSE_FILE_VARIABLE = 'MVNX_TEST_PAUSE_FILE';

export type KillWindow =
  /** `run.json.<pid>.tmp` written, not yet renamed to run.json. */
  | 'run-record-rename'
  /** run.json renamed into place, the run folder's owner marker not yet removed. */
  | 'run-record-owner'
  /** `latest.<pid>.tmp` written, not yet renamed to `latest`. */
  | 'latest-rename'
  /** A workspace container (`mvnx-ws-*`) made in TMPDIR, its owner marker not yet written. */
  | 'workspace-marker'
  /** A reused-outputs folder (`mvnx-outputs-*`) made, not yet marked. */
  | 'outputs-marker'
  /** A log spool (`mvnx-log-*`) made, not yet marked. */
  | 'log-marker';

const PAUSE_MS = 60_000;
const reached = new Set<KillWindow>();

/** Blocks here when a test asked for this point (see above); otherwise returns at once. */
export function pauseForKillTest(point: KillWindow, env: NodeJS.ProcessEnv = process.env): void {
  if (env[PAUSE_AT_VARIABLE] !== point || !env[PAUSE_FILE_VARIABLE] || reached.has(point)) return;
  reached.add(point);
  writeFileSync(env[PAUSE_FILE_VARIABLE], `${process.pid} ${point}\n`);
  // Synchronous on purpose: no timer, stream or promise of this process moves while the test kills it.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PAUSE_MS);
}
