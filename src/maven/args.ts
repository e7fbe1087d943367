/** What mvnx needs to know from Maven's own arguments, read without changing them. */
import { statSync } from 'node:fs';
import path from 'node:path';

/** Maven's short options that start with -f but are not -f FILE. */
const FAIL_OPTIONS = new Set(['-fae', '-ff', '-fn']);

/** The value of the last `-f`/`--file` option (Maven lets a later one win), if any. */
export function fileArgument(mavenArgs: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < mavenArgs.length; i++) {
    const arg = mavenArgs[i]!;
    if ((arg === '-f' || arg === '--file') && i + 1 < mavenArgs.length) value = mavenArgs[++i];
    else if (arg.startsWith('--file=')) value = arg.slice('--file='.length);
    else if (arg.startsWith('-f') && arg.length > 2 && !FAIL_OPTIONS.has(arg)) value = arg.slice(2);
  }
  return value === '' ? undefined : value;
}

/** Where Maven starts: the `-f` target's folder (the target itself when it is a folder), else cwd. */
export function startFolder(cwd: string, mavenArgs: readonly string[]): string {
  const target = fileArgument(mavenArgs);
  if (target === undefined) return path.resolve(cwd);
  const absolute = path.resolve(cwd, target);
  // Synchronous, like the other stats before Maven starts (see discover.ts). A missing -f
  // target is Maven's error to report; start beside where it would be.
  try {
    if (statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) return absolute;
  } catch {
    // ENOTDIR, EACCES: not a folder we can start in either.
  }
  return path.dirname(absolute);
}
