/** Where a file sits in the Maven layout (`src/main/java/`, `src/test/java/`). */

/** Where `source` root folders end in a Maven layout, e.g. `src/main/java/`. */
const SOURCE_ROOT = /(?:^|\/)src\/(main|test)\/java\//;

/** `main` or `test` from a root-relative path, when it follows the Maven layout. */
export function scopeOfPath(file: string): 'main' | 'test' | undefined {
  const match = SOURCE_ROOT.exec(file);
  return match ? (match[1] as 'main' | 'test') : undefined;
}

/** The package a file's folder implies in the Maven layout, or undefined outside it. */
export function packageImpliedByPath(file: string): string | undefined {
  const match = SOURCE_ROOT.exec(file);
  if (!match) return undefined;
  const folders = file
    .slice(match.index + match[0].length)
    .split('/')
    .slice(0, -1);
  return folders.join('.');
}
