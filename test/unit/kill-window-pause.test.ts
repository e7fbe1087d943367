/**
 * The kill-window test hook (src/maven/kill-window-pause.ts) must never act by accident: only with both variables set
 * and the point named exactly. Its positive side (it blocks, a test kills mvnx there) is
 * test/integration/kill-windows.test.ts.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { pauseForKillTest } from '../../src/maven/kill-window-pause.js';
import { tempDir } from '../helpers/temp-dir.js';

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

it('does nothing unless MVNX_TEST_PAUSE_AT names this point and MVNX_TEST_PAUSE_FILE is set', async () => {
  const file = path.join(await tempDir('mvnx-pause-'), 'paused');
  const started = Date.now();
  pauseForKillTest('run-record-rename', {});
  pauseForKillTest('run-record-rename', { MVNX_TEST_PAUSE_AT: 'run-record-rename' });
  pauseForKillTest('run-record-rename', { MVNX_TEST_PAUSE_FILE: file });
  pauseForKillTest('run-record-rename', { MVNX_TEST_PAUSE_AT: 'latest-rename', MVNX_TEST_PAUSE_FILE: file });
  pauseForKillTest('run-record-rename', { MVNX_TEST_PAUSE_AT: 'RUN-RECORD-RENAME', MVNX_TEST_PAUSE_FILE: file });
  pauseForKillTest('run-record-rename', { MVNX_TEST_PAUSE_AT: '1', MVNX_TEST_PAUSE_FILE: file });
  expect(Date.now() - started).toBeLessThan(1000);
  expect(await exists(file)).toBe(false);
});
