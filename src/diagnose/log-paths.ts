/**
 * Path logic for logs written on any platform. A log from Windows names files as
 * `C:\work\proj\src\A.java`; one from Linux as `/work/proj/src/A.java`. The flavour is
 * chosen from the path itself, never from the platform mvnx runs on.
 */
import path from 'node:path';

export function isWindowsPath(p: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

export function toForwardSlashes(p: string): string {
  return p.replace(/\\/g, '/');
}

/**
 * `file` relative to `root`, with forward slashes. A file outside the root keeps its
 * absolute form (forward slashes) so that it is never mistaken for a project file.
 */
export function relativeToRoot(file: string, root: string): string {
  const windows = isWindowsPath(file) || isWindowsPath(root);
  const flavour = windows ? path.win32 : path.posix;
  const normalisedRoot = flavour.normalize(windows ? root : toForwardSlashes(root));
  const normalisedFile = flavour.normalize(windows ? file : toForwardSlashes(file));
  if (!flavour.isAbsolute(normalisedFile)) {
    const rel = toForwardSlashes(normalisedFile).replace(/^\.\//, '').replace(/\/$/, '');
    return rel === '.' ? '' : rel;
  }
  const rel = flavour.relative(normalisedRoot, normalisedFile);
  if (rel === '') return '';
  if (rel.startsWith('..') || flavour.isAbsolute(rel)) return toForwardSlashes(normalisedFile);
  return toForwardSlashes(rel);
}

/** The longest module folder (root-relative, forward slashes) that contains `relFile`. */
export function owningModuleDir(relFile: string, moduleDirs: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const dir of moduleDirs) {
    const inside = dir === '' || relFile === dir || relFile.startsWith(dir + '/');
    if (inside && (best === undefined || dir.length > best.length)) best = dir;
  }
  return best;
}

/** Joins root-relative forward-slash segments without producing `//` or a leading `/`. */
export function joinRelative(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}

/** Rewrites absolute paths under `root` inside free text to root-relative ones. */
export function relativisePathsIn(text: string, root: string): string {
  const trimmedRoot = root.replace(/[\\/]+$/, '');
  if (trimmedRoot === '' || !text.includes(trimmedRoot)) return text;
  const escaped = trimmedRoot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`${escaped}(?:[\\\\/]|(?=[\\s:)'"]|$))`, 'g'), '');
}
