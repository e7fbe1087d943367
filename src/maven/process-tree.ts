/**
 * Signalling Maven's whole process tree. Maven forks JVMs (Surefire, javac forks) and
 * execa only signals its direct child, so a detached Maven is signalled through its own
 * process group. A Maven kept in our group (interactive terminal) is signalled along
 * with its descendants as /proc lists them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { processStartTicks } from './owner-marker.js';

export function signalProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: the group is already gone.
    return false;
  }
}

/** Descendants of `pid`, deepest last; empty where /proc is not available. */
export function descendantPids(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const child of childPids(current)) {
      if (!found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function childPids(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
      for (const token of text.split(/\s+/)) if (token) children.push(Number(token));
    } catch {
      // The thread ended while we looked.
    }
  }
  return children;
}

export function signalTree(pid: number, signal: NodeJS.Signals, ownGroup: boolean): void {
  if (ownGroup && signalProcessGroup(pid, signal)) return;
  // Collect before signalling: once the parent dies, its children are re-parented away.
  const pids = [pid, ...descendantPids(pid)];
  for (const target of pids) {
    try {
      process.kill(target, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Kills what is left of the process group `pgid` that a killed mvnx started Maven in, and returns its members' pids.
 * Not when that number now leads another process (its start time differs): Linux does not hand out a pid still in use
 * as a group's id, so a group whose leader is gone but whose members live is still the same group.
 */
export function killLeftGroup(pgid: number, leaderStartTicks: number | undefined): number[] {
  const leaderTicks = processStartTicks(pgid);
  if (leaderTicks !== undefined && leaderTicks !== leaderStartTicks) return [];
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return members;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command name: state, ppid, pgrp.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid) members.push(Number(entry));
    } catch {
      // Ended while we looked.
    }
  }
  if (members.length === 0 || members.includes(process.pid)) return [];
  return signalProcessGroup(pgid, 'SIGKILL') ? members : [];
}

/**
 * Set in an unsandboxed verification stage's environment (workspace/launch.ts), so that a process that left the group
 * is still found. Its value starts with the stage's workspace folder: a later run that finds the workspace of a killed
 * mvnx also finds the builds it left running (report/killed-runs.ts).
 */
export const STAGE_MARKER = 'MVNX_VERIFY_STAGE';

/**
 * Kills every process of ours whose environment holds `name=value`: the processes an
 * unsandboxed build started that left its process group (`setsid`, a daemonising fork).
 * Linux only (/proc); a process that cleared its environment is not found.
 */
export function killByEnvironmentMarker(name: string, value: string): number[] {
  return killByEnvironment(name, (found) => found === value);
}

/** The same for every process whose value of `name` passes `matches`. */
export function killByEnvironment(name: string, matches: (value: string) => boolean): number[] {
  const prefix = `${name}=`;
  const killed: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return killed;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue;
    }
    const variable = environ.split('\0').find((entry) => entry.startsWith(prefix));
    if (variable === undefined || !matches(variable.slice(prefix.length))) continue;
    try {
      process.kill(Number(entry), 'SIGKILL');
      killed.push(Number(entry));
    } catch {
      // Gone already.
    }
  }
  return killed;
}
