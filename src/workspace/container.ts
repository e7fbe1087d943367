/**
 * The container profile of a verification build (`sandbox.mode: docker|podman`), for
 * where bubblewrap cannot run (macOS, a CI runner without user namespaces):
 *
 *   run --rm --name N        removed when it ends; `rm -f N` after an interrupted stage
 *   --pull never             the network is off anyway: a missing image is an error, not a download
 *   --network none           no network at all
 *   --read-only, --tmpfs /tmp  the image is not writable; a private /tmp
 *   --cap-drop ALL, --security-opt no-new-privileges
 *   -v WS:WS                 the workspace at the same path, read-write (paths in logs and
 *                            reports read the same as on the host)
 *   -v REPO:REPO:ro          the local repository, read-only; settings.xml without its
 *                            passwords, read-only
 *   -e NAME                  only the allowlisted variables, values taken from the client's
 *                            environment (never on the command line, where `ps` shows them)
 *
 * The image brings its own JDK and Maven (`mvn` on its PATH), so the host's PATH,
 * JAVA_HOME and Maven paths are not passed; the project's own `mvnw` runs as it is.
 * Pure.
 */
import path from 'node:path';
import type { BuildFootprint } from './build-footprint.js';

export type ContainerEngine = 'docker' | 'podman';

/** Host-specific paths that mean nothing inside an image. */
const HOST_ONLY_ENV = new Set(['PATH', 'JAVA_HOME', 'MAVEN_HOME', 'M2_HOME', 'TMPDIR']);

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}

/** Flags every container run gets, the probe included. */
export function containerIsolation(engine: ContainerEngine): string[] {
  return [
    '--rm',
    '--pull',
    'never',
    '--network',
    'none',
    '--read-only',
    '--tmpfs',
    '/tmp',
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    // A rootless podman maps the user's own uid in, so files in the workspace stay the user's.
    ...(engine === 'podman' ? ['--userns', 'keep-id'] : []),
  ];
}

export interface ContainerRun {
  engine: ContainerEngine;
  image: string;
  name: string;
  footprint: BuildFootprint;
  /** The allowlisted environment (names only go on the command line). */
  env: NodeJS.ProcessEnv;
  /** The Maven executable on the host; used as is only when it is the project's wrapper. */
  executable: string;
  args: string[];
  /** The user's uid:gid for docker, so build output in the workspace is not root's. */
  user?: string;
}

/**
 * The client's arguments, and the variables to set in the client's own environment for
 * `-e NAME` (the client keeps the rest of the host's environment: DOCKER_HOST, its config).
 */
export function containerCommand(run: ContainerRun): { args: string[]; env: NodeJS.ProcessEnv } {
  const { footprint } = run;
  const mounts: string[] = [];
  for (const p of footprint.readOnly) {
    // The host's JDK, Maven and /etc mean nothing inside the image: only the user's Maven state goes in.
    if (isInside(p, footprint.maven.userHome) || p === footprint.maven.localRepository)
      mounts.push('-v', `${p}:${p}:ro`);
  }
  for (const [copy, original] of footprint.replaced) mounts.push('-v', `${copy}:${original}:ro`);
  mounts.push('-v', `${footprint.workspaceRoot}:${footprint.workspaceRoot}`);

  const clientEnv: NodeJS.ProcessEnv = {};
  const envFlags: string[] = [];
  for (const [name, value] of Object.entries(run.env)) {
    if (value === undefined || HOST_ONLY_ENV.has(name)) continue;
    clientEnv[name] = value;
    envFlags.push('-e', name);
  }
  // Maven finds ~/.m2 through Java's user.home, which inside the image is the image's user.
  clientEnv.MAVEN_OPTS = [run.env.MAVEN_OPTS, `-Duser.home=${footprint.maven.userHome}`].filter(Boolean).join(' ');
  if (!envFlags.includes('MAVEN_OPTS')) envFlags.push('-e', 'MAVEN_OPTS');
  // HOME is no secret, and the client itself must keep its own (~/.docker/config.json).
  const home = envFlags.indexOf('HOME');
  if (home >= 0) envFlags.splice(home - 1, 2);
  delete clientEnv.HOME;
  envFlags.push('-e', `HOME=${footprint.maven.userHome}`);

  const inWorkspace = path.isAbsolute(run.executable) && isInside(run.executable, footprint.workspaceRoot);
  const maven = inWorkspace ? run.executable : 'mvn';
  return {
    args: [
      'run',
      ...containerIsolation(run.engine),
      '--name',
      run.name,
      ...(run.user && run.engine === 'docker' ? ['--user', run.user] : []),
      ...mounts,
      ...envFlags,
      '-w',
      footprint.cwd,
      run.image,
      maven,
      ...run.args,
    ],
    env: clientEnv,
  };
}

/** The image suggested for a Java release (`17` -> maven:3.9-eclipse-temurin-17), for doctor, init and auto. */
export function suggestedImage(javaRelease: string | undefined): string {
  return `maven:3.9-eclipse-temurin-${javaRelease && /^\d+$/.test(javaRelease) ? javaRelease : '17'}`;
}
