/**
 * A module's class dependency graph, from its compiled classes (class-refs.ts), and the
 * two questions verification asks of it. Pure.
 *
 * - Which test classes can a change reach? Static class-level regression test selection
 *   as in STARTS (Legunsen et al., FSE 2016 / ASE 2017): a test class is selected when a
 *   changed class is among its transitive dependencies. A class that loads classes by
 *   name (reflection, `ServiceLoader`) may reach any class, so a test that reaches one is
 *   selected too.
 * - Which classes must be compiled again? The classes that use a changed class, read
 *   from the same edges, directly or transitively.
 */
import type { ClassRefs } from './class-refs.js';

export interface ClassNode extends ClassRefs {
  /** Main code (target/classes) or test code (target/test-classes). */
  root: 'main' | 'test';
}

export interface ClassGraph {
  classes: ReadonlyMap<string, ClassNode>;
  /** Class name -> the classes of the graph that name it. */
  users: ReadonlyMap<string, ReadonlySet<string>>;
}

export function buildClassGraph(nodes: readonly ClassNode[]): ClassGraph {
  // The same name twice (a multi-release jar's META-INF/versions/N copy): one node using what either uses.
  const classes = new Map<string, ClassNode>();
  for (const node of nodes) {
    const seen = classes.get(node.name);
    classes.set(
      node.name,
      seen
        ? {
            ...seen,
            references: [...new Set([...seen.references, ...node.references])].sort(),
            ...((seen.dynamic ?? node.dynamic) ? { dynamic: (seen.dynamic ?? node.dynamic)! } : {}),
          }
        : node,
    );
  }
  const users = new Map<string, Set<string>>();
  for (const node of nodes) {
    for (const used of node.references) {
      if (!classes.has(used)) continue;
      let set = users.get(used);
      if (!set) users.set(used, (set = new Set()));
      set.add(node.name);
    }
  }
  return { classes, users };
}

/**
 * The source file a class was compiled from, relative to its source root: `com/acme/Outer.java` for
 * `com.acme.Outer$Inner`.
 */
export function sourcePathOf(node: Pick<ClassNode, 'name' | 'sourceFile'>): string {
  const dot = node.name.lastIndexOf('.');
  const packagePath = dot < 0 ? '' : `${node.name.slice(0, dot).replace(/\./g, '/')}/`;
  const file = node.sourceFile ?? `${node.name.slice(dot + 1).split('$')[0]}.java`;
  return packagePath + file;
}

/** The classes that use any of `changed` (directly, or through other classes when `transitive`), `changed` left out. */
export function usersOf(graph: ClassGraph, changed: Iterable<string>, transitive: boolean): Set<string> {
  const start = new Set(changed);
  const found = new Set<string>();
  let frontier = [...start];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const name of frontier) {
      for (const user of graph.users.get(name) ?? []) {
        if (start.has(user) || found.has(user)) continue;
        found.add(user);
        next.push(user);
      }
    }
    frontier = transitive ? next : [];
  }
  return found;
}

export interface TestSelection {
  /**
   * Test classes that can reach a changed class, with what they reach (a changed class, or one that loads classes by
   * name).
   */
  selected: { name: string; reaches: string }[];
  /** Test classes that cannot. */
  notSelected: string[];
}

/**
 * The test classes (top-level classes of the test code, or those named in `tests`) whose
 * transitive dependencies hold a changed class or a class that loads classes by name.
 */
export function selectTests(graph: ClassGraph, changed: readonly string[], tests?: readonly string[]): TestSelection {
  // Walk the edges backwards once: every class that reaches a target, and which target.
  const reaches = new Map<string, string>();
  const targets = [
    ...changed.filter((name) => graph.classes.has(name)),
    ...[...graph.classes.values()]
      .filter((node) => node.dynamic && !changed.includes(node.name))
      .map((node) => node.name),
  ];
  for (const target of targets) {
    if (reaches.has(target)) continue;
    const what = changed.includes(target) ? target : `${target}, which ${graph.classes.get(target)!.dynamic}`;
    reaches.set(target, what);
    for (const user of usersOf(graph, [target], true)) if (!reaches.has(user)) reaches.set(user, what);
  }
  const candidates =
    tests ??
    [...graph.classes.values()]
      .filter((node) => node.root === 'test' && !node.name.includes('$'))
      .map((node) => node.name);
  const selection: TestSelection = { selected: [], notSelected: [] };
  for (const name of [...candidates].sort()) {
    const what = reaches.get(name);
    if (what) selection.selected.push({ name, reaches: what });
    else selection.notSelected.push(name);
  }
  return selection;
}
