/**
 * Route a subcommand or run Maven, and turn every error into one line and an exit code.
 * The process entry is bin.ts.
 */
import { fileURLToPath } from 'node:url';
import { MvnxError } from '../shared/errors.js';
import { cliOptions } from '../shared/options.js';
import { parseInvocation, type Invocation } from './flags.js';
import type { CliIo } from './build.js';

export type Command = { run(args: string[], io: CliIo): Promise<number> };

export async function main(argv: string[], io: CliIo): Promise<number> {
  let invocation: Invocation | undefined;
  try {
    invocation = parseInvocation(argv);
    if (invocation.subcommand) return await runSubcommand(invocation.subcommand, invocation.subcommandArgs, io);
    const { runBuild } = await import('./build.js');
    return await runBuild(invocation, io);
  } catch (error) {
    if (error instanceof MvnxError) {
      process.stderr.write(`${oneLine(error.message)}\n`);
      return error.exitCode;
    }
    const err = error instanceof Error ? error : new Error(String(error));
    process.stderr.write(`mvnx: internal error: ${err.message.split('\n')[0]}\n`);
    if (debugging(argv, invocation, io.env)) process.stderr.write(`${err.stack ?? ''}\n`);
    return 2;
  }
}

async function runSubcommand(name: string, args: string[], io: CliIo): Promise<number> {
  const command = await loadCommand(name, new URL('./commands/', import.meta.url));
  return command.run(args, io);
}

/** A command module that is not part of this build is a one-line error, not a crash. */
export async function loadCommand(name: string, commandsDir: URL): Promise<Command> {
  const url = new URL(`${name}.js`, commandsDir);
  let module: Partial<Command>;
  try {
    module = (await import(url.href)) as Partial<Command>;
  } catch (error) {
    // Only the command file itself being absent counts; a command whose own import is broken must surface.
    const notFound = /Cannot find module '([^']+)'/.exec(String((error as Error).message))?.[1];
    const missing =
      (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      (notFound === fileURLToPath(url) || notFound === url.href);
    if (!missing) throw error;
    throw new MvnxError(`mvnx ${name} is not available in this build`, 2);
  }
  if (typeof module.run !== 'function')
    throw new MvnxError(`mvnx ${name} is not available in this build (its module has no run function)`, 2);
  return module as Command;
}

function oneLine(message: string): string {
  const first = message.split('\n')[0]!;
  return first.startsWith('mvnx') ? first : `mvnx: ${first}`;
}

function debugging(argv: string[], invocation: Invocation | undefined, env: NodeJS.ProcessEnv): boolean {
  // The flags did not parse when parsing failed: a bare --mvnx-verbose among them still counts.
  return cliOptions(invocation?.flags ?? {}, env).verbose || argv.includes('--mvnx-verbose');
}
