/**
 * `mvnx doctor [--mvnx-NAME=VALUE ...]`: is this machine ready for mvnx? One line per check
 * (ok / warn / FAIL with a hint); exit 1 when Java, Maven or the config is unusable. A
 * missing model server or sandbox is only a warning: the deterministic quick-fixes need neither.
 */
import path from 'node:path';
import type { MvnxFlags } from '../flags.js';
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
  const flags: MvnxFlags = {};
  for (const arg of args) {
    const match = /^--mvnx-([a-z][a-z0-9-]*)(?:=(.*))?$/s.exec(arg);
    if (!match?.[1]) {
      write(`mvnx doctor: unknown argument "${arg}" (${USAGE})\n`);
      return 2;
    }
    flags[match[1]] = match[2] ?? true;
  }
  const configFile = flags.config;
  delete flags.config;
  if (configFile === true) {
    write(`mvnx doctor: --mvnx-config needs a file (${USAGE})\n`);
    return 2;
  }
  const facts = await gatherFacts({ cwd: io.cwd, env: io.env, flags, configFile: configFile === undefined ? undefined : path.resolve(io.cwd, configFile) });
  const results = evaluateDoctor(facts);
  for (const result of results) write(`${formatCheck(result)}\n`);
  return doctorExitCode(results);
}
