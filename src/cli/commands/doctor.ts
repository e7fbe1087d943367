/**
 * `mvnx doctor [--mvnx-NAME=VALUE ...]`: is this machine ready for mvnx? One line per check
 * (ok / warn / FAIL with a hint); exit 1 when Java, Maven or the config is unusable. A
 * missing model server or sandbox is only a warning: the deterministic quick-fixes need neither.
 */
import path from 'node:path';
import { FLAG_PREFIX, readFlag } from '../../shared/options.js';
import { doctorExitCode, evaluateDoctor, formatCheck } from './doctor/checks.js';
import { gatherFacts } from './doctor/facts.js';

export interface DoctorIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the report goes; stdout by default. */
  write?: (text: string) => void;
}

const USAGE = 'usage: mvnx doctor [--mvnx-config=FILE] [--mvnx-host=URL] [--mvnx-model=NAME] [--mvnx-maven=PATH]';

export async function run(args: string[], io: DoctorIo): Promise<number> {
  const write = io.write ?? ((text: string) => void process.stdout.write(text));
  const flags: Record<string, string | true> = {};
  for (const arg of args) {
    if (!arg.startsWith(FLAG_PREFIX)) {
      write(`mvnx doctor: unknown argument "${arg}" (${USAGE})\n`);
      return 2;
    }
    const flag = readFlag(arg);
    if ('problem' in flag) {
      write(`mvnx doctor: ${flag.problem}\n`);
      return 2;
    }
    flags[flag.name] = flag.value;
  }
  const configFile = flags.config;
  delete flags.config;
  const facts = await gatherFacts({ cwd: io.cwd, env: io.env, flags, configFile: typeof configFile === 'string' ? path.resolve(io.cwd, configFile) : undefined });
  const results = evaluateDoctor(facts);
  for (const result of results) write(`${formatCheck(result)}\n`);
  return doctorExitCode(results);
}
