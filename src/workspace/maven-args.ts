/**
 * Maven's command line as data: which tokens are options (and which of those take a
 * value), which are goals. Verification rewrites the user's command (other goals, other
 * module selection, paths into the workspace), so it must know exactly where each option
 * ends; guessing would turn `-pl app verify` into the goals `app verify`.
 *
 * Maven parses its command line with commons-cli: a value-taking short option takes the
 * next token (`-pl app`) or the rest of its own token (`-Dx=1`, `-T1C`, `-Pci`); a long
 * option takes `--name value` or `--name=value`.
 */
import path from 'node:path';

export type OptionRole =
  /** Reactor selection: replaced when verification picks its own modules. */
  | 'selection'
  /** A file the option names: rebased into the workspace. */
  | 'path'
  | 'property'
  /** Redirects Maven's output away from the capture verification reads. */
  | 'log-file'
  | 'other';

export interface MavenOptionSpec {
  short?: string;
  long: string;
  takesValue: boolean;
  role: OptionRole;
}

/** Maven 3.8/3.9 options (`mvn --help`). */
export const MAVEN_OPTIONS: readonly MavenOptionSpec[] = [
  { short: 'am', long: 'also-make', takesValue: false, role: 'selection' },
  { short: 'amd', long: 'also-make-dependents', takesValue: false, role: 'selection' },
  { short: 'pl', long: 'projects', takesValue: true, role: 'selection' },
  { short: 'rf', long: 'resume-from', takesValue: true, role: 'selection' },
  { short: 'N', long: 'non-recursive', takesValue: false, role: 'other' },
  { short: 'f', long: 'file', takesValue: true, role: 'path' },
  { short: 's', long: 'settings', takesValue: true, role: 'path' },
  { short: 'gs', long: 'global-settings', takesValue: true, role: 'path' },
  { short: 't', long: 'toolchains', takesValue: true, role: 'path' },
  { short: 'gt', long: 'global-toolchains', takesValue: true, role: 'path' },
  { short: 'l', long: 'log-file', takesValue: true, role: 'log-file' },
  { short: 'D', long: 'define', takesValue: true, role: 'property' },
  { short: 'P', long: 'activate-profiles', takesValue: true, role: 'other' },
  { short: 'T', long: 'threads', takesValue: true, role: 'other' },
  { short: 'b', long: 'builder', takesValue: true, role: 'other' },
  { long: 'color', takesValue: true, role: 'other' },
  { short: 'emp', long: 'encrypt-master-password', takesValue: true, role: 'other' },
  { short: 'ep', long: 'encrypt-password', takesValue: true, role: 'other' },
  { short: 'B', long: 'batch-mode', takesValue: false, role: 'other' },
  { short: 'C', long: 'strict-checksums', takesValue: false, role: 'other' },
  { short: 'c', long: 'lax-checksums', takesValue: false, role: 'other' },
  { short: 'cpu', long: 'check-plugin-updates', takesValue: false, role: 'other' },
  { short: 'e', long: 'errors', takesValue: false, role: 'other' },
  { short: 'fae', long: 'fail-at-end', takesValue: false, role: 'other' },
  { short: 'ff', long: 'fail-fast', takesValue: false, role: 'other' },
  { short: 'fn', long: 'fail-never', takesValue: false, role: 'other' },
  { short: 'h', long: 'help', takesValue: false, role: 'other' },
  { short: 'llr', long: 'legacy-local-repository', takesValue: false, role: 'other' },
  { short: 'npr', long: 'no-plugin-registry', takesValue: false, role: 'other' },
  { short: 'npu', long: 'no-plugin-updates', takesValue: false, role: 'other' },
  { short: 'nsu', long: 'no-snapshot-updates', takesValue: false, role: 'other' },
  { short: 'ntp', long: 'no-transfer-progress', takesValue: false, role: 'other' },
  { short: 'o', long: 'offline', takesValue: false, role: 'other' },
  { short: 'q', long: 'quiet', takesValue: false, role: 'other' },
  { short: 'U', long: 'update-snapshots', takesValue: false, role: 'other' },
  { short: 'up', long: 'update-plugins', takesValue: false, role: 'other' },
  { short: 'v', long: 'version', takesValue: false, role: 'other' },
  { short: 'V', long: 'show-version', takesValue: false, role: 'other' },
  { short: 'X', long: 'debug', takesValue: false, role: 'other' },
];

const BY_SHORT = new Map(MAVEN_OPTIONS.filter((o) => o.short).map((o) => [o.short!, o]));
const BY_LONG = new Map(MAVEN_OPTIONS.map((o) => [o.long, o]));
/** Longest first, so `-pla` reads as `-pl a` and never as an unknown `-p`. */
const VALUE_SHORTS = MAVEN_OPTIONS.filter((o) => o.short && o.takesValue)
  .map((o) => o.short!)
  .sort((a, b) => b.length - a.length);

export type MavenArg =
  | { type: 'goal'; value: string }
  | {
      type: 'option';
      /** Undefined for options this table does not know (kept as flags, in place). */
      spec?: MavenOptionSpec;
      /** The exact tokens as given: one (`-o`, `-Dx=1`) or two (`-pl app`). */
      tokens: string[];
      value?: string;
    };

export class MavenArgsError extends Error {
  override name = 'MavenArgsError';
}

export function parseMavenArgs(args: readonly string[]): MavenArg[] {
  const parsed: MavenArg[] = [];
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (typeof token !== 'string') throw new MavenArgsError(`Maven argument ${i} is not a string`);
    if (!token.startsWith('-') || token === '-') {
      parsed.push({ type: 'goal', value: token });
      continue;
    }
    const { spec, joinedValue } = lookUp(token);
    if (!spec?.takesValue) {
      parsed.push({ type: 'option', ...(spec ? { spec } : {}), tokens: [token] });
    } else if (joinedValue !== undefined) {
      parsed.push({ type: 'option', spec, tokens: [token], value: joinedValue });
    } else {
      const value = args[i + 1];
      if (value === undefined) throw new MavenArgsError(`Maven option ${token} needs a value, but it is the last argument`);
      parsed.push({ type: 'option', spec, tokens: [token, value], value });
      i++;
    }
  }
  return parsed;
}

function lookUp(token: string): { spec?: MavenOptionSpec; joinedValue?: string } {
  if (token.startsWith('--')) {
    const body = token.slice(2);
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const spec = BY_LONG.get(name);
    if (!spec) return {};
    return eq < 0 || !spec.takesValue ? { spec } : { spec, joinedValue: body.slice(eq + 1) };
  }
  const body = token.slice(1);
  const exact = BY_SHORT.get(body);
  if (exact) return { spec: exact };
  const prefix = VALUE_SHORTS.find((s) => body.startsWith(s));
  return prefix ? { spec: BY_SHORT.get(prefix)!, joinedValue: body.slice(prefix.length) } : {};
}

export function formatMavenArgs(parsed: readonly MavenArg[]): string[] {
  return parsed.flatMap((arg) => (arg.type === 'goal' ? [arg.value] : arg.tokens));
}

export function goalsOf(parsed: readonly MavenArg[]): string[] {
  return parsed.flatMap((arg) => (arg.type === 'goal' ? [arg.value] : []));
}

export function hasOption(parsed: readonly MavenArg[], long: string): boolean {
  return parsed.some((arg) => arg.type === 'option' && arg.spec?.long === long);
}

/** The name of a `-D` property: `skipTests` for `-DskipTests` and `-DskipTests=true`. */
export function propertyName(arg: MavenArg): string | undefined {
  if (arg.type !== 'option' || arg.spec?.role !== 'property' || arg.value === undefined) return undefined;
  const eq = arg.value.indexOf('=');
  return eq < 0 ? arg.value : arg.value.slice(0, eq);
}

export function propertyValue(parsed: readonly MavenArg[], name: string): string | undefined {
  let found: string | undefined;
  for (const arg of parsed) {
    if (propertyName(arg) !== name || arg.type !== 'option') continue;
    const eq = arg.value!.indexOf('=');
    // `-Dflag` alone means true to Maven.
    found = eq < 0 ? 'true' : arg.value!.slice(eq + 1);
  }
  return found;
}

/**
 * Points the file options (`-f`, `-s`, `-gs`, `-t`, `-gt`) that name something inside
 * `fromRoot` at the same place under `toRoot`. Relative values are resolved against `cwd`
 * (where the user ran Maven) first, so every path option comes out absolute and the
 * workspace run does not depend on its own working directory. Paths outside the project
 * stay where they are. Everything else is returned untouched and in order.
 */
export function rebaseArgs(args: readonly string[], fromRoot: string, toRoot: string, cwd: string = fromRoot): string[] {
  if (!path.isAbsolute(fromRoot) || !path.isAbsolute(toRoot)) {
    throw new MavenArgsError(`rebaseArgs needs absolute roots, got ${JSON.stringify(fromRoot)} and ${JSON.stringify(toRoot)}`);
  }
  return parseMavenArgs(args).flatMap((arg) => {
    if (arg.type !== 'option' || arg.spec?.role !== 'path' || arg.value === undefined || arg.value === '') return formatMavenArgs([arg]);
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
