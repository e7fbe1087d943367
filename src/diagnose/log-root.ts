/**
 * The project root of a log from another machine. The log never prints it, but it
 * prints module folders (`skip non existing resourceDirectory /r/core/src/main/resources`,
 * `Please refer to /r/core/target/surefire-reports`) and source files (`/r/core/src/main/
 * java/A.java`): the root is the deepest folder that holds all of them. With a single
 * module that is the module folder, which is the root of a single-module project.
 */
import { toForwardSlashes } from './paths.js';

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
