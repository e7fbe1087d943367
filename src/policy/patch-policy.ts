/** The part of the config the patch stage validates against. */
import type { PatchPolicy } from '../patch/patch-policy.js';
import { effectiveProtectedGlobs } from './paths.js';
import type { ParsedConfig } from './schema.js';

export type { PatchPolicy };

export function toPatchPolicy(
  config: Pick<ParsedConfig, 'allowedChanges' | 'protectedPaths' | 'patch' | 'rules'>,
): PatchPolicy {
  return {
    allowedChanges: [...config.allowedChanges],
    protectedPaths: effectiveProtectedGlobs(config),
    maxFilesTouched: config.patch.maxFilesTouched,
    maxLinesChanged: config.patch.maxLinesChanged,
    ignoreWhitespace: config.patch.ignoreWhitespace,
    allowTabSpaceContext: config.patch.allowTabSpaceContext,
    allowNonUtf8: config.patch.allowNonUtf8,
    maxFileBytes: config.patch.maxFileBytes,
    maxChangeSetBytes: config.patch.maxChangeSetBytes,
    maxLineLength: config.patch.maxLineLength,
  };
}
