/** `mvnx help` and `mvnx --help`: the wrapper, its flags and its subcommands. */
import { envName, flagName, OPTIONS, type OptionSpec } from '../../shared/options.js';

const COMMANDS: ReadonlyArray<[string, string]> = [
  ['init', 'write a starter config for this project'],
  ['doctor', 'check Java, Maven, the model server and the sandbox'],
  ['explain', 'show the effective config and where each value came from'],
  ['runs', 'list recorded runs (--stats totals, --advise promotion advice, --reconcile outcomes)'],
  ['report', 'write the rollout report as one HTML page (report --html FILE)'],
  ['apply', 'apply the verified fix of a recorded run'],
  ['publish', 'publish the verified fix of a recorded run as a pull/merge request (CI)'],
  ['diagnose', 'diagnose a saved Maven log (LOGFILE [--json] [--reports DIR])'],
  ['hook', 'install or remove the git pre-push hook'],
  ['bench', 'measure repair quality on the bundled cases (--agent: agent mode)'],
  ['tool', 'command tools for agent mode: tool add|list|remove (docs/tools.md)'],
  ['help', 'this help'],
  ['version', "mvnx's version"],
];

export function run(_args: string[], _io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  process.stdout.write(helpText());
  return Promise.resolve(0);
}

export function helpText(): string {
  const flagColumn = (option: OptionSpec) =>
    `${flagName(option.name)}${option.kind === 'switch' ? '' : `=${option.valueName ?? 'VALUE'}`}`;
  const width = Math.max(...OPTIONS.map((option) => flagColumn(option).length));
  const commandWidth = Math.max(...COMMANDS.map(([name]) => name.length));
  return [
    'mvnx: a drop-in replacement for mvn that diagnoses failed builds and proposes verified fixes.',
    '',
    'Usage:',
    '  mvnx [--mvnx-FLAG[=VALUE]...] MAVEN_ARGS...   run Maven exactly as mvn would',
    '  mvnx COMMAND [ARGS...]                        run an mvnx command',
    '  mvnx -- MAVEN_ARGS...                         pass everything after -- to Maven',
    '',
    'Every argument that is not a --mvnx-* flag goes to Maven unchanged and in order.',
    'Maven is the first of: --mvnx-maven, MVNX_MAVEN, config maven.executable, the nearest',
    'mvnw above the working directory (or the -f target), mvn on PATH.',
    "A passing build prints nothing of mvnx's own; a failing one is diagnosed and, unless",
    'the tier is off, repaired in a separate workspace.',
    '',
    'Commands:',
    ...COMMANDS.map(([name, description]) => `  ${name.padEnd(commandWidth)}  ${description}`),
    '',
    `Flags (each also an environment variable: ${flagName('edit-format')} is ${envName('edit-format')}):`,
    ...OPTIONS.map((option) => `  ${flagColumn(option).padEnd(width)}  ${option.help}`),
    '',
    "Exit codes: Maven's own; 0 after an applied fix passes (tier auto); 2 for a bad flag or",
    'config; 127 when Maven is not found; 128+N when Maven died from signal N.',
    '',
    "For Maven's own help run mvn --help (or mvnx -- --help).",
    '',
  ].join('\n');
}
