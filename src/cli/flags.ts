/**
 * Splitting mvnx's command line into a subcommand, mvnx's own `--mvnx-*` flags and the
 * arguments Maven gets untouched and in order. The flag table also feeds `mvnx --help`.
 */
import { MvnxError } from './errors.js';

/** Parsed `--mvnx-NAME[=VALUE]` flags: name without the prefix -> value (true when bare). */
export type MvnxFlags = Record<string, string | true>;

export interface FlagSpec {
  name: string;
  /** `value` flags need `=VALUE`; `switch` flags are bare (or `=true`/`=false`). */
  kind: 'value' | 'switch';
  /** Placeholder shown in help, e.g. FILE. */
  valueName?: string;
  description: string;
}

export const FLAGS: readonly FlagSpec[] = [
  { name: 'tier', kind: 'value', valueName: 'off|monitor|assist|auto', description: 'What happens to a verified fix: nothing, record it, suggest it, or apply it.' },
  { name: 'no-fix', kind: 'switch', description: 'Same as --mvnx-tier=off: run Maven only.' },
  { name: 'config', kind: 'value', valueName: 'FILE', description: 'Use this config file instead of searching for one.' },
  { name: 'json', kind: 'switch', description: 'Print the run record as JSON on stdout at the end of a failed build.' },
  { name: 'sarif', kind: 'value', valueName: 'FILE', description: 'Write the diagnostics and any verified fix as SARIF 2.1.0 (a passing build writes an empty log).' },
  { name: 'maven', kind: 'value', valueName: 'PATH', description: 'The Maven executable to run (default: nearest mvnw, then mvn on PATH).' },
  { name: 'model', kind: 'value', valueName: 'NAME', description: 'Model name (default qwen2.5-coder:7b).' },
  { name: 'host', kind: 'value', valueName: 'URL', description: 'Model server URL (default http://127.0.0.1:11434, or OLLAMA_HOST).' },
  { name: 'provider', kind: 'value', valueName: 'ollama|openai-compatible', description: 'Model server API.' },
  { name: 'edit-format', kind: 'value', valueName: 'diff|search-replace|json', description: 'The edit format the model is asked to answer in.' },
  { name: 'agent', kind: 'switch', description: 'Agent mode for every model attempt (agent.mode: always): the model reads the code with tools before it writes a fix.' },
  { name: 'temperature', kind: 'value', valueName: 'N', description: 'Model sampling temperature.' },
  { name: 'seed', kind: 'value', valueName: 'N', description: 'Model sampling seed, for repeatable runs.' },
  { name: 'num-ctx', kind: 'value', valueName: 'N', description: 'Model context window in tokens.' },
  { name: 'model-timeout', kind: 'value', valueName: 'SECONDS', description: 'Deadline of one model call.' },
  { name: 'keep-alive', kind: 'value', valueName: 'DURATION', description: 'How long the model server keeps the model loaded.' },
  { name: 'offline', kind: 'value', valueName: 'inherit|always', description: 'Verification builds: inherit -o from the command line, or always run offline.' },
  { name: 'sandbox', kind: 'value', valueName: 'auto|bwrap|podman|docker|none', description: 'Isolation of verification builds.' },
  { name: 'max-attempts', kind: 'value', valueName: 'N', description: 'Repair budget: candidate fixes tried.' },
  { name: 'max-model-calls', kind: 'value', valueName: 'N', description: 'Repair budget: model calls.' },
  { name: 'max-wall-seconds', kind: 'value', valueName: 'SECONDS', description: 'Repair budget: total time.' },
  { name: 'attempt-timeout', kind: 'value', valueName: 'SECONDS', description: 'Repair budget: time for one verification build.' },
  { name: 'require-coverage', kind: 'value', valueName: 'PERCENT', description: 'Tier auto: minimum line coverage of the changed lines.' },
  { name: 'no-fixers', kind: 'switch', description: 'Skip the deterministic quick-fixers; ask the model only.' },
  { name: 'auto-apply-low-risk', kind: 'switch', description: 'Tier assist: apply low-risk verified fixes without asking.' },
  { name: 'verbose', kind: 'switch', description: 'Show stack traces of internal errors (also MVNX_DEBUG=1).' },
];

/** Reserved words that route to `src/cli/commands/<name>.ts`, only in first position. */
export const SUBCOMMANDS: readonly string[] = ['init', 'doctor', 'apply', 'runs', 'hook', 'bench', 'explain', 'diagnose', 'help', 'version', 'report', 'tool'];

export interface Invocation {
  subcommand?: string;
  /** Everything after the subcommand, unparsed: each command reads its own options. */
  subcommandArgs: string[];
  flags: MvnxFlags;
  mavenArgs: string[];
}

const PREFIX = '--mvnx-';

/**
 * Switches that only the CLI reads: their MVNX_* variables are folded in here (the config
 * loader reads the variables of every config-backed flag itself). A flag beats its variable.
 * Env values other than on/off words count as off.
 */
const CLI_SWITCHES = ['json', 'verbose'];

export function withEnvironmentSwitches(flags: MvnxFlags, env: NodeJS.ProcessEnv): MvnxFlags {
  const merged = { ...flags };
  for (const name of CLI_SWITCHES) {
    const value = merged[name] ?? env[`MVNX_${name.toUpperCase()}`];
    // Normalised to `true` or absent, so that readers may test `flags.json` as a boolean.
    if (switchOn(value)) merged[name] = true;
    else delete merged[name];
  }
  return merged;
}

/** A switch's value read as on/off (`--mvnx-json`, `--mvnx-json=false`, `MVNX_JSON=1`). */
export function switchOn(value: string | true | undefined): boolean {
  return value === true || (value !== undefined && /^(true|1|yes|on)$/i.test(value));
}

export function parseInvocation(argv: string[]): Invocation {
  const first = argv[0];
  if (first !== undefined && SUBCOMMANDS.includes(first)) {
    return { subcommand: first, subcommandArgs: argv.slice(1), flags: {}, mavenArgs: [] };
  }

  const flags: MvnxFlags = {};
  const mavenArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      // Everything after the first `--` is Maven's, even words that look like mvnx flags.
      mavenArgs.push(...argv.slice(i + 1));
      return { subcommandArgs: [], flags, mavenArgs };
    }
    if (arg.startsWith(PREFIX) || arg === '--mvnx') {
      const [name, value] = parseFlag(arg);
      flags[name] = value;
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

function parseFlag(arg: string): [string, string | true] {
  const body = arg.slice(PREFIX.length);
  const equals = body.indexOf('=');
  const name = equals < 0 ? body : body.slice(0, equals);
  const value = equals < 0 ? undefined : body.slice(equals + 1);
  const spec = FLAGS.find((flag) => flag.name === name);
  if (!spec) {
    const suggestion = closestFlag(name);
    throw new MvnxError(`unknown flag ${PREFIX}${name}${suggestion ? `; did you mean ${PREFIX}${suggestion}?` : ''} (see mvnx --help)`, 2);
  }
  if (spec.kind === 'value') {
    if (value === undefined || value === '') {
      throw new MvnxError(`flag ${PREFIX}${name} needs a value: ${PREFIX}${name}=${spec.valueName ?? 'VALUE'}`, 2);
    }
    return [name, value];
  }
  if (value === undefined) return [name, true];
  if (!/^(true|false|1|0|yes|no|on|off)$/i.test(value)) {
    throw new MvnxError(`flag ${PREFIX}${name} is a switch: use ${PREFIX}${name} or ${PREFIX}${name}=true|false, not "${value}"`, 2);
  }
  return [name, value];
}

/** The known flag nearest in edit distance, when it is near enough to be a typo. */
export function closestFlag(name: string): string | undefined {
  if (name.length >= 2) {
    const extended = FLAGS.find((flag) => flag.name.startsWith(name));
    if (extended) return extended.name;
  }
  let best: { name: string; distance: number } | undefined;
  for (const flag of FLAGS) {
    const distance = editDistance(name, flag.name);
    if (!best || distance < best.distance) best = { name: flag.name, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}
