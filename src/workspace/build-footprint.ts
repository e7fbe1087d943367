/**
 * What a verification build needs to see of the host, found once per repair: the JDK,
 * the Maven installation, the user's Maven state (settings without their secrets, the
 * local repository) and the workspace. A sandbox binds exactly this and nothing else.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  readSettingsSecrets,
  resolveMavenUserState,
  sanitizeSettings,
  type MavenUserState,
} from '../maven/settings.js';
import { searchPath } from '../shared/path-search.js';

export interface BuildFootprint {
  workspaceRoot: string;
  /** Where the build starts. */
  cwd: string;
  /** Host paths bound read-only at the same place, when they exist. */
  readOnly: string[];
  /** `[copy, original]`: files bound read-only over the original path (settings.xml without secrets). */
  replaced: [string, string][];
  /** PATH folders inside the hidden home, bound read-only by bwrap (a container has its own PATH). */
  toolDirs: string[];
  /** Host folders hidden behind an empty tmpfs (the user's home) before the binds. */
  hidden: string[];
  maven: MavenUserState;
  /** Secret values the settings files hold: redaction learns them. */
  settingsSecrets: string[];
}

/** /etc entries the JDK, Maven and a JUnit test need: no credentials, no sockets. */
const ETC_ENTRIES = [
  'alternatives',
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'localtime',
  'timezone',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'os-release',
  'ssl',
  'pki',
  'ca-certificates',
  'mavenrc',
];
const ETC_PREFIXES = ['java', 'maven', 'jvm'];

/** Top-level system folders: bound read-only (or recreated as the symlinks they are on merged-/usr systems). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** `file` with its links resolved, or undefined when it does not exist. */
export function realOrUndefined(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}

/** The file a build's executable names: itself when absolute, else the first one on PATH. */
export function executableFile(executable: string, env: NodeJS.ProcessEnv): string | undefined {
  return path.isAbsolute(executable) ? executable : searchPath(executable, env);
}

/** The JDK the build uses: JAVA_HOME, else the `java` on PATH with its links resolved. */
export function javaHome(env: NodeJS.ProcessEnv): string | undefined {
  if (env.JAVA_HOME) return realOrUndefined(env.JAVA_HOME);
  const java = searchPath('java', env);
  const real = java ? realOrUndefined(java) : undefined;
  return real ? path.dirname(path.dirname(real)) : undefined;
}

/**
 * What of the Maven that runs must be visible: its installation (`<home>/bin/mvn` with `boot/`
 * and `lib/` beside `bin/`), or, for an `mvn` that is a script of its own (a wrapper in
 * `~/bin` or `/tmp`), that file alone: its grandparent could be the home or `/tmp`, and
 * binding either would show the build what the sandbox hides (and make `/tmp` read-only).
 */
function mavenFiles(executable: string, env: NodeJS.ProcessEnv, workspaceRoot: string): string[] {
  const file = executableFile(executable, env);
  if (!file || isInside(file, workspaceRoot)) return [];
  const real = realOrUndefined(file);
  if (!real) return [];
  const install = path.dirname(path.dirname(real));
  const isInstall =
    install !== path.dirname(install) && ['boot', 'lib'].every((dir) => existsSync(path.join(install, dir)));
  return isInstall ? [install] : [...new Set([file, real])];
}

/** `<jdkHome>` entries of a toolchains file: JDKs the build may switch to. */
function toolchainJdks(file: string): string[] {
  if (!existsSync(file)) return [];
  const xml = readFileSync(file, 'utf8');
  return [...xml.matchAll(/<jdkHome>\s*([^<]+?)\s*<\/jdkHome>/g)].map((m) => m[1]!).filter((p) => path.isAbsolute(p));
}

export interface FootprintInput {
  workspaceRoot: string;
  cwd: string;
  executable: string;
  /** The stage's Maven arguments (already pointed at the workspace). */
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** A private folder outside the workspace where the sanitized settings copy is written. */
  scratchDir: string;
}

export async function buildFootprint(input: FootprintInput): Promise<BuildFootprint> {
  const maven = resolveMavenUserState({
    args: input.args,
    env: input.env,
    cwd: input.cwd,
    projectRoot: input.workspaceRoot,
  });
  const readOnly: string[] = [];
  for (const name of ETC_ENTRIES) readOnly.push(path.join('/etc', name));
  try {
    for (const name of readdirSync('/etc'))
      if (ETC_PREFIXES.some((prefix) => name.startsWith(prefix))) readOnly.push(path.join('/etc', name));
  } catch {
    // no /etc: nothing to bind
  }
  const jdk = javaHome(input.env);
  if (jdk) readOnly.push(jdk);
  // JAVA_HOME as written too: sdkman's `.../java/current` is a link the resolved path does not bring back.
  if (input.env.JAVA_HOME && path.isAbsolute(input.env.JAVA_HOME)) readOnly.push(input.env.JAVA_HOME);
  readOnly.push(...mavenFiles(input.executable, input.env, input.workspaceRoot));

  const m2 = path.join(maven.userHome, '.m2');
  // mvnw's downloaded distributions, the mvn script's rc file, toolchains and the JDKs they name.
  readOnly.push(path.join(input.env.MAVEN_USER_HOME ?? m2, 'wrapper'), path.join(maven.userHome, '.mavenrc'));
  const toolchains = path.join(m2, 'toolchains.xml');
  readOnly.push(toolchains, ...toolchainJdks(toolchains));
  if (!isInside(maven.localRepository, input.workspaceRoot)) readOnly.push(maven.localRepository);

  const replaced: [string, string][] = [];
  for (const [index, settings] of [maven.userSettings, maven.globalSettings].entries()) {
    if (!settings || !existsSync(settings) || isInside(settings, input.workspaceRoot)) continue;
    const copy = path.join(input.scratchDir, `settings-${index}.xml`);
    await writeFile(copy, sanitizeSettings(readFileSync(settings, 'utf8')));
    replaced.push([copy, settings]);
  }

  const homes = [
    ...new Set(
      [maven.userHome, input.env.HOME].filter(
        (home): home is string => !!home && path.isAbsolute(home) && home !== '/',
      ),
    ),
  ];
  // Tools on PATH that live in the (hidden) home: ~/.sdkman/candidates/maven/current/bin, ~/.local/bin.
  const toolDirs = (input.env.PATH ?? '')
    .split(path.delimiter)
    .filter(
      (folder) =>
        folder && path.isAbsolute(folder) && homes.some((home) => isInside(folder, home)) && existsSync(folder),
    );
  return {
    workspaceRoot: input.workspaceRoot,
    cwd: input.cwd,
    readOnly: [...new Set(readOnly)].filter((p) => existsSync(p)),
    replaced,
    toolDirs: [...new Set(toolDirs)],
    hidden: homes,
    maven,
    settingsSecrets: readSettingsSecrets(maven),
  };
}
