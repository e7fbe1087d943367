// Types for scripts/eslint-layers.mjs, so that its test is type-checked.
import type { Rule } from 'eslint';

export const LAYERS: readonly (readonly string[])[];
export const TYPE_ONLY_EXCEPTIONS: readonly { from: string; to: string }[];
export const layersRule: Rule.RuleModule;
declare const plugin: { rules: { layers: Rule.RuleModule } };
export default plugin;
