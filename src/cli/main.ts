#!/usr/bin/env node
/**
 * The `mvnx` bin: route a subcommand or run Maven, and turn every error into one line
 * and an exit code.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { MvnxError } from './errors.js';
import { parseInvocation, switchOn, type Invocation } from './flags.js';
import type { CliIo } from './build.js';

type Command = { run(args: string[], io: CliIo): Promise<number> };

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
  const url = new URL(`./commands/${name}.js`, import.meta.url);
  let command: Command;
  try {
    command = (await import(url.href)) as Command;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(url.pathname);
    if (!missing) throw error;
    throw new MvnxError(`mvnx ${name} is not available in this build`, 2);
  }
  return command.run(args, io);
}

function oneLine(message: string): string {
  const first = message.split('\n')[0]!;
  return first.startsWith('mvnx') ? first : `mvnx: ${first}`;
}

function debugging(argv: string[], invocation: Invocation | undefined, env: NodeJS.ProcessEnv): boolean {
  return switchOn(invocation?.flags.verbose) || argv.includes('--mvnx-verbose') || switchOn(env.MVNX_VERBOSE) || env.MVNX_DEBUG === '1';
}

/** Wait until what we wrote reached the pipe: process.exit would drop pending writes. */
function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}

const isEntry = process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (isEntry) {
  const code = await main(process.argv.slice(2), { cwd: process.cwd(), env: process.env });
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
  // Exit explicitly: a progress timer or a socket of the repair stage must not keep us alive.
  process.exit(code);
}
