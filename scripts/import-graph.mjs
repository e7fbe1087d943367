// The import graph of a folder of TypeScript files, and its circles.
//
// `mvnx/layers` (scripts/eslint-layers.mjs) keeps the top-level folders of src/ one-way;
// inside a folder it cannot see a circle. This reads every .ts file under a folder, follows
// its relative imports (static `import` and `export ... from`, `import type` included, and
// `import('...')` with a literal: a type is a dependency too) and returns each strongly
// connected component of more than one file: a set of files that import each other,
// directly or round a longer loop. test/unit/import-circles.test.ts holds src/ to none.
//
// Run as a script: `node scripts/import-graph.mjs [folder]` prints each circle (default
// src/) and exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Every .ts file under `dir` (declaration files left out), relative to it with `/`. */
function tsFiles(dir, under = '') {
  const files = [];
  for (const entry of readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const relative = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...tsFiles(dir, relative));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(relative);
  }
  return files;
}

/** The file of the folder a relative specifier names (`./x.js` is `x.ts`), or undefined. */
function resolveImport(files, from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, `${target}/index.ts`];
  return candidates.find((candidate) => files.has(candidate));
}

/**
 * The import graph of the .ts files under `dir`: each file (relative, `/`) to the files of
 * the folder it imports. TypeScript's own pre-processor reads the imports, so an import in
 * a comment or a string is not one.
 */
export function importGraph(dir) {
  const files = new Set(tsFiles(dir));
  const graph = new Map();
  for (const file of [...files].sort()) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(dir, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => resolveImport(files, file, imported.fileName))
      .filter((target) => target !== undefined);
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
function circlesOf(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (file) => {
    index.set(file, index.size);
    low.set(file, index.get(file));
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file), index.get(target)));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The import circles among the .ts files under `dir`: each a sorted list of relative paths. */
export function findImportCircles(dir) {
  return circlesOf(importGraph(dir));
}

/** One line per circle: `a.ts <-> b.ts <-> c.ts`. */
export function describeCircles(circles) {
  return circles.map((circle) => circle.join(' <-> ')).join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src'));
  const circles = findImportCircles(dir);
  if (circles.length > 0) {
    console.error(`${circles.length} import circle(s) under ${dir}:\n${describeCircles(circles)}`);
    process.exitCode = 1;
  }
}
