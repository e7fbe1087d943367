// The folder boundaries of src/, as an ESLint rule (`mvnx/layers`, on in eslint.config.js).
//
// Each folder of src/ is a stage, and stages form layers: a folder may import its own files
// and folders of LOWER layers only, never one of its own layer or above. So cli/, repair/
// and plugins/ are never imported from below, and the folder-level import graph has no
// cycle by construction. docs/ARCHITECTURE.md shows the same table.
//
// Static imports, `export ... from` and `import('...')` with a literal path are checked,
// `import type` included, with no exception: a type is a dependency too (the shapes plugins/
// and repair/ share live in src/plugins/contracts.ts, below repair/). A folder not in the
// table is an error (say where it sits).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Top to bottom. Folders in one row are peers: they may not import each other. */
export const LAYERS = [
  ['cli'],
  ['bench'],
  ['repair'],
  ['plugins'],
  ['report'],
  ['workspace', 'model', 'policy'],
  ['patch', 'diagnose', 'codebase'],
  ['maven', 'java'],
  ['shared'],
];

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

function layerOf(folder) {
  return LAYERS.findIndex((row) => row.includes(folder));
}

function describeLayers() {
  return LAYERS.map((row) => row.join('/')).join(' > ');
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'A folder of src/ imports only folders of lower layers (scripts/eslint-layers.mjs).' },
    schema: [],
    messages: {
      upward: "src/{{from}} may not import src/{{to}} ({{source}}): {{to}} is {{where}} {{from}}. Layers, top to bottom: {{layers}}.",
      unknownFolder: 'src/{{folder}} is not in the layer table of scripts/eslint-layers.mjs: add it where it belongs.',
    },
  },
  create(context) {
    const file = context.filename;
    const relative = path.relative(SRC, file);
    if (relative.startsWith('..') || path.isAbsolute(relative) || !relative.includes(path.sep)) return {};
    const from = relative.split(path.sep)[0];
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.relative(SRC, path.resolve(path.dirname(file), source));
      if (target.startsWith('..') || path.isAbsolute(target)) return;
      const to = target.split(path.sep)[0];
      if (to === from) return;
      const [fromLayer, toLayer] = [layerOf(from), layerOf(to)];
      if (fromLayer < 0) return context.report({ node, messageId: 'unknownFolder', data: { folder: from } });
      if (toLayer < 0) return context.report({ node, messageId: 'unknownFolder', data: { folder: to } });
      if (toLayer > fromLayer) return;
      context.report({
        node,
        messageId: 'upward',
        data: { from, to, source, where: toLayer === fromLayer ? 'a peer of' : 'above', layers: describeLayers() },
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { layers: layersRule } };
