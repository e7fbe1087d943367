/**
 * A fix.patch and run record made elsewhere (another job, `mvnx publish --from DIR`) or about to be pushed onto a
 * bot's branch, checked again rather than trusted: the patch applies to the commit it is pushed on, what it makes of
 * the files has the verified attempt's fingerprint, it touches no path the policy protects, nothing on the test side
 * and no build-time code (patch/push-guard.ts). Reads git objects only; builds and runs nothing.
 */
import { fingerprintChangeSet } from '../../patch/index.js';
import { pushRefusals } from '../../patch/push-guard.js';
import { protectionOf, type PathPolicy } from '../../policy/paths.js';
import type { RunRecord } from '../run-record.js';
import { patchedFiles, type GitPlace } from './git-branch.js';
import { fixFingerprint, verifiedAttempt } from './publish-text.js';

export type Revalidation = { ok: true; files: string[] } | { ok: false; reasons: string[] };

export async function revalidateFix(input: {
  place: GitPlace;
  /** The commit the fix goes on top of. */
  base: string;
  patch: Buffer;
  record: RunRecord;
  /** The fix's modules from the checkout's POMs (fix-modules.ts), never the record's own `fixModules`. */
  modules: readonly string[];
  policy: PathPolicy;
}): Promise<Revalidation> {
  const { record } = input;
  const fingerprint = fixFingerprint(record);
  if (record.status !== 'fixed' || !fingerprint)
    return { ok: false, reasons: [`run ${record.runId} has no verified fix (status ${record.status})`] };
  const testEdits = verifiedAttempt(record)?.failingTestEdits ?? [];
  const reasons: string[] = [];
  if (testEdits.length > 0) reasons.push(`the fix edits the failing test (${testEdits.join('; ')})`);
  let files: Awaited<ReturnType<typeof patchedFiles>>;
  try {
    files = await patchedFiles(input.place, input.base, input.patch);
  } catch (error) {
    return { ok: false, reasons: [...reasons, (error as Error).message] };
  }
  if (files.length === 0) return { ok: false, reasons: [...reasons, 'the patch changes nothing'] };
  const changeSet = { files };
  const actual = fingerprintChangeSet(changeSet);
  if (actual !== fingerprint)
    reasons.push(
      `the patch is not the verified fix: on ${input.base.slice(0, 12)} it makes fingerprint ${actual.slice(0, 12)}, the record says ${fingerprint.slice(0, 12)}`,
    );
  const claimed = [...(verifiedAttempt(record)?.filesChanged ?? [])].sort();
  const actualFiles = files.map((file) => file.path).sort();
  if (JSON.stringify(claimed) !== JSON.stringify(actualFiles))
    reasons.push(`the patch changes ${actualFiles.join(', ')}; the record says ${claimed.join(', ') || 'nothing'}`);
  for (const file of files) {
    const protection = protectionOf(file.path, input.modules, input.policy);
    if (protection.protected) reasons.push(protection.reason ?? `${file.path} is protected`);
  }
  reasons.push(...pushRefusals(changeSet));
  return reasons.length > 0 ? { ok: false, reasons } : { ok: true, files: files.map((file) => file.path) };
}
