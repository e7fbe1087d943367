/** What loading a config's plugins gives the repair: each plugin, and its parts collected by kind. */
import type { AgentTool, DiagnosticParser, Fixer, IntegrityRule, MvnxPlugin, RunReporter } from './contracts.js';

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
  /** For the integrity check (repair/integrity/): run after mvnx's own rules. */
  integrityRules: IntegrityRule[];
  /** What a plugin brings that this mvnx does not use, one line each. */
  notes: string[];
}
