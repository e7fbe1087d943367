// node scripts/mutation-survivors.mjs <slice>...
// Lists the mutants a slice left alive (survived and no coverage) from its committed incremental
// file, one a line: file:line:column, status, mutator, replacement; --source adds the mutated line. The list to review for
// bench/results-mutation.md: each one killed by a test or marked equivalent with a reason.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const withSource = process.argv.includes('--source');
const slices = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (slices.length === 0) throw new Error('usage: node scripts/mutation-survivors.mjs <slice>...');
for (const slice of slices) {
  const report = JSON.parse(readFileSync(join(ROOT, 'mutation/reports', `${slice}-incremental.json`), 'utf8'));
  const sources = new Map(Object.entries(report.files).map(([file, { source }]) => [file, source.split('\n')]));
  const alive = Object.entries(report.files)
    .flatMap(([file, { mutants }]) => mutants.map((m) => ({ file, ...m })))
    .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
    .sort(
      (a, b) =>
        a.file.localeCompare(b.file) ||
        a.location.start.line - b.location.start.line ||
        a.location.start.column - b.location.start.column,
    );
  console.log(`== ${slice}: ${alive.length} alive`);
  for (const m of alive) {
    const where = `${m.file}:${m.location.start.line}:${m.location.start.column}`;
    const replacement = (m.replacement ?? '').replace(/\s+/g, ' ');
    console.log(
      `${where}\t${m.status}\t${m.mutatorName}\t${replacement.length > 100 ? `${replacement.slice(0, 100)}…` : replacement}`,
    );
    if (withSource) console.log(`\t| ${sources.get(m.file)?.[m.location.start.line - 1]?.trim().slice(0, 200)}`);
  }
}
