/**
 * Splitting mvnx's command line into a subcommand, mvnx's own `--mvnx-*` flags and the
 * arguments Maven gets untouched and in order. The flags themselves are declared in the
 * option table (src/shared/options.ts).
 */
import { MvnxError } from '../shared/errors.js';
import { FLAG_PREFIX, readFlag, type OptionValues } from '../shared/options.js';

/** Reserved words that route to `src/cli/commands/<name>.ts`, only in first position. */
export const SUBCOMMANDS: readonly string[] = [
  'init',
  'doctor',
  'apply',
  'runs',
  'hook',
  'bench',
  'explain',
  'diagnose',
  'help',
  'version',
  'report',
  'tool',
  'publish',
];

export interface Invocation {
  subcommand?: string;
  /** Everything after the subcommand, unparsed: each command reads its own options. */
  subcommandArgs: string[];
  /** `--mvnx-*` flags as given (name without the prefix -> value, true for a bare switch). */
  flags: OptionValues;
  mavenArgs: string[];
}

export function parseInvocation(argv: string[]): Invocation {
  const first = argv[0];
  if (first !== undefined && SUBCOMMANDS.includes(first)) {
    return { subcommand: first, subcommandArgs: argv.slice(1), flags: {}, mavenArgs: [] };
  }

  const flags: Record<string, string | true> = {};
  const mavenArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      // Everything after the first `--` is Maven's, even words that look like mvnx flags.
      mavenArgs.push(...argv.slice(i + 1));
      return { subcommandArgs: [], flags, mavenArgs };
    }
    if (arg.startsWith(FLAG_PREFIX) || arg === '--mvnx') {
      const flag = readFlag(arg);
      if ('problem' in flag) throw new MvnxError(flag.problem);
      flags[flag.name] = flag.value;
    } else {
      mavenArgs.push(arg);
    }
  }
  // `mvnx --help` is mvnx's help; Maven's own stays reachable as `mvnx -- --help`.
  if (mavenArgs.some((arg) => arg === '--help' || arg === '-h')) {
    return { subcommand: 'help', subcommandArgs: [], flags, mavenArgs: [] };
  }
  return { subcommandArgs: [], flags, mavenArgs };
}
