/**
 * Inline SVG charts for the HTML report: no script, no font or image from anywhere, so
 * the page renders the same offline, in a mail attachment or in a CI artifact viewer. Pure.
 */

export const COLORS = {
  runs: '#9db4d3',
  fixed: '#1f6f43',
  applied: '#2c7fb8',
  adopted: '#41ab5d',
  merged: '#238b45',
  open: '#c8c8c8',
  superseded: '#fdae61',
  reverted: '#d7191c',
  bar: '#4a78b0',
  axis: '#555555',
} as const;

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

export interface Segment {
  value: number;
  color: string;
  name: string;
}

export interface BarRow {
  label: string;
  /** Stacked parts of the bar, left to right. */
  segments: Segment[];
  /** Text after the bar (e.g. "64% (16 of 25)"). */
  text: string;
}

const LABEL_WIDTH = 230;
const BAR_WIDTH = 380;
const ROW = 26;

/** Horizontal bars, one row each, stacked segments scaled to `max` (default: the largest row). */
export function barChart(
  id: string,
  title: string,
  rows: readonly BarRow[],
  options: { max?: number; legend?: Segment[] } = {},
): string {
  const total = (row: BarRow) => row.segments.reduce((sum, segment) => sum + segment.value, 0);
  const max = options.max ?? Math.max(1, ...rows.map(total));
  const legendHeight = options.legend ? 24 : 0;
  const height = Math.max(1, rows.length) * ROW + 12 + legendHeight;
  const width = LABEL_WIDTH + BAR_WIDTH + 170;
  const parts: string[] = [];
  rows.forEach((row, index) => {
    const y = 6 + legendHeight + index * ROW;
    parts.push(
      `<text x="${LABEL_WIDTH - 8}" y="${y + 15}" text-anchor="end" class="label">${escapeHtml(row.label)}</text>`,
    );
    parts.push(`<rect x="${LABEL_WIDTH}" y="${y + 2}" width="${BAR_WIDTH}" height="${ROW - 8}" fill="#f1f1f1"/>`);
    let x = LABEL_WIDTH;
    for (const segment of row.segments) {
      const w = (segment.value / max) * BAR_WIDTH;
      if (w <= 0) continue;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y + 2}" width="${w.toFixed(1)}" height="${ROW - 8}" fill="${segment.color}"><title>${escapeHtml(`${row.label}: ${segment.name} ${segment.value}`)}</title></rect>`,
      );
      x += w;
    }
    parts.push(`<text x="${LABEL_WIDTH + BAR_WIDTH + 8}" y="${y + 15}" class="value">${escapeHtml(row.text)}</text>`);
  });
  if (rows.length === 0)
    parts.push(`<text x="${LABEL_WIDTH}" y="${18 + legendHeight}" class="label">no data in this window</text>`);
  if (options.legend) parts.push(legend(options.legend, LABEL_WIDTH, 4));
  return figure(id, title, width, height, parts);
}

function legend(items: readonly Segment[], x: number, y: number): string {
  return items
    .map((item, index) => {
      const left = x + index * 105;
      return `<rect x="${left}" y="${y}" width="12" height="12" fill="${item.color}"/><text x="${left + 16}" y="${y + 11}" class="legend">${escapeHtml(item.name)}</text>`;
    })
    .join('');
}

export interface TimePoint {
  label: string;
  runs: number;
  fixed: number;
}

/** Runs and verified fixes per period, as paired columns. */
export function timeChart(id: string, title: string, points: readonly TimePoint[]): string {
  const height = 220;
  const plotTop = 30;
  const plotBottom = height - 34;
  const left = 40;
  const slot = Math.max(14, Math.min(48, 720 / Math.max(1, points.length)));
  const width = Math.max(320, left + slot * Math.max(1, points.length) + 20);
  const max = Math.max(1, ...points.map((point) => point.runs));
  const scale = (value: number) => ((plotBottom - plotTop) * value) / max;
  const parts: string[] = [
    legend(
      [
        { name: 'runs', value: 0, color: COLORS.runs },
        { name: 'verified fixes', value: 0, color: COLORS.fixed },
      ],
      left,
      6,
    ),
  ];
  parts.push(`<line x1="${left}" y1="${plotBottom}" x2="${width - 10}" y2="${plotBottom}" stroke="${COLORS.axis}"/>`);
  parts.push(
    `<text x="${left - 6}" y="${plotTop + 4}" text-anchor="end" class="legend">${max}</text><text x="${left - 6}" y="${plotBottom}" text-anchor="end" class="legend">0</text>`,
  );
  const every = Math.ceil(points.length / 12);
  points.forEach((point, index) => {
    const x = left + index * slot + 2;
    const w = (slot - 6) / 2;
    const label = `${point.label}: ${point.runs} run(s), ${point.fixed} verified fix(es)`;
    parts.push(
      `<rect x="${x.toFixed(1)}" y="${(plotBottom - scale(point.runs)).toFixed(1)}" width="${w.toFixed(1)}" height="${scale(point.runs).toFixed(1)}" fill="${COLORS.runs}"><title>${escapeHtml(label)}</title></rect>`,
    );
    parts.push(
      `<rect x="${(x + w).toFixed(1)}" y="${(plotBottom - scale(point.fixed)).toFixed(1)}" width="${w.toFixed(1)}" height="${scale(point.fixed).toFixed(1)}" fill="${COLORS.fixed}"><title>${escapeHtml(label)}</title></rect>`,
    );
    if (index % every === 0)
      parts.push(
        `<text x="${(x + w).toFixed(1)}" y="${plotBottom + 16}" text-anchor="middle" class="legend">${escapeHtml(point.label)}</text>`,
      );
  });
  if (points.length === 0)
    parts.push(`<text x="${left + 8}" y="${plotBottom - 8}" class="label">no runs in this window</text>`);
  return figure(id, title, width, height, parts);
}

function figure(id: string, title: string, width: number, height: number, parts: readonly string[]): string {
  return [
    `<figure class="chart" id="${escapeHtml(id)}">`,
    `<figcaption>${escapeHtml(title)}</figcaption>`,
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escapeHtml(title)}" width="${Math.round(width)}" height="${Math.round(height)}" viewBox="0 0 ${Math.round(width)} ${Math.round(height)}">`,
    ...parts,
    '</svg>',
    '</figure>',
  ].join('\n');
}
