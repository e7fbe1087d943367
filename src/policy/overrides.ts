/**
 * Environment variables and `--mvnx-*` flags that override config fields, as layers.
 * Which option sets which field is the option table's (src/shared/options.ts); each
 * variable or flag becomes its own layer so that an error, and `mvnx explain`, can name it.
 */
import { MvnxError } from '../shared/errors.js';
import { normaliseHost } from '../shared/host.js';
import {
  configOptions,
  envName,
  flagName,
  parseSwitch,
  type OptionSpec,
  type OptionValues,
} from '../shared/options.js';
import { validateLayer } from './config-issues.js';
import type { Layer } from './merge.js';

type ConfigOption = OptionSpec & { config: string };

export function envLayers(env: NodeJS.ProcessEnv): Layer[] {
  const layers: Layer[] = [];
  for (const option of configOptions()) {
    const raw = env[envName(option.name)];
    if (raw === undefined || raw === '') continue;
    layers.push(toLayer(option, raw, `env ${envName(option.name)}`));
  }
  return layers;
}

/** Options given on the command line (a plain record: option name -> value, true for a bare switch). */
export function flagLayers(values: OptionValues): Layer[] {
  const layers: Layer[] = [];
  for (const option of configOptions()) {
    const raw = values[option.name];
    if (raw === undefined) continue;
    const label = `flag ${flagName(option.name)}`;
    if (raw === true && option.kind !== 'switch')
      throw new MvnxError(`Invalid ${label}: it needs a value (${flagName(option.name)}=VALUE)`);
    layers.push(toLayer(option, raw === true ? 'true' : raw, label));
  }
  return layers;
}

/** `OLLAMA_HOST` sits just above the defaults: any config file's `model.host` beats it. */
export function ollamaHostLayer(env: NodeJS.ProcessEnv): Layer[] {
  const raw = env.OLLAMA_HOST?.trim();
  if (!raw) return [];
  // Ollama's own variable, read as Ollama reads it, whatever provider the config names.
  return [{ value: { model: { host: normaliseHost(raw, 'ollama') } }, source: 'env OLLAMA_HOST' }];
}

function toLayer(option: ConfigOption, raw: string, label: string): Layer {
  const value = convert(option, raw, label);
  const layerValue: Record<string, unknown> = {};
  const path = option.config.split('.');
  let cursor = layerValue;
  path.slice(0, -1).forEach((step) => {
    cursor[step] = {};
    cursor = cursor[step] as Record<string, unknown>;
  });
  cursor[path.at(-1)!] = value;
  validateLayer(layerValue, { label });
  return { value: layerValue, source: label };
}

function convert(option: ConfigOption, raw: string, label: string): unknown {
  switch (option.kind) {
    case 'string':
      return raw;
    case 'number': {
      const number = Number(raw);
      // Left as a string so that validation reports the value found and the type expected.
      return raw.trim() !== '' && Number.isFinite(number) ? number : raw;
    }
    case 'switch': {
      const on = parseSwitch(raw);
      if (on === undefined)
        throw new MvnxError(`Invalid ${label}: found "${raw}", expected true or false (1/0, yes/no)`);
      return option.whenOn === undefined ? on : on ? option.whenOn : undefined;
    }
  }
}
