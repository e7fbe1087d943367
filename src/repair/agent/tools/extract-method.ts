/** extract_method: one method's source (every overload), read through src/java's parser. */
import { outline } from '../../../java/index.js';
import {
  BadCall,
  defineTool,
  fileParameter,
  fit,
  given,
  MAX_NAMES,
  numberedRanges,
  projectPath,
  readJava,
  someOf,
} from './support/tool-kit.js';

/** `Calculator.add(int, int)`, `Calculator#add` and `add` all name `add`. */
function methodName(tool: string, raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new BadCall(`${tool} needs "method" (a method or constructor name)${given(raw)}`);
  const wanted = raw.split('(')[0]?.trim().split(/[.#]/).at(-1) ?? '';
  if (!/^[A-Za-z_$][\w$]*$/.test(wanted))
    throw new BadCall(`${tool} needs "method" as a name such as add${given(raw)}`);
  return wanted;
}

export const extractMethod = defineTool(
  'extract_method',
  'the numbered source of every method or constructor with this name in a file',
  { file: fileParameter, method: { type: 'string', description: 'method or constructor name, e.g. add' } },
  async (args, view) => {
    const file = projectPath('extract_method', args, 'file', view);
    const wanted = methodName('extract_method', args.method);
    const { lines, java } = await readJava('extract_method', view, file);
    const methods = outline(java).filter((entry) => entry.kind !== 'type');
    const matching = methods.filter((entry) => entry.name === wanted);
    if (matching.length === 0) {
      const names = [...new Set(methods.map((entry) => entry.name))];
      return {
        ok: false,
        output:
          names.length > 0
            ? `no method ${wanted} in ${file}; its methods are: ${someOf(names, MAX_NAMES)}`
            : `no method ${wanted} in ${file}: it declares no methods or constructors`,
      };
    }
    const { rows, numbers } = numberedRanges(
      lines,
      matching.map((entry) => ({ from: entry.range.startLine, to: entry.range.endLine })),
    );
    const tail = (k: number) =>
      k < rows.length
        ? `... cut at the output limit: read the rest with read_range from line ${numbers.slice(k).find((n) => n > 0)}`
        : '';
    return { ok: true, output: fit(rows, tail) };
  },
);
