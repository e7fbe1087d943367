// Types for scripts/eslint-type-only.mjs, so that its test is type-checked.
import type { Linter } from 'eslint';

export const TYPE_ONLY_FILES: readonly string[];
export const typeOnlyImports: Linter.Config;
