/**
 * The project root of a log from another machine. The log never prints it, but it
 * prints module folders (`skip non existing resourceDirectory /r/core/src/main/resources`,
 * `Please refer to /r/core/target/surefire-reports`) and source files (`/r/core/src/main/
 * java/A.java`): the root is the deepest folder that holds all of them. With a single
 * module that is the module folder, which is the root of a single-module project.
 * Diagnostics read before the root was known are rebased onto it here.
 */
import { diagnosticFingerprint } from './fingerprint.js';
import { isWindowsPath, relativeToRoot, relativisePathsIn, toForwardSlashes } from './log-paths.js';
import type { Diagnostic } from './types.js';

/** `/r/core/src/main/java/A.java` -> `/r/core`: the folder before the last `/src/`. */
export function moduleDirOfSource(file: string): string {
  const forward = toForwardSlashes(file);
  const at = forward.lastIndexOf('/src/');
  return at > 0 ? forward.slice(0, at) : forward.slice(0, Math.max(0, forward.lastIndexOf('/')));
}

/** The deepest common folder of absolute folders (forward slashes); '' when there are none or no common one. */
export function inferLogRoot(folders: Iterable<string>): string {
  let common: string[] | undefined;
  for (const folder of folders) {
    const forward = toForwardSlashes(folder).replace(/\/+$/, '');
    if (!/^(?:[A-Za-z]:\/|\/)/.test(forward)) continue;
    const parts = forward.split('/');
    if (common === undefined) {
      common = parts;
      continue;
    }
    let i = 0;
    while (i < common.length && i < parts.length && common[i]!.toLowerCase() === parts[i]!.toLowerCase()) i++;
    common = common.slice(0, i);
  }
  if (!common || common.length === 0) return '';
  const root = common.join('/');
  return root === '' ? '/' : root;
}

/** A Windows log whose paths have no drive (`\work\app\...`) gets the root's drive, when the root has one. */
export function rootedLike(file: string, root: string): string {
  if (/^\\(?!\\)/.test(file) && /^[A-Za-z]:/.test(root)) return `${root.slice(0, 2)}${file}`;
  return file;
}

/** A diagnostic read against no root, made relative to the root found later. */
export function rebaseDiagnostic(d: Diagnostic, root: string): Diagnostic {
  if (root === '') return { ...d };
  const out: Diagnostic = { ...d, message: relativisePathsIn(d.message, root) };
  if (d.reason !== undefined) out.reason = relativisePathsIn(d.reason, root);
  if (d.file !== undefined && (d.file.startsWith('/') || isWindowsPath(d.file)))
    out.file = relativeToRoot(rootedLike(d.file, root), root);
  out.fingerprint = diagnosticFingerprint(out);
  return out;
}
