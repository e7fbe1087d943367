// Types for scripts/import-graph.mjs, so that its test is type-checked.
export function importGraph(dir: string): Map<string, string[]>;
export function findImportCircles(dir: string): string[][];
export function describeCircles(circles: readonly (readonly string[])[]): string;
