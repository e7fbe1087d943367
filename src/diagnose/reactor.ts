/**
 * The reactor as the log shows it: modules in build order (`Building X`), their status
 * from the Reactor Summary, and the module folders the log names on the way (which
 * locate the project root of a log from another machine).
 */
import { toForwardSlashes } from './log-paths.js';
import type { ReactorModule } from './types.js';

const MAX_HINTS = 1_000;
const PROJECT_SEPARATOR = /^-+< ([^:\s]+):([^:\s]+) >-+$/;
const BUILDING = /^Building (.+?) (\S+?)(?:\s+\[(\d+)\/(\d+)\])?\s*$/;
const SUMMARY_ROW = /^(.+?) (?:\.+ |\.* ?)(SUCCESS|FAILURE|SKIPPED)\b/;
const BASEDIR_HINTS: readonly RegExp[] = [
  /^skip non existing resourceDirectory (.+)[\\/]src[\\/](?:main|test)[\\/]resources$/,
  /^Please refer to (.+)[\\/]target[\\/](?:surefire|failsafe)-reports for the individual test results/,
  /^Building jar: (.+)[\\/]target[\\/][^\\/]+\.jar$/,
  /^Deleting (.+)[\\/]target$/,
  /^Non-(?:parseable|readable) POM (.+)[\\/]pom\.xml/,
  /^The project \S+ \((.+)[\\/]pom\.xml\) has \d+ errors?/,
];

export type ReactorLine = 'module-start' | 'summary' | 'build-failure' | 'build-success' | undefined;

export class ReactorTracker {
  private readonly list: ReactorModule[] = [];
  private readonly basedirs = new Map<string, string>();
  readonly hints = new Set<string>();
  private pendingArtifactId: string | undefined;
  private inSummary = false;

  /** An INFO line: returns what it was when it was the reactor's own. */
  info(text: string): ReactorLine {
    const separator = PROJECT_SEPARATOR.exec(text);
    if (separator) {
      this.pendingArtifactId = separator[2];
      return 'summary';
    }
    const building = BUILDING.exec(text);
    if (building && (this.pendingArtifactId !== undefined || building[3] !== undefined)) {
      const name = building[1] ?? '';
      if (!this.list.some((m) => m.name === name && m.artifactId === this.pendingArtifactId)) {
        this.list.push({ name, ...(this.pendingArtifactId ? { artifactId: this.pendingArtifactId } : {}) });
      }
      this.pendingArtifactId = undefined;
      return 'module-start';
    }
    if (/^Reactor Summary/.test(text)) {
      this.inSummary = true;
      return 'summary';
    }
    if (/^BUILD (FAILURE|SUCCESS)/.test(text)) {
      this.inSummary = false;
      return text.startsWith('BUILD FAILURE') ? 'build-failure' : 'build-success';
    }
    if (this.inSummary) {
      const row = SUMMARY_ROW.exec(text);
      if (row) this.markSummaryRow(row[1] ?? '', row[2] as 'SUCCESS' | 'FAILURE' | 'SKIPPED');
      return 'summary';
    }
    return undefined;
  }

  markFailed(artifactId: string | undefined): void {
    if (!artifactId) return;
    const known = this.list.find((m) => m.artifactId === artifactId);
    if (known) known.status ??= 'FAILURE';
  }

  /** A line that names a module folder (INFO or ERROR), with the module running when known. */
  noteBasedir(text: string, module: string | undefined): void {
    if (
      this.hints.size >= MAX_HINTS ||
      !/^(?:skip non|Please refer|Building jar|Deleting|Non-|The project )/.test(text)
    )
      return;
    for (const pattern of BASEDIR_HINTS) {
      const m = pattern.exec(text);
      if (!m) continue;
      const dir = toForwardSlashes(m[1]!);
      this.hints.add(dir);
      if (module && !this.basedirs.has(module)) this.basedirs.set(module, dir);
      return;
    }
  }

  modules(): ReactorModule[] {
    return this.list.map((m) => ({ ...m }));
  }

  moduleBasedirs(): Record<string, string> {
    return Object.fromEntries(this.basedirs);
  }

  private markSummaryRow(label: string, status: 'SUCCESS' | 'FAILURE' | 'SKIPPED'): void {
    // Maven 3.9 prints "Name Version ....": match the longest known name the label starts with.
    const known = this.list
      .filter((m) => label === m.name || label.startsWith(m.name + ' '))
      .sort((a, b) => b.name.length - a.name.length)[0];
    if (known) known.status = status;
    else this.list.push({ name: label, status });
  }
}
