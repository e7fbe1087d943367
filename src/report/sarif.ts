/**
 * `--mvnx-sarif=FILE`: the diagnostics as SARIF 2.1.0 results and, for a verified fix,
 * SARIF `fixes` (artifactChanges with replacements), so that GitHub code scanning and
 * other SARIF viewers show them. Pure; the CLI writes the file.
 */
import type { Diagnostic } from '../diagnose/types.js';
import type { ChangeSet } from '../patch/types.js';
import { lineChangesOf, splitLines, type LineChange } from './line-changes.js';
import type { RunRecord } from './run-record.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** Where result paths are relative to: the repository root (GitHub resolves it to the checkout). */
export const SRCROOT = '%SRCROOT%';

type Json = Record<string, unknown>;

export interface SarifInput {
  record: RunRecord;
  /** The verified fix, when there is one. */
  fix?: ChangeSet;
  /** The project root relative to the repository root ('' when they are the same), forward slashes. */
  prefix: string;
  toolVersion: string;
}

const RULES: Record<string, string> = {
  compile: 'The Java compiler reported an error.',
  test: 'A test failed.',
  quality: 'A quality gate failed (checkstyle, PMD, spotbugs, forbiddenapis, a formatter or a license check).',
  'dependency-resolution': 'A dependency could not be resolved.',
  'plugin-resolution': 'A Maven plugin could not be resolved.',
  enforcer: 'The Maven enforcer rejected the build.',
  'jvm-crash': 'The JVM crashed or ran out of memory.',
  timeout: 'The build timed out.',
  interrupted: 'The build was interrupted.',
  'pom-invalid': 'A pom.xml is missing or invalid.',
  'java-version': 'The build compiles for a Java release the JDK running Maven does not support.',
  'unknown-lifecycle': 'An unknown lifecycle phase or goal was named.',
  unknown: 'The build failed for a reason mvnx could not classify.',
};

const ruleId = (diagnostic: Diagnostic) => `mvnx/${diagnostic.category ?? diagnostic.kind}`;
const inRepo = (prefix: string, file: string) => (prefix ? `${prefix}/${file}` : file);

function artifact(prefix: string, file: string): Json {
  return { uri: inRepo(prefix, file), uriBaseId: SRCROOT };
}

function resultMessage(diagnostic: Diagnostic): string {
  const head = diagnostic.test ? `${diagnostic.test}: ${diagnostic.message}` : diagnostic.message;
  const details = (diagnostic.details ?? []).map((line) => line.trim()).filter(Boolean);
  return [
    head || 'build failure',
    ...details,
    ...(diagnostic.fixable ? [] : diagnostic.reason ? [`Not fixable by a code patch: ${diagnostic.reason}`] : []),
  ].join('\n');
}

/** A replacement of whole lines: the region runs from the first replaced line to the start of the line after. */
function replacement(change: LineChange, before: string): Json {
  const file = splitLines(before);
  const count = file.lines.length;
  const text = (lines: string[]) => lines.map((line) => `${line}${file.eol}`).join('');
  const endsFile = change.endLine >= count && !file.finalEol;
  if (change.removed.length === 0 && change.startLine > count && !file.finalEol && count > 0) {
    // After a last line without a terminator: the new lines go after its last character.
    const last = file.lines[count - 1]!;
    return {
      deletedRegion: { startLine: count, startColumn: last.length + 1, endLine: count, endColumn: last.length + 1 },
      insertedContent: { text: `${file.eol}${change.added.join(file.eol)}` },
    };
  }
  if (endsFile && change.removed.length > 0) {
    const last = file.lines[count - 1]!;
    return {
      deletedRegion: { startLine: change.startLine, startColumn: 1, endLine: count, endColumn: last.length + 1 },
      insertedContent: { text: change.added.join(file.eol) },
    };
  }
  return {
    deletedRegion: { startLine: change.startLine, startColumn: 1, endLine: change.endLine + 1, endColumn: 1 },
    insertedContent: { text: text(change.added) },
  };
}

function fixOf(input: SarifInput): Json | undefined {
  const { fix, record, prefix } = input;
  if (!fix || record.status !== 'fixed') return undefined;
  const verified = record.attempts.find((attempt) => attempt.outcome === 'verified');
  const by =
    verified?.source === 'fixer'
      ? `the quick-fix ${verified.fixer ?? ''}`.trim()
      : verified?.source === 'agent'
        ? 'an agent session'
        : 'the code model';
  const artifactChanges = fix.files
    .filter((file) => !file.binary && file.after !== null)
    .map((file) => {
      const before = file.before ?? '';
      const changes =
        file.before === null
          ? [{ path: file.path, startLine: 1, endLine: 0, removed: [], added: splitLines(file.after!).lines }]
          : lineChangesOf(file.path, before, file.after!);
      return {
        artifactLocation: artifact(prefix, file.path),
        replacements: changes.map((change) => replacement(change, before)),
      };
    })
    .filter((change) => change.replacements.length > 0);
  if (artifactChanges.length === 0) return undefined;
  return {
    description: {
      text: `Verified by mvnx run ${record.runId} (${by}): the build passed in an isolated workspace with this change. Risk ${record.risk ?? 'unknown'}; tier ${record.tier} ${record.applied ? 'applied it' : record.action === 'suggest' ? 'suggests it' : 'recorded it'}.`,
    },
    artifactChanges,
  };
}

export function buildSarif(input: SarifInput): Json {
  const { record, prefix } = input;
  const diagnostics = record.diagnostics ?? [];
  const fix = fixOf(input);
  const fixFiles = new Set(input.fix?.files.map((file) => file.path) ?? []);
  // The fix goes on the results in the files it changes; when it changes none of them
  // (a test fails, the main code is fixed), on the first result.
  const withFix = new Set(
    diagnostics
      .map((diagnostic, index) => (diagnostic.file && fixFiles.has(diagnostic.file) ? index : -1))
      .filter((index) => index >= 0),
  );
  if (fix && withFix.size === 0 && diagnostics.length > 0) withFix.add(0);

  const results = diagnostics.map((diagnostic, index) => ({
    ruleId: ruleId(diagnostic),
    level: 'error',
    message: { text: resultMessage(diagnostic) },
    // Code scanning needs a location: a failure without a file belongs to the build, so to pom.xml.
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifact(prefix, diagnostic.file ?? 'pom.xml'),
          ...(diagnostic.file && diagnostic.line
            ? {
                region: {
                  startLine: diagnostic.line,
                  ...(diagnostic.column ? { startColumn: diagnostic.column } : {}),
                },
              }
            : { region: { startLine: 1 } }),
        },
      },
    ],
    partialFingerprints: { 'mvnxDiagnostic/v1': diagnostic.fingerprint },
    ...(fix && withFix.has(index) ? { fixes: [fix] } : {}),
    properties: {
      kind: diagnostic.kind,
      fixable: diagnostic.fixable,
      ...(diagnostic.module ? { module: diagnostic.module } : {}),
    },
  }));
  const usedRules = [...new Set(diagnostics.map((diagnostic) => diagnostic.category ?? diagnostic.kind))];
  return sarifLog(input.toolVersion, results, usedRules, {
    exitCode: record.mavenExitCode,
    properties: {
      runId: record.runId,
      tier: record.tier,
      status: record.status,
      stopReason: record.stopReason,
      applied: record.applied,
    },
  });
}

/** A log with no results: a passing build (so code scanning closes earlier alerts), or a run mvnx did not diagnose. */
export function emptySarif(toolVersion: string, note?: string): Json {
  return sarifLog(toolVersion, [], [], note ? { notification: note } : {});
}

function sarifLog(
  version: string,
  results: Json[],
  ruleNames: string[],
  invocation: { exitCode?: number; properties?: Json; notification?: string },
): Json {
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mvnx',
            version,
            informationUri: 'https://www.npmjs.com/package/mvnx',
            rules: ruleNames.map((name) => ({
              id: `mvnx/${name}`,
              name,
              shortDescription: { text: RULES[name] ?? 'The build failed.' },
            })),
          },
        },
        automationDetails: { id: 'mvnx/' },
        invocations: [
          {
            executionSuccessful: true,
            ...(invocation.exitCode !== undefined ? { exitCode: invocation.exitCode } : {}),
            ...(invocation.notification
              ? { toolExecutionNotifications: [{ level: 'note', message: { text: invocation.notification } }] }
              : {}),
            ...(invocation.properties ? { properties: invocation.properties } : {}),
          },
        ],
        results,
      },
    ],
  };
}
