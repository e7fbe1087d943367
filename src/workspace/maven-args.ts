/**
 * Verification's side of Maven's command line: path options rebased into the workspace.
 * The option table and the reader live in maven/ (facts.ts, args.ts); they are re-exported
 * here for the workspace's callers.
 */
import path from 'node:path';
import { formatMavenArgs, MavenArgsError, parseMavenArgs } from '../maven/args.js';

export {
  formatMavenArgs,
  goalsOf,
  hasOption,
  MavenArgsError,
  parseMavenArgs,
  propertyName,
  propertyValue,
  type MavenArg,
} from '../maven/args.js';
export { MAVEN_OPTIONS, type MavenOptionSpec, type OptionRole } from '../maven/facts.js';

/**
 * Points the file options (`-f`, `-s`, `-gs`, `-t`, `-gt`) that name something inside
 * `fromRoot` at the same place under `toRoot`. Relative values are resolved against `cwd`
 * (where the user ran Maven) first, so every path option comes out absolute and the
 * workspace run does not depend on its own working directory. Paths outside the project
 * stay where they are. Everything else is returned untouched and in order.
 */
export function rebaseArgs(
  args: readonly string[],
  fromRoot: string,
  toRoot: string,
  cwd: string = fromRoot,
): string[] {
  if (!path.isAbsolute(fromRoot) || !path.isAbsolute(toRoot)) {
    throw new MavenArgsError(
      `rebaseArgs needs absolute roots, got ${JSON.stringify(fromRoot)} and ${JSON.stringify(toRoot)}`,
    );
  }
  return parseMavenArgs(args).flatMap((arg) => {
    if (arg.type !== 'option' || arg.spec?.role !== 'path' || arg.value === undefined || arg.value === '')
      return formatMavenArgs([arg]);
    const rebased = rebasePath(path.resolve(cwd, arg.value), fromRoot, toRoot);
    return arg.tokens.length === 2 ? [arg.tokens[0]!, rebased] : [`--${arg.spec.long}=${rebased}`];
  });
}

export function rebasePath(absolute: string, fromRoot: string, toRoot: string): string {
  const relative = path.relative(path.resolve(fromRoot), absolute);
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  const inside = !outside;
  return inside ? path.join(toRoot, relative) : absolute;
}
