/**
 * The bubblewrap profile of a verification build. Nothing of the host is visible unless
 * it is bound here:
 *
 *   --unshare-all            own network (loopback only), PID, IPC, UTS and user namespaces:
 *                            no TCP, no abstract Unix sockets, no process of the host
 *   --die-with-parent        and the PID namespace: when the build's first process ends
 *                            (or mvnx dies), every process it started dies with it
 *   --new-session            no TIOCSTI keystrokes into the user's terminal
 *   system folders           /usr and the /bin, /lib... links of merged-/usr, read-only
 *   /etc entries             only what the JDK and Maven read (passwd, hosts, java, maven, ssl...)
 *   --tmpfs HOME             the user's home is empty, then only the parts a build needs
 *                            come back read-only: the local repository, settings.xml
 *                            without its passwords, toolchains, mvnw's distributions
 *   --tmpfs /tmp             a private /tmp
 *   --bind WS WS             the workspace, the only writable host folder
 *   --remount-ro /           the sandbox's own root is read-only: a write anywhere else
 *                            fails (the tmpfs home and /tmp take writes that vanish)
 *
 * Host Unix sockets (a Docker socket, an ssh-agent) live under /run, /var/run, /tmp or
 * $HOME: none of those is bound. Pure: the footprint says what exists.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { SYSTEM_DIRS, type BuildFootprint } from './build-footprint.js';

/** The namespace and session flags, shared with the availability probe so that the probe tests exactly these. */
export const BWRAP_ISOLATION = ['--unshare-all', '--die-with-parent', '--new-session'];

/** System folders: a merged-/usr link is recreated as a link, a real folder is bound read-only. */
export function systemBinds(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    let link: string | undefined;
    try {
      const info = lstatSync(dir);
      if (info.isSymbolicLink()) link = readlinkSync(dir);
      else if (!info.isDirectory()) continue;
    } catch {
      continue;
    }
    args.push(...(link === undefined ? ['--ro-bind', dir, dir] : ['--symlink', link, dir]));
  }
  return args;
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}

/** bwrap arguments up to (not including) `--`, for a build with this footprint. */
export function bwrapArgs(footprint: BuildFootprint): string[] {
  const underSystem = (p: string) => SYSTEM_DIRS.some((dir) => isInside(p, dir));
  const args = [...BWRAP_ISOLATION, ...systemBinds(), '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp'];
  // Hidden folders first: the binds below are mounted on top of the empty tmpfs.
  for (const dir of footprint.hidden) if (!underSystem(dir)) args.push('--tmpfs', dir);
  for (const p of [...footprint.readOnly, ...footprint.toolDirs]) if (!underSystem(p)) args.push('--ro-bind-try', p, p);
  for (const [copy, original] of footprint.replaced) args.push('--ro-bind', copy, original);
  args.push('--bind', footprint.workspaceRoot, footprint.workspaceRoot);
  // The sandbox's own root (where bwrap made the mount points) is read-only too.
  args.push('--remount-ro', '/');
  // A private TMPDIR: the host's may be a folder that is not bound at all.
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', footprint.cwd);
  return args;
}
