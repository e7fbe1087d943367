/**
 * Expands a config file's `extends` into an ordered list of layers, base first.
 * A base is a preset shipped in `policies/`, a file path relative to the extending file,
 * or an npm package resolved from the extending file's folder. Each base is applied once
 * (a diamond does not duplicate rules); a base that extends itself, directly or not, is a
 * cycle and an error listing the chain.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MvnxError } from '../shared/errors.js';
import type { ConfigReader, LoadedFile } from './config-discovery.js';
import { validateLayer } from './config-issues.js';
import { isPlainObject, type Layer } from './merge.js';

export const PRESET_NAMES = ['monitor', 'assist', 'auto', 'enterprise-tiered'] as const;

/** `policies/` next to `src/` and `dist/` alike: two folders up from this module. */
export const PRESETS_DIR = fileURLToPath(new URL('../../policies/', import.meta.url));

export function presetPath(name: string): string {
  return path.join(PRESETS_DIR, `${name}.yaml`);
}

export interface ExpandContext {
  reader: ConfigReader;
  displayPath: (filepath: string) => string;
}

export interface ExpandedFiles {
  layers: Layer[];
  files: string[];
}

/** Validates `file` and everything it extends; returns their layers, base first. */
export async function expandExtends(
  file: LoadedFile,
  sourceLabel: string,
  context: ExpandContext,
): Promise<ExpandedFiles> {
  const result: ExpandedFiles = { layers: [], files: [] };
  await visit(file, sourceLabel, [], new Set(), result, context);
  return result;
}

async function visit(
  file: LoadedFile,
  label: string,
  chain: string[],
  applied: Set<string>,
  result: ExpandedFiles,
  context: ExpandContext,
): Promise<void> {
  const displayed = context.displayPath(file.filepath);
  const origin = file.lineOf ? { label: displayed, lineOf: file.lineOf } : { label: displayed };
  if (!isPlainObject(file.value)) {
    throw new MvnxError(
      `Invalid config ${displayed}: found ${Array.isArray(file.value) ? 'a list' : typeof file.value}, expected a mapping of settings at the top level`,
      2,
    );
  }
  validateLayer(file.value, origin);
  const here = [...chain, file.filepath];
  const bases =
    file.value.extends === undefined
      ? []
      : Array.isArray(file.value.extends)
        ? file.value.extends
        : [file.value.extends];
  for (const [index, base] of (bases as string[]).entries()) {
    const target = resolveBase(
      base,
      file,
      Array.isArray(file.value.extends) ? ['extends', index] : ['extends'],
      context,
    );
    if (here.includes(target.filepath)) {
      const cycle = [...here, target.filepath].map((entry) => context.displayPath(entry)).join(' -> ');
      throw new MvnxError(`Invalid config ${displayed}: extends cycle: ${cycle}`, 2);
    }
    if (applied.has(target.filepath)) continue;
    const loaded = await context.reader.load(target.filepath, `extended by ${displayed}`);
    await visit(loaded, target.label, here, applied, result, context);
  }
  applied.add(file.filepath);
  result.files.push(file.filepath);
  result.layers.push({ value: resolveRelativeFields(file.value, path.dirname(file.filepath)), source: label });
}

function resolveBase(
  base: string,
  from: LoadedFile,
  fieldPath: (string | number)[],
  context: ExpandContext,
): { filepath: string; label: string } {
  if ((PRESET_NAMES as readonly string[]).includes(base))
    return { filepath: presetPath(base), label: `preset ${base}` };
  const dir = path.dirname(from.filepath);
  if (base.startsWith('.') || path.isAbsolute(base)) {
    const filepath = path.resolve(dir, base);
    return { filepath, label: context.displayPath(filepath) };
  }
  try {
    const filepath = createRequire(path.join(dir, 'mvnx-config.js')).resolve(base);
    return { filepath, label: `package ${base}` };
  } catch {
    const line = from.lineOf?.(fieldPath);
    const hint = existsSync(path.join(dir, base)) ? ` (for the file next to this config write "./${base}")` : '';
    throw new MvnxError(
      `Invalid config ${context.displayPath(from.filepath)}${line === undefined ? '' : `:${line}`}: extends: found "${base}", expected a preset (${PRESET_NAMES.join(', ')}), a relative file path or an installed npm package (none found from ${dir})${hint}`,
      2,
    );
  }
}

/** Paths inside a config are relative to that config's folder; make them absolute before layers mix. */
function resolveRelativeFields(value: Record<string, unknown>, dir: string): Record<string, unknown> {
  const resolved = { ...value };
  const guidelines = resolved.guidelines;
  if (isPlainObject(guidelines) && typeof guidelines.file === 'string')
    resolved.guidelines = { ...guidelines, file: path.resolve(dir, guidelines.file) };
  if (Array.isArray(resolved.plugins))
    resolved.plugins = resolved.plugins.map((plugin: string) =>
      plugin.startsWith('.') ? path.resolve(dir, plugin) : plugin,
    );
  return resolved;
}
