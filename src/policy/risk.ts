/**
 * How risky a verified patch is. High: a risky change type, a large patch, or code that
 * gains a capability (process execution, JVM exit, network, file writes, reflection,
 * native code, Unicode escapes; see capabilities.ts) whatever its size. Low: only
 * source edits, within the low limits and, by default, touching nothing but log,
 * comment, import, blank or string-literal lines. Everything else is medium.
 */
import type { ChangeSet, ChangeType } from '../patch/types.js';
import { countChangedLines } from '../patch/classify.js';
import { addedCapabilities } from './capabilities.js';
import { lineChangesOf, nonTrivialChanges } from './changed-lines.js';
import type { RiskConfig, Risk } from './schema.js';

export interface RiskAssessment {
  risk: Risk;
  reasons: string[];
}

const SOURCE_EDITS: readonly ChangeType[] = ['edit-main-source', 'edit-test-source'];

export function assessRisk(
  changeSet: ChangeSet,
  changeTypes: readonly ChangeType[],
  config: { risk: RiskConfig },
): RiskAssessment {
  const { risk } = config;
  const counted = countChangedLines(changeSet);
  const lines = counted.added + counted.removed;
  const files = changeSet.files.length;
  const size = `${lines} line${lines === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`;

  const high: string[] = [];
  for (const type of changeTypes)
    if (risk.highChangeTypes.includes(type)) high.push(`change type ${type} is high risk (risk.highChangeTypes)`);
  if (lines > risk.highMinLines) high.push(`${size}: more than risk.highMinLines (${risk.highMinLines})`);
  if (files > risk.highMinFiles) high.push(`${files} files: more than risk.highMinFiles (${risk.highMinFiles})`);
  for (const capability of addedCapabilities(changeSet)) high.push(`adds ${capability.name} (${capability.where})`);
  if (high.length > 0) return { risk: 'high', reasons: high };

  const notLow: string[] = [];
  const otherTypes = changeTypes.filter((type) => !SOURCE_EDITS.includes(type));
  if (otherTypes.length > 0) notLow.push(`change types other than source edits: ${otherTypes.join(', ')}`);
  if (lines > risk.lowMaxLines) notLow.push(`${size}: more than risk.lowMaxLines (${risk.lowMaxLines})`);
  if (files > risk.lowMaxFiles) notLow.push(`${files} files: more than risk.lowMaxFiles (${risk.lowMaxFiles})`);
  if (risk.lowRequiresTrivialLines) {
    const substantive = changeSet.files.flatMap((file) =>
      nonTrivialChanges(lineChangesOf(file)).map((line) => `${file.path}: ${line.trim()}`),
    );
    if (substantive.length > 0)
      notLow.push(`changes code, not only log/comment/import/string-literal lines (e.g. ${truncate(substantive[0]!)})`);
  }
  if (notLow.length > 0) return { risk: 'medium', reasons: notLow };
  return {
    risk: 'low',
    reasons: [
      `${size}, source edits only${risk.lowRequiresTrivialLines ? ', only log/comment/import/string-literal lines' : ''}`,
    ],
  };
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
