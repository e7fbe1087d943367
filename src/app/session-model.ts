/**
 * The session's model: the provider its config names, behind the run's redaction, and the
 * log of every request it makes (busy servers are waited for within the run's wall-time
 * budget; each wait and skipped host is one console line).
 */
import { createProvider, ModelTraffic, withRedaction, type Redactor } from '../model/index.js';
import type { EffectiveConfig } from '../policy/index.js';
import { modelSettings } from './model-settings.js';

export function wireModel(input: {
  config: EffectiveConfig;
  env: NodeJS.ProcessEnv;
  redactor: Redactor;
  note: (line: string) => void;
  /** What is left of the run's wall-time budget, in milliseconds. */
  runRemainingMs: () => number;
}) {
  const settings = modelSettings(input.config, input.env);
  const traffic = new ModelTraffic(input.note);
  const provider = withRedaction(
    createProvider(settings, {
      traffic,
      runRemainingMs: input.runRemainingMs,
      coolDownMs: input.config.model.coolDownSeconds * 1000,
    }),
    input.redactor,
  );
  return { settings, traffic, provider };
}
