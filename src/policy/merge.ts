/**
 * Layered merge of config objects, recording which layer set each value.
 *
 * Semantics (docs/config.md): later layers win; objects merge key by key, deeply;
 * scalars and most lists are replaced whole; `rules` and `protectedPaths` append (base
 * first), so an extending config adds rules after its base's and can never silently drop
 * a protected path it inherited (duplicates are dropped).
 */

export interface Layer {
  /** Raw, already validated config values (no `extends`, no `$schema`). */
  value: Record<string, unknown>;
  /** Who set these values: `default`, a file path, `env MVNX_TIER`, `flag --mvnx-tier`. */
  source: string;
}

export interface Merged {
  value: Record<string, unknown>;
  /** Field path (`model.name`, `rules[2]`) -> source of its value. */
  sources: Record<string, string>;
}

const APPENDED_LISTS = new Set(['rules', 'protectedPaths']);
const DEDUPLICATED_LISTS = new Set(['protectedPaths']);
const IGNORED_KEYS = new Set(['extends', '$schema']);

export function mergeLayers(layers: readonly Layer[]): Merged {
  const merged: Merged = { value: {}, sources: {} };
  for (const layer of layers) mergeInto(merged.value, layer.value, '', merged.sources, layer.source);
  return merged;
}

function mergeInto(
  target: Record<string, unknown>,
  layer: Record<string, unknown>,
  prefix: string,
  sources: Record<string, string>,
  source: string,
): void {
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined || (prefix === '' && IGNORED_KEYS.has(key))) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (prefix === '' && APPENDED_LISTS.has(key) && Array.isArray(value)) {
      const list = Array.isArray(target[key]) ? (target[key] as unknown[]) : [];
      for (const item of value) {
        if (DEDUPLICATED_LISTS.has(key) && list.includes(item)) continue;
        sources[`${key}[${list.length}]`] = source;
        list.push(structuredClone(item));
      }
      target[key] = list;
    } else if (isPlainObject(value)) {
      if (!isPlainObject(target[key])) {
        forgetSourcesUnder(sources, path);
        target[key] = {};
      }
      mergeInto(target[key] as Record<string, unknown>, value, path, sources, source);
    } else {
      forgetSourcesUnder(sources, path);
      target[key] = structuredClone(value);
      sources[path] = source;
    }
  }
}

function forgetSourcesUnder(sources: Record<string, string>, path: string): void {
  for (const key of Object.keys(sources)) {
    if (key === path || key.startsWith(`${path}.`) || key.startsWith(`${path}[`)) delete sources[key];
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
