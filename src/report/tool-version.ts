import { readFile } from 'node:fs/promises';

/** mvnx's own version, for SARIF's tool.driver and the API clients' user agent. */
export async function toolVersion(): Promise<string> {
  // src/report and dist/report are both two levels below the package root.
  try {
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return manifest.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
