/**
 * JaCoCo line coverage, for `auto.requireCoverage`. The report-level LINE counter
 * (a direct child of <report>) is the module's total.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { ReactorModule } from '../diagnose/types.js';

export const JACOCO_REPORT = 'target/site/jacoco/jacoco.xml';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  isArray: (name) => name === 'counter',
});

/** Line coverage in percent (0-100) from a jacoco.xml, or undefined when it has no line counter. */
export function readJacocoLineCoverage(xmlText: string): number | undefined {
  let document: { report?: { counter?: { type?: string; missed?: string; covered?: string }[] } };
  try {
    document = parser.parse(xmlText) as typeof document;
  } catch {
    return undefined;
  }
  const line = document.report?.counter?.find((counter) => counter.type === 'LINE');
  if (!line) return undefined;
  const covered = Number(line.covered);
  const missed = Number(line.missed);
  if (!Number.isFinite(covered) || !Number.isFinite(missed) || covered + missed === 0) return undefined;
  return (covered / (covered + missed)) * 100;
}

/** Coverage of the module in `moduleDir` (relative to the project root); undefined without a readable report. */
export async function readModuleCoverage(projectRoot: string, moduleDir: string): Promise<number | undefined> {
  try {
    return readJacocoLineCoverage(await readFile(path.join(projectRoot, moduleDir, JACOCO_REPORT), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Coverage per artifactId for the reactor modules with a known folder, for decideVerified. */
export async function readReactorCoverage(
  projectRoot: string,
  modules: readonly ReactorModule[],
): Promise<Record<string, number | undefined>> {
  const entries = await Promise.all(
    modules.map(
      async (module) =>
        [
          module.artifactId ?? module.name,
          module.dir === undefined ? undefined : await readModuleCoverage(projectRoot, module.dir),
        ] as const,
    ),
  );
  return Object.fromEntries(entries);
}
