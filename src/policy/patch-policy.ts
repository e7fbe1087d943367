/**
 * The part of the config the patch stage validates against. `PatchPolicy` is defined
 * here with the shape agreed with the patch stage because src/patch did not export it
 * yet; when it does, this type should become a re-export of that one.
 */
import type { ChangeType } from '../patch/types.js';
import { effectiveProtectedGlobs } from './paths.js';
import type { ParsedConfig } from './schema.js';

export interface PatchPolicy {
  allowedChanges: ChangeType[];
  protectedPaths: string[];
  maxFilesTouched: number;
  maxLinesChanged: number;
  ignoreWhitespace: boolean;
  allowTabSpaceContext: boolean;
  allowNonUtf8: boolean;
}

export function toPatchPolicy(config: Pick<ParsedConfig, 'allowedChanges' | 'protectedPaths' | 'patch' | 'rules'>): PatchPolicy {
  return {
    allowedChanges: [...config.allowedChanges],
    protectedPaths: effectiveProtectedGlobs(config),
    maxFilesTouched: config.patch.maxFilesTouched,
    maxLinesChanged: config.patch.maxLinesChanged,
    ignoreWhitespace: config.patch.ignoreWhitespace,
    allowTabSpaceContext: config.patch.allowTabSpaceContext,
    allowNonUtf8: config.patch.allowNonUtf8,
  };
}
