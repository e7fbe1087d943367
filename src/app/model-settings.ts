/**
 * The model's settings from a team's config: the provider's (also what `mvnx doctor`
 * checks) and the guidelines text every prompt carries.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelSettings } from '../model/index.js';
import type { EffectiveConfig } from '../policy/index.js';

/** The provider settings of a config (also what `mvnx doctor` checks). */
export function modelSettings(config: EffectiveConfig, env: NodeJS.ProcessEnv): ModelSettings {
  const model = config.model;
  const apiKey = model.apiKeyEnv ? env[model.apiKeyEnv] : undefined;
  return {
    provider: model.provider,
    name: model.name,
    host: model.host,
    temperature: model.temperature,
    seed: model.seed,
    timeoutSeconds: model.timeoutSeconds,
    keepAlive: model.keepAlive,
    numCtx: model.numCtx ?? model.contextTokens,
    ...(apiKey ? { apiKey } : {}),
  };
}

export async function guidelinesText(config: EffectiveConfig): Promise<{ guidelines?: string }> {
  const guidelines = config.guidelines;
  if (!guidelines) return {};
  if (typeof guidelines === 'string') return { guidelines };
  const base = config.files[0] ? path.dirname(config.files[0]) : process.cwd();
  return { guidelines: await readFile(path.resolve(base, guidelines.file), 'utf8') };
}
