/** `mvnx version`: mvnx's own version (`mvnx -v` is Maven's, as with mvn). */
import { readFile } from 'node:fs/promises';

export async function run(_args: string[], _io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  process.stdout.write(`mvnx ${await packageVersion()} (node ${process.version})\n`);
  return 0;
}

export async function packageVersion(): Promise<string> {
  // src/cli/commands and dist/cli/commands are both three levels below the package root.
  const manifest = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
