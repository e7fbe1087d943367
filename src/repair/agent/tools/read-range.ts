/** read_range: open a file at a line, as a developer does before touching a failing build. */
import {
  BadCall,
  defineTool,
  fileParameter,
  fit,
  integer,
  numbered,
  plural,
  projectPath,
  readLines,
  span,
  widthFor,
} from './support/tool-kit.js';

const MAX_LINES = 200;
const DEFAULT_LINES = 60;

export const readRange = defineTool(
  'read_range',
  `numbered lines start..end of a project file (at most ${MAX_LINES}; end defaults to start+${DEFAULT_LINES - 1})`,
  {
    file: fileParameter,
    start: { type: 'integer', description: 'first line, from 1' },
    end: { type: 'integer', description: 'last line, inclusive', optional: true },
  },
  async (args, view) => {
    const file = projectPath('read_range', args, 'file', view);
    const start = integer('read_range', args, 'start', 'the first line to show, a whole number from 1') as number;
    if (start < 1) throw new BadCall(`read_range needs "start" to be 1 or more, got ${start}`);
    const end = integer('read_range', args, 'end', 'the last line to show', true) ?? start + DEFAULT_LINES - 1;
    if (end < start) throw new BadCall(`read_range needs "end" (${end}) to be at least "start" (${start})`);
    const lines = await readLines(view, file);
    if (lines.length === 0) return { ok: false, output: `${file} is empty` };
    if (start > lines.length)
      return {
        ok: false,
        output: `${file} has ${plural(lines.length, 'line', 'lines')}; start ${start} is past its end`,
      };
    const last = Math.min(end, lines.length);
    const width = widthFor(lines.length);
    const shown = Array.from({ length: Math.min(last, start + MAX_LINES - 1) - start + 1 }, (_, i) =>
      numbered(lines, start + i, width),
    );
    const clamped = end > lines.length ? `(the file has ${plural(lines.length, 'line', 'lines')})` : '';
    const tail = (k: number) =>
      [start + k <= last ? `... ${span(start + k, last)} not shown: ask for them with another read_range` : '', clamped]
        .filter(Boolean)
        .join(' ');
    return { ok: true, output: fit(shown, tail) };
  },
);
