/**
 * Who made a folder (issue 44): every folder a run makes in TMPDIR (its workspace, its log
 * spool, its reused outputs) and its `.mvnx/runs/<id>/` carries a small file naming the
 * process (pid and, where /proc says, its start time). A run killed with SIGKILL cannot
 * remove what it made; the next run reads the marker and removes the folder only when its
 * owner is provably gone: no process with that pid, or one that started at another time
 * (the pid was reused). A folder without a marker (made by an older mvnx, or by something
 * else) is never touched.
 */
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const OWNER_FILE = '.mvnx-owner';

export interface FolderOwner {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot): with the pid, names one process for good. */
  startTicks?: number;
  /** When the folder was made. */
  createdAt: string;
  /**
   * The PID namespace the pid belongs to (`pid:[…]` of /proc/self/ns/pid): a pid from a container sharing TMPDIR
   * names nothing here, so its owner is never judged gone.
   */
  pidNamespace?: string;
  /** A log spool's: the process group Maven runs in (its leader's pid) and the leader's start time. */
  mavenGroup?: number;
  mavenGroupStartTicks?: number;
}

function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

/** The process's start time as /proc tells it; undefined where there is no /proc (or the process is gone). */
export function processStartTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** The state letter of /proc/<pid>/stat (R, S, Z, ...). */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

let self: FolderOwner | undefined;

/** This process, as a marker names it (the start time read once). */
export function thisProcess(): FolderOwner {
  if (!self) {
    self = { pid: process.pid, createdAt: '' };
    const namespace = pidNamespace();
    if (namespace !== undefined) self.pidNamespace = namespace;
  }
  const ticks = self.startTicks ?? processStartTicks(process.pid);
  if (ticks !== undefined) self.startTicks = ticks;
  return { ...self, createdAt: new Date().toISOString() };
}

/**
 * The start of a temp folder's name that names its maker too: `mvnx-ws-<pid>-n<pid namespace>-` (the namespace's
 * number where /proc tells it). Between making a folder and writing its marker a kill can fall; the name still says
 * whose the folder is, so the next run can remove it once that pid is gone (ownerFromName).
 */
export function ownedPrefix(kind: string): string {
  const namespace = /\[(\d+)\]/.exec(thisProcess().pidNamespace ?? '')?.[1];
  return `${kind}${process.pid}-${namespace ? `n${namespace}-` : ''}`;
}

const OWNED_NAME = /^mvnx-(?:ws|log|outputs)-(\d+)-(?:n(\d+)-)?/;

/** The maker a folder's name carries (ownedPrefix), without a start time; undefined for other names. */
export function ownerFromName(name: string): FolderOwner | undefined {
  const match = OWNED_NAME.exec(name);
  const pid = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  return { pid, createdAt: '', ...(match[2] ? { pidNamespace: `pid:[${match[2]}]` } : {}) };
}

/** Marks `dir` as this process's (synchronous: the log spool is made just before Maven is spawned). */
export function markOwnerSync(dir: string, extra: Record<string, unknown> = {}): void {
  writeFileSync(path.join(dir, OWNER_FILE), `${JSON.stringify({ ...thisProcess(), ...extra })}\n`);
}

export async function markOwner(dir: string, extra: Record<string, unknown> = {}): Promise<void> {
  await writeFile(path.join(dir, OWNER_FILE), `${JSON.stringify({ ...thisProcess(), ...extra })}\n`);
}

function ownerOf(text: string): (FolderOwner & Record<string, unknown>) | undefined {
  const value = JSON.parse(text) as Record<string, unknown>;
  if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return undefined;
  return value as FolderOwner & Record<string, unknown>;
}

/** The marker of `dir` with whatever else it holds; undefined when there is none or it cannot be read. */
export async function readOwner(dir: string): Promise<(FolderOwner & Record<string, unknown>) | undefined> {
  try {
    return ownerOf(await readFile(path.join(dir, OWNER_FILE), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The same, blocking (for the record stream's synchronous reads). */
export function readOwnerSync(dir: string): (FolderOwner & Record<string, unknown>) | undefined {
  try {
    return ownerOf(readFileSync(path.join(dir, OWNER_FILE), 'utf8'));
  } catch {
    return undefined;
  }
}

/** True only when the owner is provably gone: its pid is free, or taken by a process that started at another time. */
export function ownerIsGone(owner: FolderOwner): boolean {
  if (owner.pidNamespace !== undefined && owner.pidNamespace !== thisProcess().pidNamespace) return false;
  if (owner.pid === process.pid) return owner.startTicks !== undefined && owner.startTicks !== thisProcess().startTicks;
  try {
    process.kill(owner.pid, 0);
    // Killed but not yet reaped by its parent: nothing of it runs any more.
    if (processState(owner.pid) === 'Z') return true;
  } catch (error) {
    // EPERM: a process of another user has that pid; it is alive as far as anyone can tell.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const ticks = processStartTicks(owner.pid);
  return owner.startTicks !== undefined && ticks !== undefined && ticks !== owner.startTicks;
}
