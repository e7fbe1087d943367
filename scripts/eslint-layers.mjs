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
//
// Inside repair/, the same rule holds between its sub-folders (REPAIR_LAYERS): each role
// imports only roles below it, down to loop/ (the loop and its ports), and never the root.
// The root holds only the door, repair/index.ts, and every folder outside repair/ enters
// through it; cli/ does not enter at all (app/ composes the repair for it).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Top to bottom. Folders in one row are peers: they may not import each other. */
export const LAYERS = [
  ['cli'],
  ['app', 'bench'],
  ['repair'],
  ['plugins'],
  ['report'],
  ['workspace', 'model', 'policy'],
  ['patch', 'diagnose', 'codebase'],
  ['maven', 'java'],
  ['shared'],
];

/** The sub-folders of repair/, top to bottom, by role. Peers may not import each other. */
export const REPAIR_LAYERS = [
  ['agent'],
  ['proposers'],
  ['verification'],
  ['fixers'],
  ['dependency-update'],
  ['integrity', 'context'],
  ['loop'],
];

/** The one file at the root of repair/: its door (README.md aside). */
const REPAIR_DOOR = 'repair/index.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

function layerOf(folder, layers = LAYERS) {
  return layers.findIndex((row) => row.includes(folder));
}

function describeLayers(layers = LAYERS) {
  return layers.map((row) => row.join('/')).join(' > ');
}

const posix = (relative) => relative.split(path.sep).join('/');

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'A folder of src/ imports only folders of lower layers (scripts/eslint-layers.mjs).' },
    schema: [],
    messages: {
      upward:
        'src/{{from}} may not import src/{{to}} ({{source}}): {{to}} is {{where}} {{from}}. Layers, top to bottom: {{layers}}.',
      unknownFolder: 'src/{{folder}} is not in the layer table of scripts/eslint-layers.mjs: add it where it belongs.',
      repairDoor:
        'src/{{from}} may not import src/{{target}} ({{source}}): outside repair/, import its door src/repair/index.ts.',
      cliRepair: 'src/cli may not import src/repair ({{source}}): cli/ reaches the repair through src/app/.',
      repairUpward:
        'src/repair/{{from}} may not import src/repair/{{to}} ({{source}}): {{to}} is {{where}} {{from}}. Inside repair/, top to bottom: {{layers}}; the root is only the door.',
      repairRoot:
        'src/repair/{{file}} sits at the root of repair/: only the door index.ts does; put it in the sub-folder of its role ({{layers}}).',
    },
  },
  create(context) {
    const file = context.filename;
    const relative = path.relative(SRC, file);
    if (relative.startsWith('..') || path.isAbsolute(relative) || !relative.includes(path.sep)) return {};
    const from = relative.split(path.sep)[0];
    const rel = posix(relative);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.relative(SRC, path.resolve(path.dirname(file), source));
      if (target.startsWith('..') || path.isAbsolute(target)) return;
      const to = target.split(path.sep)[0];
      if (to === from && from === 'repair') return checkInsideRepair(node, source, rel, posix(target));
      if (to === from) return;
      if (to === 'repair' && from === 'cli') return context.report({ node, messageId: 'cliRepair', data: { source } });
      const targetTs = posix(target).replace(/\.js$/, '.ts');
      if (to === 'repair' && targetTs !== REPAIR_DOOR && layerOf(from) >= 0 && layerOf(from) < layerOf('repair')) {
        return context.report({ node, messageId: 'repairDoor', data: { from, target: targetTs, source } });
      }
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
    function checkInsideRepair(node, source, fromFile, targetFile) {
      const fromRole = fromFile.split('/')[1];
      const toParts = targetFile.split('/');
      // The root (the door) may import every role; a role never imports the root.
      if (!fromFile.slice('repair/'.length).includes('/')) return;
      const toRole = toParts.length > 2 ? toParts[1] : '(the root)';
      if (toRole === fromRole) return;
      const [fromLayer, toLayer] = [layerOf(fromRole, REPAIR_LAYERS), layerOf(toRole, REPAIR_LAYERS)];
      if (fromLayer >= 0 && toLayer > fromLayer) return;
      context.report({
        node,
        messageId: 'repairUpward',
        data: {
          from: fromRole,
          to: toRole,
          source,
          where: toLayer < 0 ? 'not a role below' : toLayer === fromLayer ? 'a peer of' : 'above',
          layers: describeLayers(REPAIR_LAYERS),
        },
      });
    }
    return {
      Program: (node) => {
        if (from === 'repair' && !rel.slice('repair/'.length).includes('/') && rel !== REPAIR_DOOR) {
          context.report({
            node,
            messageId: 'repairRoot',
            data: { file: rel.slice('repair/'.length), layers: describeLayers(REPAIR_LAYERS) },
          });
        }
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { layers: layersRule } };
