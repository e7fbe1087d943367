/**
 * mvnx's own options, each declared once: its `--mvnx-NAME` flag, its `MVNX_NAME`
 * variable, the config field it overrides (if any), the kind of value and its help text.
 * Everything else is derived from this table: the CLI's flag parser and `mvnx --help`,
 * which options the passing-build path reads itself, the config loader's environment and
 * flag layers, `mvnx explain`'s list of overrides and the table in docs/config.md (a test
 * keeps it in step).
 *
 * Adding an option is one line here (and its test); a config-backed one needs its field
 * in src/policy/schema.ts first.
 */
import { editDistance } from './similar.js';

/**
 * - `string` / `number`: `--mvnx-NAME=VALUE`; a number stays text until the schema checks it.
 * - `switch`: bare `--mvnx-NAME` or `=true|false` (also 1/0, yes/no, on/off).
 */
export type OptionKind = 'string' | 'number' | 'switch';

export interface OptionSpec {
  /** The flag without `--mvnx-`; the variable is derived: `edit-format` is MVNX_EDIT_FORMAT. */
  name: string;
  kind: OptionKind;
  /** Placeholder shown in help and in "needs a value" errors, e.g. FILE. */
  valueName?: string;
  help: string;
  /** The config field the option overrides (`model.host`); absent for options only the CLI reads. */
  config?: string;
  /** For a switch that sets a field to something other than true (`no-fix` -> tier `off`). */
  whenOn?: unknown;
  /**
   * The passing-build path reads this option itself (before any config is loaded), so
   * setting it alone does not make mvnx load the config stack.
   */
  readByCli?: true;
  /** Further variables that mean the same as this option's (`MVNX_DEBUG=1` for verbose). */
  alsoEnv?: readonly string[];
}

/**
 * Order matters where two options set one field: within the flags (or within the
 * variables), a later one wins, so `no-fix` comes after `tier`.
 */
export const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'tier',
    kind: 'string',
    valueName: 'off|monitor|assist|auto',
    config: 'tier',
    help: 'What happens to a verified fix: nothing, record it, suggest it, or apply it.',
  },
  { name: 'no-fix', kind: 'switch', config: 'tier', whenOn: 'off', help: 'Same as --mvnx-tier=off: run Maven only.' },
  { name: 'config', kind: 'string', valueName: 'FILE', help: 'Use this config file instead of searching for one.' },
  {
    name: 'json',
    kind: 'switch',
    readByCli: true,
    help: 'Print the run record as JSON on stdout at the end of a failed build.',
  },
  {
    name: 'sarif',
    kind: 'string',
    valueName: 'FILE',
    readByCli: true,
    help: 'Write the diagnostics and any verified fix as SARIF 2.1.0 (a passing build writes an empty log).',
  },
  {
    name: 'run-id-file',
    kind: 'string',
    valueName: 'FILE',
    readByCli: true,
    help: "Write this run's id to FILE as soon as it has one (a failed build that mvnx looked at): a caller's own run, never `latest`.",
  },
  {
    name: 'maven',
    kind: 'string',
    valueName: 'PATH',
    config: 'maven.executable',
    readByCli: true,
    help: 'The Maven executable to run (default: nearest mvnw, then mvn on PATH).',
  },
  {
    name: 'model',
    kind: 'string',
    valueName: 'NAME',
    config: 'model.name',
    help: 'Model name (default qwen2.5-coder:7b).',
  },
  {
    name: 'host',
    kind: 'string',
    valueName: 'URL',
    config: 'model.host',
    help: 'Model server URL (default http://127.0.0.1:11434, or OLLAMA_HOST; a bare host means port 11434).',
  },
  {
    name: 'provider',
    kind: 'string',
    valueName: 'ollama|openai-compatible',
    config: 'model.provider',
    help: 'Model server API.',
  },
  {
    name: 'edit-format',
    kind: 'string',
    valueName: 'diff|search-replace|json',
    config: 'model.editFormat',
    help: 'The edit format the model is asked to answer in.',
  },
  {
    name: 'publish',
    kind: 'switch',
    config: 'publish.auto',
    help: 'Under tier auto in CI, publish the verified fix as a pull/merge request at the end of the run (false: leave it to a later `mvnx publish`).',
  },
  {
    name: 'agent',
    kind: 'switch',
    config: 'agent.mode',
    whenOn: 'always',
    help: 'Agent mode for every model attempt (agent.mode: always): the model reads the code with tools before it writes a fix.',
  },
  {
    name: 'temperature',
    kind: 'number',
    valueName: 'N',
    config: 'model.temperature',
    help: 'Model sampling temperature.',
  },
  {
    name: 'seed',
    kind: 'number',
    valueName: 'N',
    config: 'model.seed',
    help: 'Model sampling seed, for repeatable runs.',
  },
  { name: 'num-ctx', kind: 'number', valueName: 'N', config: 'model.numCtx', help: 'Model context window in tokens.' },
  {
    name: 'model-timeout',
    kind: 'number',
    valueName: 'SECONDS',
    config: 'model.timeoutSeconds',
    help: 'Deadline of one model call.',
  },
  {
    name: 'keep-alive',
    kind: 'string',
    valueName: 'DURATION',
    config: 'model.keepAlive',
    help: 'How long the model server keeps the model loaded.',
  },
  {
    name: 'offline',
    kind: 'string',
    valueName: 'inherit|always',
    config: 'maven.offline',
    help: 'Verification builds: inherit -o from the command line, or always run offline.',
  },
  {
    name: 'sandbox',
    kind: 'string',
    valueName: 'auto|bwrap|podman|docker|none',
    config: 'sandbox.mode',
    help: 'Isolation of verification builds.',
  },
  {
    name: 'max-attempts',
    kind: 'number',
    valueName: 'N',
    config: 'budget.maxAttempts',
    help: 'Repair budget: candidate fixes tried.',
  },
  {
    name: 'max-model-calls',
    kind: 'number',
    valueName: 'N',
    config: 'budget.maxModelCalls',
    help: 'Repair budget: model calls.',
  },
  {
    name: 'max-wall-seconds',
    kind: 'number',
    valueName: 'SECONDS',
    config: 'budget.maxWallSeconds',
    help: 'Repair budget: total time.',
  },
  {
    name: 'attempt-timeout',
    kind: 'number',
    valueName: 'SECONDS',
    config: 'budget.perAttemptTimeoutSeconds',
    help: 'Repair budget: time for one verification build.',
  },
  {
    name: 'require-coverage',
    kind: 'number',
    valueName: 'PERCENT',
    config: 'auto.requireCoverage',
    help: 'Tier auto: minimum line coverage of the changed lines.',
  },
  {
    name: 'no-fixers',
    kind: 'switch',
    config: 'fixers.enabled',
    whenOn: false,
    help: 'Skip the deterministic quick-fixers; ask the model only.',
  },
  {
    name: 'auto-apply-low-risk',
    kind: 'switch',
    config: 'assist.autoApplyLowRisk',
    help: 'Tier assist: apply low-risk verified fixes without asking.',
  },
  {
    name: 'verbose',
    kind: 'switch',
    readByCli: true,
    alsoEnv: ['MVNX_DEBUG'],
    help: 'Show stack traces of internal errors (also MVNX_DEBUG=1).',
  },
];

export const FLAG_PREFIX = '--mvnx-';

/** Option values as given: name (without `--mvnx-`) -> value, `true` for a bare switch. */
export type OptionValues = Readonly<Record<string, string | true>>;

export function envName(optionName: string): string {
  return `MVNX_${optionName.toUpperCase().replaceAll('-', '_')}`;
}

export function flagName(optionName: string): string {
  return `${FLAG_PREFIX}${optionName}`;
}

export function optionNamed(name: string): OptionSpec | undefined {
  return OPTIONS.find((option) => option.name === name);
}

/** Options that override a config field, in table order. */
export function configOptions(): readonly (OptionSpec & { config: string })[] {
  return OPTIONS.filter((option): option is OptionSpec & { config: string } => option.config !== undefined);
}

const ON_WORDS = /^(true|1|yes|on)$/i;
const SWITCH_WORDS = /^(true|false|1|0|yes|no|on|off)$/i;

/** A switch's value read as on/off (`--mvnx-json`, `--mvnx-json=false`, `MVNX_JSON=1`); other words are off. */
export function switchOn(value: string | true | undefined): boolean {
  return value === true || (value !== undefined && ON_WORDS.test(value.trim()));
}

/** A switch's value read strictly: undefined when it is not one of the on/off words. */
export function parseSwitch(value: string | true): boolean | undefined {
  if (value === true) return true;
  if (!SWITCH_WORDS.test(value.trim())) return undefined;
  return ON_WORDS.test(value.trim());
}

/** Why `--mvnx-NAME[=VALUE]` cannot be used, or its name and value. */
export function readFlag(arg: string): { name: string; value: string | true } | { problem: string } {
  const body = arg.slice(FLAG_PREFIX.length);
  const equals = body.indexOf('=');
  const name = equals < 0 ? body : body.slice(0, equals);
  const value = equals < 0 ? undefined : body.slice(equals + 1);
  const spec = optionNamed(name);
  if (!spec || arg === '--mvnx') {
    const suggestion = closestOption(name);
    return {
      problem: `unknown flag ${flagName(name)}${suggestion ? `; did you mean ${flagName(suggestion)}?` : ''} (see mvnx --help)`,
    };
  }
  if (spec.kind !== 'switch') {
    if (value === undefined || value === '')
      return { problem: `flag ${flagName(name)} needs a value: ${flagName(name)}=${spec.valueName ?? 'VALUE'}` };
    return { name, value };
  }
  if (value === undefined) return { name, value: true };
  if (parseSwitch(value) === undefined)
    return {
      problem: `flag ${flagName(name)} is a switch: use ${flagName(name)} or ${flagName(name)}=true|false, not "${value}"`,
    };
  return { name, value };
}

/** The known option nearest in edit distance, when it is near enough to be a typo. */
export function closestOption(name: string): string | undefined {
  if (name.length >= 2) {
    const extended = OPTIONS.find((option) => option.name.startsWith(name));
    if (extended) return extended.name;
  }
  let best: { name: string; distance: number } | undefined;
  for (const option of OPTIONS) {
    const distance = editDistance(name, option.name);
    if (!best || distance < best.distance) best = { name: option.name, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/**
 * Whether anything on the command line or in the environment may change the config: a
 * flag of an option the CLI does not read itself, or any non-empty MVNX_* variable but
 * theirs. Conservative for variables (one this mvnx does not know still counts): a wrong
 * yes only costs loading the config.
 */
export function configOptionGiven(values: OptionValues, env: NodeJS.ProcessEnv): boolean {
  if (Object.keys(values).some((name) => !optionNamed(name)?.readByCli)) return true;
  const cliVariables = new Set(
    OPTIONS.filter((option) => option.readByCli).flatMap((option) => [envName(option.name), ...(option.alsoEnv ?? [])]),
  );
  return Object.entries(env).some(
    ([name, value]) => name.startsWith('MVNX_') && !cliVariables.has(name) && value !== undefined && value !== '',
  );
}

/**
 * The options the CLI reads itself, from flags then variables, normalised once: switches
 * are booleans, values strings. A flag beats its variables; an empty variable is unset.
 * (`maven` and `config` are read where their source must be named: maven/discover.ts and
 * the config loader.)
 */
export interface CliOptions {
  json: boolean;
  verbose: boolean;
  sarif?: string;
  /** --mvnx-run-id-file: where this run's id goes, for a caller (the pre-push hook) that must read its own run. */
  runIdFile?: string;
}

export function cliOptions(values: OptionValues, env: NodeJS.ProcessEnv): CliOptions {
  const variables = (name: string): string[] => {
    const option = optionNamed(name)!;
    return [envName(name), ...(option.alsoEnv ?? [])]
      .map((variable) => env[variable] ?? '')
      .filter((value) => value !== '');
  };
  const on = (name: string): boolean =>
    values[name] !== undefined ? switchOn(values[name]) : variables(name).some((value) => switchOn(value));
  const text = (name: string): string | undefined =>
    typeof values[name] === 'string' ? values[name] : variables(name)[0];
  const sarif = text('sarif');
  const runIdFile = text('run-id-file');
  return { json: on('json'), verbose: on('verbose'), ...(sarif ? { sarif } : {}), ...(runIdFile ? { runIdFile } : {}) };
}
