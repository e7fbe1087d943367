/**
 * The model layer's entry: build the provider the settings ask for. Redaction is a
 * separate wrapper (withRedaction) so that it applies to any provider alike.
 */
import { OllamaProvider } from './ollama-provider.js';
import { OpenAiCompatibleProvider } from './openai-provider.js';
import type { ModelProvider, ModelSettings } from './types.js';
import { splitHosts } from '../shared/host.js';
import type { TransportOptions } from './transport.js';

export type {
  ChatMessage,
  ChatRequest,
  ChatResult,
  ModelProvider,
  ModelSettings,
  ToolCall,
  ToolCallingSupport,
  ToolSpec,
} from './types.js';
export { ModelCallError, ProviderUnavailableError, type ModelCallErrorCode } from './errors.js';
export { OllamaProvider } from './ollama-provider.js';
export { OpenAiCompatibleProvider } from './openai-provider.js';
export { redact, withRedaction, Redactor, REDACTED, type RedactionOptions } from './redact.js';
export { normaliseHost } from '../shared/host.js';
export { promptWindow, CHARS_PER_TOKEN, charsForTokens, tokensForChars } from './context-window.js';
export { secretEnvValues, isSecretEnvName, valueForms, base64Forms } from './secret-values.js';

export { ModelTraffic, type ModelLoadRecord, type ModelRequestRecord } from './traffic.js';
export type { BusyWait } from './busy-retry.js';

export interface ProviderOptions extends TransportOptions {
  /** Deadline of the health check; the default keeps provider-unavailable under 5 s. */
  healthTimeoutMs?: number;
}

export function createProvider(settings: ModelSettings, options: ProviderOptions = {}): ModelProvider {
  validateSettings(settings);
  const normalised = { ...settings, host: splitHosts(settings.host, settings.provider).join(',') };
  switch (settings.provider) {
    case 'ollama':
      return new OllamaProvider(normalised, options);
    case 'openai-compatible':
      return new OpenAiCompatibleProvider(normalised, options);
    default:
      throw new Error(
        `model.provider must be "ollama" or "openai-compatible", got ${JSON.stringify((settings as { provider: unknown }).provider)}`,
      );
  }
}

function validateSettings(settings: ModelSettings): void {
  if (!settings.name?.trim()) throw new Error('model.name must name a model, e.g. qwen2.5-coder:7b');
  const hosts = splitHosts(settings.host ?? '', settings.provider);
  if (hosts.length === 0)
    throw new Error(`model.host must be a URL such as http://127.0.0.1:11434, got ${JSON.stringify(settings.host)}`);
  for (const host of hosts) {
    let url: URL;
    try {
      url = new URL(host);
    } catch {
      throw new Error(`model.host must be a URL such as http://127.0.0.1:11434, got ${JSON.stringify(host)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`model.host must be an http or https URL, got ${JSON.stringify(host)}`);
  }
  if (!(settings.timeoutSeconds > 0))
    throw new Error(`model.timeoutSeconds must be positive, got ${settings.timeoutSeconds}`);
  if (settings.numCtx !== undefined && !(Number.isInteger(settings.numCtx) && settings.numCtx > 0)) {
    throw new Error(`model.numCtx must be a positive integer, got ${settings.numCtx}`);
  }
}
