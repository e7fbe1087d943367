/**
 * After a published fix's request is merged or closed, its `mvnx/fix-*` branch goes, unless the forge removed it
 * (GitHub's "Automatically delete head branches", GitLab's remove_source_branch on a merge) or someone pushed to it
 * since: the branch is deleted only while its tip is the commit mvnx pushed.
 */
import path from 'node:path';
import { findGitRoot } from '../../maven/project.js';
import type { RunRecord } from '../run-record.js';
import type { ForgeTarget } from './forge.js';
import { deleteBranch, remoteTip } from './git-branch.js';

/** True when the branch was deleted here; false when it was gone or moved on. */
export async function removeFixBranch(
  projectRoot: string,
  target: ForgeTarget,
  publication: NonNullable<RunRecord['publication']>,
): Promise<boolean> {
  const root = await findGitRoot(projectRoot);
  if (!root || !publication.commit) return false;
  const place = { root, prefix: path.relative(root, projectRoot).split(path.sep).join('/') };
  const tip = await remoteTip(place, target.pushUrl, publication.branch, target.auth);
  if (!tip || tip !== publication.commit) return false;
  await deleteBranch(place, target.pushUrl, publication.branch, target.auth);
  return true;
}
