/**
 * The process-wide safety net for workspaces: whatever is still registered when mvnx
 * exits (normally, by an uncaught exception, or by SIGINT/SIGTERM/SIGHUP) is removed, so
 * an interrupted repair never leaves a copy of the project in the temp folder.
 *
 * Removal at exit has to be synchronous: Node runs no more async work after 'exit'.
 *
 * Signals: when nothing else in the process handles the signal, we remove the folders and
 * re-raise it with the default action, so mvnx still dies "by SIGINT" as a shell expects.
 * When another handler is installed (runMaven forwarding the signal to Maven's process
 * tree, or the loop aborting), that handler owns the shutdown: removing the folder under
 * a Maven that is still stopping could let it recreate parts of it, so we wait for
 * `dispose()` or the 'exit' sweep instead.
 */
import { rmSync } from 'node:fs';

const HANDLED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const live = new Set<string>();
let installed = false;

/** Removes `dir` recursively at exit unless the returned function is called first. */
export function registerCleanup(dir: string): () => void {
  install();
  live.add(dir);
  return () => {
    live.delete(dir);
  };
}

/** Folders that would be removed if the process exited now (for diagnostics and tests). */
export function liveCleanupPaths(): string[] {
  return [...live];
}

function removeAllSync(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Exiting anyway: nothing useful can be done about a folder that will not go.
    }
    live.delete(dir);
  }
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  removeAllSync();
  for (const s of HANDLED_SIGNALS) process.off(s, onSignal);
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', removeAllSync);
  for (const signal of HANDLED_SIGNALS) process.on(signal, onSignal);
}
