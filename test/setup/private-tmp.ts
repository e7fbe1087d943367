/**
 * Every test run gets its own temp folder (TMPDIR, so os.tmpdir() in tests, in mvnx and in
 * the Maven builds they start), removed when the run ends: a test that forgets a folder, or
 * a killed mvnx child that could not clean up, leaves nothing in /tmp. Tests still remove
 * what they make (afterEach), so that one run does not pile up thousands of folders.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const outer = os.tmpdir();
  const dir = mkdtempSync(path.join(outer, 'mvnx-test-run-'));
  process.env.TMPDIR = dir;
  return () => {
    process.env.TMPDIR = outer;
    rmSync(dir, { recursive: true, force: true });
  };
}
