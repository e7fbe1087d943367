/**
 * Maven's command line as data: which tokens are options (and which of those take a
 * value), which are goals, read with the one option table (maven/facts.ts). Verification
 * rewrites the user's command (other goals, other module selection, paths into the
 * workspace), so it must know exactly where each option ends; guessing would turn
 * `-pl app verify` into the goals `app verify`.
 *
 * Maven parses its command line with commons-cli: a value-taking short option takes the
 * next token (`-pl app`) or the rest of its own token (`-Dx=1`, `-T1C`, `-Pci`); a long
 * option takes `--name value` or `--name=value`.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { MAVEN_OPTIONS, type MavenOptionSpec } from './facts.js';

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

/**
 * Reads a Maven command line. A value-taking option that is the last argument is an
 * error (Maven's too), unless `lenient`: then it is kept without a value, for readers
 * that only look (the policy's goals, the start folder) and leave errors to Maven.
 */
export function parseMavenArgs(args: readonly string[], options: { lenient?: boolean } = {}): MavenArg[] {
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
      if (value === undefined) {
        if (options.lenient) {
          parsed.push({ type: 'option', spec, tokens: [token] });
          continue;
        }
        throw new MavenArgsError(`Maven option ${token} needs a value, but it is the last argument`);
      }
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

/** The phases and goals on a Maven command line (`clean`, `verify`, `spotless:apply`), never throwing. */
export function mavenGoals(args: readonly string[]): string[] {
  return goalsOf(parseMavenArgs(args, { lenient: true }));
}

/** The value of the last `-f`/`--file` option (Maven lets a later one win), if any. */
export function fileArgument(mavenArgs: readonly string[]): string | undefined {
  let value: string | undefined;
  for (const arg of parseMavenArgs(mavenArgs, { lenient: true })) {
    if (arg.type === 'option' && arg.spec?.long === 'file' && arg.value !== undefined) value = arg.value;
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
