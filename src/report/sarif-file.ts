/**
 * Writing `--mvnx-sarif=FILE`: the folder is created; a log that cannot be written is one line, never a failed build.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeSarifFile(file: string, log: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(log, null, 2)}\n`);
}

/**
 * A log without results: for a passing build (code scanning then closes earlier alerts) or a failure mvnx did not look
 * at.
 */
export async function writeEmptySarif(file: string, note?: string): Promise<void> {
  const [{ emptySarif }, { toolVersion }] = await Promise.all([import('./sarif.js'), import('./tool-version.js')]);
  try {
    await writeSarifFile(file, emptySarif(await toolVersion(), note));
  } catch (error) {
    process.stderr.write(`mvnx: SARIF not written: ${(error as Error).message}\n`);
  }
}
