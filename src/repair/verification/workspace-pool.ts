/**
 * Workspaces for builds that may run at the same time (an agent's candidate fixes): the
 * first is the repair's own workspace, more are copied from the project only when two
 * builds are wanted at once, up to `size`. A caller gets a workspace to itself until its
 * work is done; everything made here is removed by dispose().
 */
import { createWorkspace, type Workspace } from '../../workspace/index.js';

export interface WorkspacePool {
  use<T>(work: (workspace: Workspace) => Promise<T>): Promise<T>;
  /** Workspaces made so far (the first included). */
  size(): number;
  dispose(): Promise<void>;
}

export function createWorkspacePool(first: Workspace, projectRoot: string, limit: number): WorkspacePool {
  const all: Workspace[] = [first];
  const free: Workspace[] = [first];
  const waiting: ((workspace: Workspace) => void)[] = [];
  let creating = 0;

  const acquire = async (): Promise<Workspace> => {
    const ready = free.shift();
    if (ready) return ready;
    if (all.length + creating < limit) {
      creating++;
      try {
        const made = await createWorkspace(projectRoot);
        all.push(made);
        return made;
      } finally {
        creating--;
      }
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (workspace: Workspace) => {
    const next = waiting.shift();
    if (next) next(workspace);
    else free.push(workspace);
  };

  return {
    async use(work) {
      const workspace = await acquire();
      try {
        return await work(workspace);
      } finally {
        release(workspace);
      }
    },
    size: () => all.length,
    // The first workspace belongs to the repair session, which disposes of it.
    dispose: async () => {
      await Promise.all(all.slice(1).map((workspace) => workspace.dispose()));
    },
  };
}
