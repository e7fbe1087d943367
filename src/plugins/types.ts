/**
 * What a plugin is: an npm package or a local module whose default export (or export
 * `plugin`) is an `MvnxPlugin`. Plugins run inside mvnx with its rights, so only the
 * config files a team already trusts can name them.
 */
import type { DiagnosticParser } from '../diagnose/index.js';
import type { AgentTool } from '../repair/agent/types.js';
import type { Fixer } from '../repair/fixers/types.js';
import type { RunRecord } from '../report/run-record.js';

export interface ReporterContext {
  projectRoot: string;
  /** The run's folder, `.mvnx/runs/<id>/`. */
  recordDir: string;
}

/** Told about every failed build mvnx handled, after run.json is written. */
export interface RunReporter {
  name: string;
  report(record: RunRecord, context: ReporterContext): void | Promise<void>;
}

export interface MvnxPlugin {
  name: string;
  version?: string;
  description?: string;
  /** Quick-fixes, tried with the built-in ones (most confident first) before the model. */
  fixers?: Fixer[];
  reporters?: RunReporter[];
  /** Tools for agent mode, offered to the model next to read_range and the others. */
  tools?: AgentTool[];
  /** Log parsers: they read every log line (and the reports they name) and return diagnostics (docs/plugins.md). */
  parsers?: DiagnosticParser[];
}

export interface LoadedPlugin {
  /** As the config names it: a package name or an absolute path. */
  specifier: string;
  /** The module file that was imported. */
  file: string;
  plugin: MvnxPlugin;
}

export interface LoadedPlugins {
  plugins: LoadedPlugin[];
  fixers: Fixer[];
  tools: AgentTool[];
  parsers: DiagnosticParser[];
  reporters: { plugin: string; reporter: RunReporter }[];
  /** What a plugin brings that this mvnx does not use, one line each. */
  notes: string[];
}
