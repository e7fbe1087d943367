/**
 * The one reading of a model server address, for the flag, MVNX_HOST, config
 * `model.host` and OLLAMA_HOST alike. Ollama itself reads OLLAMA_HOST this way: no scheme
 * means http, no port means 11434, a bare `:PORT` means the loopback address.
 */

/** Ollama's port, which a host written without one means. */
export const OLLAMA_DEFAULT_PORT = '11434';

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * `gpu-box` -> `http://gpu-box:11434`, `gpu-box:8080` -> `http://gpu-box:8080`,
 * `:11500` -> `http://127.0.0.1:11500`; a URL keeps its scheme and port (trailing slashes
 * dropped). An OpenAI-compatible server has no port of its own, so a bare host for it
 * keeps the scheme's default port. Idempotent: a normalised host comes back unchanged.
 */
export function normaliseHost(host: string, provider: 'ollama' | 'openai-compatible' = 'ollama'): string {
  let value = host.trim().replace(/\/+$/, '');
  if (SCHEME.test(value)) return value;
  if (value.startsWith(':')) value = `127.0.0.1${value}`;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    // Not a host at all: left for validation to name, with the scheme a client would add.
    return `http://${value}`;
  }
  // Read from the text: URL drops a port that is the scheme's default (`gpu-box:80`).
  const authority = value.split('/')[0] ?? '';
  const portGiven = /:\d+$/.test(authority);
  if (!portGiven && provider === 'ollama') url.port = OLLAMA_DEFAULT_PORT;
  return url.toString().replace(/\/+$/, '');
}

/**
 * `model.host` may list several servers (a YAML list, or commas in the flag and variables):
 * each read like one host, in order, empty entries dropped. Failover, not load balancing:
 * the model layer asks the first that is not cooling down.
 */
export function splitHosts(value: string, provider: 'ollama' | 'openai-compatible' = 'ollama'): string[] {
  return value
    .split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '')
    .map((host) => normaliseHost(host, provider));
}

/** The one text form of a host list: each host normalised, joined with commas (one host stays as it was). */
export function normaliseHosts(value: string, provider: 'ollama' | 'openai-compatible' = 'ollama'): string {
  const hosts = splitHosts(value, provider);
  return hosts.length > 0 ? hosts.join(',') : normaliseHost(value, provider);
}
