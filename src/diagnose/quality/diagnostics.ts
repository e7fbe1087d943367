/**
 * Quality findings -> `quality` diagnostics with project files: a path the tool printed
 * relative to its module is joined to the module folder, an absolute one made relative
 * to the project root, and a class name looked up in the module's sources. A gate that
 * failed without naming any file still becomes one diagnostic: a formatter's can be
 * fixed without a location (its own formatter goal rewrites the files); another's cannot.
 */
import { diagnosticFingerprint } from '../fingerprint.js';
import { joinRelative, relativeToRoot, toForwardSlashes } from '../log-paths.js';
import { truncate } from '../text.js';
import type { Diagnostic, QualityFailure, QualityFinding } from '../types.js';
import { QUALITY_TOOLS, fixGoalFor } from './tools.js';

export interface QualityInput {
  findings: QualityFinding[];
  failures: QualityFailure[];
  /** The project root as the log (and the reports) name it. */
  logRoot: string;
  /** Root-relative folder of a module (artifactId), when known. */
  moduleDir(module: string | undefined): string | undefined;
  /** Root-relative file of a class in a module's sources, when it exists. */
  classFile?(moduleDir: string, className: string, sourceFile?: string): string | undefined;
}

/** Where a class's source lives, by Maven's layout: main sources first, then test sources. */
export function classSourceCandidates(moduleDir: string, className: string, sourceFile?: string): string[] {
  const outer = className.split('$')[0]!;
  const dot = outer.lastIndexOf('.');
  const packagePath = dot === -1 ? '' : outer.slice(0, dot).replace(/\./g, '/');
  const name = sourceFile ?? `${outer.slice(dot + 1)}.java`;
  const rel = packagePath === '' ? name : `${packagePath}/${name}`;
  return [joinRelative(moduleDir, 'src/main/java', rel), joinRelative(moduleDir, 'src/test/java', rel)];
}

function fileOf(finding: QualityFinding, input: QualityInput, moduleDir: string): string | undefined {
  if (finding.file !== undefined) {
    if (finding.fileBase === 'module')
      return joinRelative(moduleDir, toForwardSlashes(finding.file).replace(/^\.\//, ''));
    return input.logRoot === '' ? toForwardSlashes(finding.file) : relativeToRoot(finding.file, input.logRoot);
  }
  if (finding.className === undefined) return undefined;
  return (
    input.classFile?.(moduleDir, finding.className, finding.sourceFile) ??
    classSourceCandidates(moduleDir, finding.className, finding.sourceFile)[0]
  );
}

export function qualityDiagnostics(input: QualityInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const covered = new Set<string>();
  for (const finding of input.findings) {
    const moduleDir = input.moduleDir(finding.module) ?? '';
    const file = fileOf(finding, input, moduleDir);
    const failure = input.failures.find(
      (f) => f.tool === finding.tool && (finding.module === undefined || f.module === finding.module),
    );
    const d: Diagnostic = {
      kind: 'quality',
      category: 'quality',
      fixable: true,
      message: truncate(finding.message.trim(), 500),
      ...(file ? { file } : {}),
      ...(finding.line !== undefined ? { line: finding.line } : {}),
      ...(finding.column !== undefined ? { column: finding.column } : {}),
      ...(finding.module ? { module: finding.module } : {}),
      tool: finding.tool,
      ...(finding.rule ? { rule: finding.rule } : {}),
      ...(failure ? { goal: failure.goal } : {}),
      fingerprint: '',
    };
    d.fingerprint = diagnosticFingerprint(d);
    const key = `${d.tool}\u0000${d.file ?? ''}\u0000${d.line ?? ''}\u0000${d.rule ?? ''}\u0000${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    covered.add(`${finding.tool}\u0000${finding.module ?? ''}`);
    out.push(d);
  }
  for (const failure of input.failures) {
    if (
      covered.has(`${failure.tool}\u0000${failure.module ?? ''}`) ||
      [...covered].some((k) => k === `${failure.tool}\u0000`)
    )
      continue;
    out.push(unlocatedFailure(failure));
  }
  return out;
}

function unlocatedFailure(failure: QualityFailure): Diagnostic {
  const formatter = fixGoalFor(failure.goal, failure.tool) !== undefined;
  const report = QUALITY_TOOLS.find((spec) => spec.tool === failure.tool)?.report;
  const d: Diagnostic = {
    kind: 'quality',
    category: 'quality',
    fixable: formatter,
    message: truncate(failure.message.replace(/\s*-> \[Help \d+\]\s*$/, '').trim() || `${failure.tool} failed`, 500),
    ...(failure.module ? { module: failure.module } : {}),
    tool: failure.tool,
    goal: failure.goal,
    ...(formatter
      ? {}
      : {
          reason: `${failure.tool} failed the build but neither the log nor ${report ? `target/${report}` : 'a report'} names a file and line; re-run without -q${report ? ` or keep target/${report}` : ''} so mvnx can see the findings`,
        }),
    fingerprint: '',
  };
  d.fingerprint = diagnosticFingerprint(d);
  return d;
}
