/**
 * The subcommands' argument reading: node:util `parseArgs` (strict) behind one shape, with
 * one way to say what is wrong: `mvnx <command>: <what>; <usage>` as an MvnxError (exit 2).
 * Each subcommand declares its options; it never walks argv by hand.
 */
import { parseArgs } from 'node:util';
import { MvnxError } from '../shared/errors.js';
import { FLAG_PREFIX, readFlag, type OptionValues } from '../shared/options.js';

export interface SubcommandOption {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** For a string option: what the value is, said when it is missing (`a file`, `the Maven arguments`). */
  valueName?: string;
}

export interface SubcommandSpec<O extends Record<string, SubcommandOption>> {
  /** `mvnx diagnose`, `mvnx hook install`: the prefix of every error. */
  command: string;
  usage: string;
  options: O;
  /** How many positional arguments the command takes at most (0 when unset). */
  maxPositionals?: number;
  /** Said when there are more positionals than `maxPositionals`. */
  tooMany?: (positionals: string[]) => string;
  /**
   * The command also takes mvnx's own `--mvnx-NAME[=VALUE]` flags (doctor, explain): they are
   * read by the option table's reader, with its messages, and returned in `flags`.
   */
  mvnxFlags?: boolean;
}

/** What parseSubcommandArgs reads for each declared option. */
export type SubcommandValues<O extends Record<string, SubcommandOption>> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean'
    ? O[K]['multiple'] extends true
      ? boolean[]
      : boolean
    : O[K]['multiple'] extends true
      ? string[]
      : string;
};

export interface SubcommandArgs<O extends Record<string, SubcommandOption>> {
  values: SubcommandValues<O>;
  positionals: string[];
  /** `--mvnx-*` flags (only with `mvnxFlags`): name without the prefix -> value, true for a bare switch. */
  flags?: OptionValues;
}

/** `--help` or `-h` anywhere before a `--`, other than as the value of a string option. */
export function helpAsked(
  spec: Pick<SubcommandSpec<Record<string, SubcommandOption>>, 'options'>,
  args: readonly string[],
): boolean {
  const joined = joinStringValues(spec.options, args, false);
  const end = joined.indexOf('--');
  return (end < 0 ? joined : joined.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** The error every subcommand reports a bad argument with. */
export function usageError(
  spec: Pick<SubcommandSpec<Record<string, SubcommandOption>>, 'command' | 'usage'>,
  what: string,
): MvnxError {
  return new MvnxError(`${spec.command}: ${what}; ${spec.usage}`);
}

/**
 * Reads `args` as the spec says; throws the usage error for an unknown option, a missing or empty value, or too many
 * positionals.
 */
export function parseSubcommandArgs<O extends Record<string, SubcommandOption>>(
  spec: SubcommandSpec<O>,
  args: readonly string[],
): SubcommandArgs<O> {
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([name, option]) => [
      name,
      {
        type: option.type,
        ...(option.short ? { short: option.short } : {}),
        ...(option.multiple ? { multiple: true } : {}),
      },
    ]),
  );
  const flags: Record<string, string | true> = {};
  const rest: string[] = [];
  for (const arg of joinStringValues(spec.options, args, spec.mvnxFlags === true)) {
    if (spec.mvnxFlags && (arg.startsWith(FLAG_PREFIX) || arg === '--mvnx')) {
      const flag = readFlag(arg);
      if ('problem' in flag) throw usageError(spec, flag.problem);
      flags[flag.name] = flag.value;
    } else rest.push(arg);
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(spec, describeParseError(error, spec.options));
  }
  for (const [name, option] of Object.entries(spec.options)) {
    const value = parsed.values[name];
    const values = Array.isArray(value) ? value : [value];
    if (option.type === 'string' && values.some((v) => typeof v === 'string' && v.trim() === ''))
      throw usageError(spec, missingValue(name, option));
  }
  const max = spec.maxPositionals ?? 0;
  if (parsed.positionals.length > max) {
    throw usageError(spec, spec.tooMany?.(parsed.positionals) ?? `unknown argument ${parsed.positionals[max]}`);
  }
  return {
    values: parsed.values as SubcommandValues<O>,
    positionals: parsed.positionals,
    ...(spec.mvnxFlags ? { flags } : {}),
  };
}

/**
 * `--goals "-o -q verify"` as `--goals=-o -q verify`: strict parseArgs refuses a separate
 * value that starts with `-`, yet Maven arguments and command lines do. The token after a
 * string option is its value unless it is one of the command's own options (then the value
 * is missing, and said so) or, for a command that takes them, an mvnx flag. Stops at `--`.
 */
function joinStringValues(
  options: Record<string, SubcommandOption>,
  args: readonly string[],
  mvnxFlags: boolean,
): string[] {
  const stringOption = (arg: string): string | undefined => {
    if (arg.startsWith('--')) return options[arg.slice(2)]?.type === 'string' ? arg : undefined;
    const short = Object.entries(options).find(
      ([, option]) => option.short !== undefined && arg === `-${option.short}`,
    );
    return short?.[1].type === 'string' ? `--${short[0]}` : undefined;
  };
  const isOwnOption = (arg: string): boolean => {
    if (mvnxFlags && arg.startsWith(FLAG_PREFIX)) return true;
    const name = /^--([^=]+)/.exec(arg)?.[1];
    if (name !== undefined) return name in options;
    return /^-\w$/.test(arg) && Object.values(options).some((option) => arg === `-${option.short}`);
  };
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') {
      joined.push(...args.slice(index));
      break;
    }
    const option = stringOption(arg);
    const next = args[index + 1];
    if (option !== undefined && next !== undefined && next !== '--' && !isOwnOption(next)) {
      joined.push(`${option}=${next}`);
      index += 1;
    } else joined.push(arg);
  }
  return joined;
}

function missingValue(name: string, option: SubcommandOption): string {
  return `--${name} needs ${option.valueName ?? 'a value'}`;
}

function describeParseError(error: unknown, options: Record<string, SubcommandOption>): string {
  const { code, message = '' } = error as { code?: string; message?: string };
  // node names the option in quotes: '--frob', '--reports <value>', '-f, --force'.
  const named: string[] = /'([^']+)'/.exec(message)?.[1]?.match(/--?[\w-]+/g) ?? [];
  const known = Object.entries(options).find(
    ([long, option]) =>
      named.includes(`--${long}`) || (option.short !== undefined && named.includes(`-${option.short}`)),
  );
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && named[0]) return `unknown argument ${named[0]}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && known) {
    return known[1].type === 'boolean' ? `--${known[0]} takes no value` : missingValue(known[0], known[1]);
  }
  return message.split('\n')[0] ?? String(error);
}
