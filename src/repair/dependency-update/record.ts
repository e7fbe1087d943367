/**
 * What a dependency-update analysis becomes outside the repair: the run record's
 * `dependencyUpdate`, the one console line, and the prompt's section (built from the
 * record alone, so the bench can rebuild the first prompt of a run that asked no model).
 */
import type { ContextPiece } from '../../model/prompts/index.js';
import type { DependencyUpdateRecord } from '../../report/run-record.js';
import type { Replacement } from './api-diff.js';
import { sameChange, type DependencyUpdateAnalysis, type ErrorDifference } from './analyse.js';
import type { DetectedChange } from './detect.js';

/** Lines of API difference per error in the prompt; the packer drops the piece's tail beyond the window. */
const MAX_LINES_PER_ERROR = 12;

export function describeReplacement(replacement: Replacement): string {
  switch (replacement.shape) {
    case 'moved-class':
      return `class moved: ${replacement.from} -> ${replacement.to}`;
    case 'moved-static-member':
      return `static member moved: ${replacement.fromClass}.${replacement.member} -> ${replacement.toClass}.${replacement.member}`;
    case 'field-to-accessor':
      return `field became a method: .${replacement.field} -> .${replacement.accessor}()`;
    case 'renamed-method':
      return `method renamed: ${replacement.from}(...) -> ${replacement.to}(...)`;
    case 'constructor-to-factory':
      return `constructor replaced by a factory: new ${replacement.owner}(...) -> ${replacement.owner}.${replacement.factory}(...)`;
  }
}

const coordinatesOf = (change: DetectedChange) =>
  `${change.groupId}:${change.artifactId} ${change.from} -> ${change.to}`;

export function dependencyUpdateRecord(analysis: DependencyUpdateAnalysis): DependencyUpdateRecord {
  const { change } = analysis;
  const all = [...analysis.errors, ...analysis.tests];
  const grouped = (analysis.updates ?? []).length > 1;
  const errorLine = (error: ErrorDifference) => `${error.site}: ${error.diagnostic.message}`;
  return {
    groupId: change.groupId,
    artifactId: change.artifactId,
    from: change.from,
    to: change.to,
    errors: all.map(errorLine),
    comparedWith: change.comparedWith,
    oldVersionLocal: analysis.oldApi !== undefined,
    ...(analysis.branchHint ? { branchHint: analysis.branchHint } : {}),
    ...(change.via ? { via: change.via } : {}),
    ...(change.previousRun ? { previousRun: change.previousRun } : {}),
    differences: all.map((error) => ({
      site: error.site,
      message: error.diagnostic.message,
      ...(error.failingLine ? { failingLine: error.failingLine } : {}),
      ...(error.method ? { method: error.method } : {}),
      lines: error.lines,
      ...(error.replacement ? { quickFix: describeReplacement(error.replacement) } : {}),
      ...(grouped && error.change ? { dependency: coordinatesOf(error.change) } : {}),
    })),
    ...(grouped
      ? {
          updates: analysis.updates!.map(({ change: update }) => ({
            groupId: update.groupId,
            artifactId: update.artifactId,
            from: update.from,
            to: update.to,
            ...(update.via ? { via: update.via } : {}),
            errors: all.filter((error) => error.change && sameChange(error.change, update)).map(errorLine),
          })),
        }
      : {}),
  };
}

export function dependencyUpdateLine(record: DependencyUpdateRecord): string {
  const count = record.errors.length;
  const places = (n: number) => `${n} ${n === 1 ? 'place' : 'places'}`;
  const lead = record.updates?.[0]?.errors.length ?? count;
  const through = record.via ? ` through the ${record.via}` : '';
  const others = (record.updates ?? [])
    .slice(1)
    .map(
      (update) =>
        `; ${update.groupId}:${update.artifactId} ${update.from} -> ${update.to} broke ${places(update.errors.length)}`,
    )
    .join('');
  return `dependency update: ${record.groupId}:${record.artifactId} ${record.from} -> ${record.to}${through} (against ${record.comparedWith}) broke ${places(lead)}${others}${record.oldVersionLocal ? '' : `; ${record.from} is not in the local repository, the difference lists ${record.to}'s members`}`;
}

/** The prompt's section: for each error, the failing line, its method and the API difference (the shape Byam uses). */
export function dependencyUpdatePiece(record: DependencyUpdateRecord): ContextPiece {
  const bumps = record.updates ?? [record];
  const header = [
    bumps.length > 1
      ? `The build broke after ${bumps.length} dependencies were updated together: ${bumps.map((u) => `${u.groupId}:${u.artifactId} from ${u.from} to ${u.to}`).join(', ')}${record.via ? ` (through the ${record.via})` : ''}. Each error names the one whose API it uses.`
      : `The build broke after the dependency ${record.groupId}:${record.artifactId} was updated from ${record.from} to ${record.to}${record.via ? ` (through the ${record.via})` : ''}.`,
    'Change the client code to the new API (do not change the version back). "-" lines are gone in the new version, "+" lines are new, "?" lines are replacement candidates, best first.',
  ];
  const blocks = record.differences.map((difference) =>
    [
      `error: ${difference.site}: ${difference.message}${difference.dependency ? ` (${difference.dependency})` : ''}`,
      ...(difference.failingLine ? [`failing line: ${difference.failingLine}`] : []),
      ...(difference.method ? [`in: ${difference.method}`] : []),
      ...difference.lines.slice(0, MAX_LINES_PER_ERROR),
    ].join('\n'),
  );
  return {
    text: [...header, '', ...blocks.flatMap((block) => [block, ''])].join('\n').trimEnd(),
    tier: 'primary',
    score: 1000,
    heading: `API difference ${record.artifactId} ${record.from} -> ${record.to}`,
    label: `dependency update ${record.groupId}:${record.artifactId}`,
    reason: 'dependency update',
  };
}
