/**
 * Environment variables and `--mvnx-*` flags that override config fields. One table
 * serves both: flag `edit-format` is env `MVNX_EDIT_FORMAT`. Each variable or flag
 * becomes its own layer so that an error, and `mvnx explain`, can name it exactly.
 */
import { MvnxError } from '../cli/errors.js';
import type { MvnxFlags } from '../cli/flags.js';
import { validateLayer } from './validate.js';
import type { Layer } from './merge.js';

type ValueKind = 'string' | 'number' | 'boolean';

interface Override {
  /** Flag name without `--mvnx-`; the env name is derived from it. */
  name: string;
  path: readonly string[];
  kind: ValueKind;
  /** For switches like `no-fix`: the config value set when the switch is on. */
  whenOn?: unknown;
}

/** Order matters within a layer kind: `no-fix` comes after `tier` so that it wins. */
export const OVERRIDES: readonly Override[] = [
  { name: 'tier', path: ['tier'], kind: 'string' },
  { name: 'no-fix', path: ['tier'], kind: 'boolean', whenOn: 'off' },
  { name: 'model', path: ['model', 'name'], kind: 'string' },
  { name: 'host', path: ['model', 'host'], kind: 'string' },
  { name: 'provider', path: ['model', 'provider'], kind: 'string' },
  { name: 'edit-format', path: ['model', 'editFormat'], kind: 'string' },
  { name: 'temperature', path: ['model', 'temperature'], kind: 'number' },
  { name: 'seed', path: ['model', 'seed'], kind: 'number' },
  { name: 'num-ctx', path: ['model', 'numCtx'], kind: 'number' },
  { name: 'model-timeout', path: ['model', 'timeoutSeconds'], kind: 'number' },
  { name: 'keep-alive', path: ['model', 'keepAlive'], kind: 'string' },
  { name: 'maven', path: ['maven', 'executable'], kind: 'string' },
  { name: 'offline', path: ['maven', 'offline'], kind: 'string' },
  { name: 'sandbox', path: ['sandbox', 'mode'], kind: 'string' },
  { name: 'max-attempts', path: ['budget', 'maxAttempts'], kind: 'number' },
  { name: 'max-model-calls', path: ['budget', 'maxModelCalls'], kind: 'number' },
  { name: 'max-wall-seconds', path: ['budget', 'maxWallSeconds'], kind: 'number' },
  { name: 'attempt-timeout', path: ['budget', 'perAttemptTimeoutSeconds'], kind: 'number' },
  { name: 'require-coverage', path: ['auto', 'requireCoverage'], kind: 'number' },
  { name: 'no-fixers', path: ['fixers', 'enabled'], kind: 'boolean', whenOn: false },
  { name: 'agent', path: ['agent', 'mode'], kind: 'boolean', whenOn: 'always' },
  { name: 'auto-apply-low-risk', path: ['assist', 'autoApplyLowRisk'], kind: 'boolean' },
];

export function envName(flagName: string): string {
  return `MVNX_${flagName.toUpperCase().replaceAll('-', '_')}`;
}

export function envLayers(env: NodeJS.ProcessEnv): Layer[] {
  const layers: Layer[] = [];
  for (const override of OVERRIDES) {
    const raw = env[envName(override.name)];
    if (raw === undefined || raw === '') continue;
    layers.push(toLayer(override, raw, `env ${envName(override.name)}`));
  }
  return layers;
}

export function flagLayers(flags: MvnxFlags): Layer[] {
  const layers: Layer[] = [];
  for (const override of OVERRIDES) {
    const raw = flags[override.name];
    if (raw === undefined) continue;
    const label = `flag --mvnx-${override.name}`;
    if (raw === true && override.kind !== 'boolean') throw new MvnxError(`Invalid ${label}: it needs a value (--mvnx-${override.name}=VALUE)`, 2);
    layers.push(toLayer(override, raw === true ? 'true' : raw, label));
  }
  return layers;
}

/** `OLLAMA_HOST` sits just above the defaults: any config file's `model.host` beats it. */
export function ollamaHostLayer(env: NodeJS.ProcessEnv): Layer[] {
  const raw = env.OLLAMA_HOST?.trim();
  if (!raw) return [];
  return [{ value: { model: { host: normalizeOllamaHost(raw) } }, source: 'env OLLAMA_HOST' }];
}

/** Ollama accepts `host`, `host:port` and URLs in OLLAMA_HOST; clients need a URL. */
export function normalizeOllamaHost(raw: string): string {
  const trimmed = raw.replace(/\/+$/, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return trimmed;
  return `http://${trimmed}${/:\d+$/.test(trimmed) ? '' : ':11434'}`;
}

function toLayer(override: Override, raw: string, label: string): Layer {
  const value = convert(override, raw, label);
  const layerValue: Record<string, unknown> = {};
  let cursor = layerValue;
  override.path.slice(0, -1).forEach((step) => {
    cursor[step] = {};
    cursor = cursor[step] as Record<string, unknown>;
  });
  cursor[override.path.at(-1)!] = value;
  validateLayer(layerValue, { label });
  return { value: layerValue, source: label };
}

function convert(override: Override, raw: string, label: string): unknown {
  switch (override.kind) {
    case 'string':
      return raw;
    case 'number': {
      const number = Number(raw);
      // Left as a string so that validation reports the value found and the type expected.
      return raw.trim() !== '' && Number.isFinite(number) ? number : raw;
    }
    case 'boolean': {
      const on = parseSwitch(raw, label);
      return override.whenOn === undefined ? on : on ? override.whenOn : undefined;
    }
  }
}

function parseSwitch(raw: string, label: string): boolean {
  const normalized = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalized)) return false;
  throw new MvnxError(`Invalid ${label}: found "${raw}", expected true or false (1/0, yes/no)`, 2);
}
