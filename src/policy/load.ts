/**
 * The effective config: defaults, bases, the project's config file, environment and
 * flags merged in that order, validated by the schema, each value remembering its source.
 *
 * Precedence, lowest first (also in docs/config.md):
 *   1. defaults (src/policy/schema.ts)
 *   2. OLLAMA_HOST (model.host only: the contract puts it below any config's model.host)
 *   3. bases named in `extends` (presets, files, npm packages), base first
 *   4. the config file: `--mvnx-config` / MVNX_CONFIG, else the nearest one found from the
 *      project root up to the git root
 *   5. environment variables: MVNX_TIER, MVNX_MODEL, MVNX_HOST, MVNX_MAVEN, ... (overrides.ts)
 *   6. flags: --mvnx-tier, --mvnx-no-fix (tier off), --mvnx-model, --mvnx-host, ...
 */
import path from 'node:path';
import { MvnxError } from '../shared/errors.js';
import { normaliseHosts } from '../shared/host.js';
import type { OptionValues } from '../shared/options.js';
import { findGitRoot } from '../maven/project.js';
import { ConfigReader } from './config-discovery.js';
import { expandExtends } from './extends.js';
import { mergeLayers, type Layer } from './merge.js';
import { envLayers, flagLayers, ollamaHostLayer } from './overrides.js';
import { configSchema, DEFAULT_MODEL_HOST, type EffectiveConfig } from './schema.js';
import { describeIssues, formatPath } from './config-issues.js';

export type { Tier, EffectiveConfig } from './schema.js';

export interface LoadConfigOptions {
  /** Folder of the top pom (or cwd when there is none). */
  projectRoot: string;
  /** `--mvnx-config=FILE`, resolved against cwd. */
  configFile?: string;
  env: NodeJS.ProcessEnv;
  /** Options given on the command line: option name (src/shared/options.ts) -> value. */
  overrides?: OptionValues;
}

export async function loadEffectiveConfig(options: LoadConfigOptions): Promise<EffectiveConfig> {
  const projectRoot = path.resolve(options.projectRoot);
  const displayPath = (filepath: string): string => {
    const relative = path.relative(projectRoot, filepath);
    return relative && !relative.startsWith('..') && !path.isAbsolute(relative)
      ? relative.split(path.sep).join('/')
      : filepath;
  };
  const reader = new ConfigReader((await findGitRoot(projectRoot)) ?? projectRoot, displayPath);

  const explicit = options.configFile ?? (options.env.MVNX_CONFIG || undefined);
  const origin = options.configFile ? 'from --mvnx-config' : 'from MVNX_CONFIG';
  const file = explicit ? await reader.load(explicit, origin) : await reader.search(projectRoot);
  const expanded = file
    ? await expandExtends(file, displayPath(file.filepath), { reader, displayPath })
    : { layers: [], files: [] };

  const layers: Layer[] = [
    { value: configSchema.parse({}), source: 'default' },
    ...ollamaHostLayer(options.env),
    ...expanded.layers,
    ...envLayers(options.env),
    ...flagLayers(options.overrides ?? {}),
  ];
  const merged = mergeLayers(layers);
  const parsed = configSchema.safeParse(merged.value);
  if (!parsed.success) {
    // Each layer was valid alone, so this is a combination problem: blame the field's source.
    const source = merged.sources[formatPath(parsed.error.issues[0]!.path)] ?? 'the merged config';
    throw new MvnxError(describeIssues(parsed.error.issues, merged.value, { label: source }), 2);
  }
  const { $schema: _schema, extends: _extends, ...config } = parsed.data;
  checkBudgetCaps(config.budget, merged.sources);

  const sources = merged.sources;
  if (config.model.host === undefined) sources['model.host'] = 'default';
  return {
    ...config,
    // One reading of a host for every source: `gpu-box` is http://gpu-box:11434 for Ollama.
    model: { ...config.model, host: normaliseHosts(config.model.host ?? DEFAULT_MODEL_HOST, config.model.provider) },
    sources,
    files: expanded.files,
  };
}

function checkBudgetCaps(budget: EffectiveConfig['budget'], sources: Record<string, string>): void {
  for (const key of ['maxAttempts', 'maxModelCalls', 'maxWallSeconds', 'perAttemptTimeoutSeconds'] as const) {
    if (budget.hardCap[key] < budget[key]) {
      throw new MvnxError(
        `Invalid config ${sources[`budget.${key}`] ?? 'default'}: budget.${key}: found ${budget[key]}, expected at most budget.hardCap.${key} (${budget.hardCap[key]}, from ${sources[`budget.hardCap.${key}`] ?? 'default'})`,
        2,
      );
    }
  }
}
