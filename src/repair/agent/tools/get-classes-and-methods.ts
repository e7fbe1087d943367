/** get_classes_and_methods: a Java file's outline, read through src/java's parser. */
import { outline } from '../../../java/index.js';
import { defineTool, fileParameter, fit, plural, projectPath, readJava, widthFor } from './support/tool-kit.js';

export const getClassesAndMethods = defineTool(
  'get_classes_and_methods',
  'outline of a Java file: its types, methods and constructors with line numbers',
  { file: fileParameter },
  async (args, view) => {
    const file = projectPath('get_classes_and_methods', args, 'file', view);
    const { lines, java } = await readJava('get_classes_and_methods', view, file);
    const found = outline(java);
    if (found.length === 0)
      return {
        ok: true,
        output: `no class, interface, enum, record or method found in ${file} (${plural(lines.length, 'line', 'lines')})`,
      };
    const width = widthFor(lines.length);
    const rows = found.map(
      (entry) => `${String(entry.line).padStart(width)}: ${'  '.repeat(entry.depth)}${entry.signature}`,
    );
    const tail = (k: number) =>
      k < found.length
        ? `... ${plural(found.length - k, 'more declaration', 'more declarations')} not shown: read them with read_range from line ${found[k]?.line}`
        : '';
    return { ok: true, output: fit(rows, tail) };
  },
);
