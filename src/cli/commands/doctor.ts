/**
 * `mvnx doctor [--mvnx-NAME=VALUE ...]`: is this machine ready for mvnx? One line per check
 * (ok / warn / FAIL with a hint); exit 1 when Java, Maven or the config is unusable. A
 * missing model server or sandbox is only a warning: the deterministic quick-fixes need neither.
 */
import path from 'node:path';
import { helpAsked, parseSubcommandArgs, type SubcommandOption, type SubcommandSpec } from '../subcommand-args.js';
import { doctorExitCode, evaluateDoctor, formatCheck } from './doctor/checks.js';
import { gatherFacts } from './doctor/doctor-facts.js';

export interface DoctorIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the report goes; stdout by default. */
  write?: (text: string) => void;
}

const ARGS = {
  command: 'mvnx doctor',
  usage:
    'usage: mvnx doctor [--mvnx-config=FILE] [--mvnx-host=URL] [--mvnx-model=NAME] [--mvnx-maven=PATH] [--mvnx-NAME=VALUE ...]',
  options: {},
  mvnxFlags: true,
} satisfies SubcommandSpec<Record<string, SubcommandOption>>;

export async function run(args: string[], io: DoctorIo): Promise<number> {
  const write = io.write ?? ((text: string) => void process.stdout.write(text));
  if (helpAsked(ARGS, args)) {
    write(
      `${ARGS.usage}\nChecks Java, Maven, the config, the model server, the sandbox and the plugins the way a build uses them; exit 1 when Java, Maven or the config is unusable.\n`,
    );
    return 0;
  }
  const { config: configFile, ...flags } = parseSubcommandArgs(ARGS, args).flags ?? {};
  const facts = await gatherFacts({
    cwd: io.cwd,
    env: io.env,
    flags,
    configFile: typeof configFile === 'string' ? path.resolve(io.cwd, configFile) : undefined,
  });
  const results = evaluateDoctor(facts);
  for (const result of results) write(`${formatCheck(result)}\n`);
  return doctorExitCode(results);
}
