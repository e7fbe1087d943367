import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readJacocoLineCoverage, readModuleCoverage, readReactorCoverage } from '../../src/policy/coverage.js';
import { decideVerified } from '../../src/policy/decide-verified.js';
import { configSchema } from '../../src/policy/schema.js';
import type { ChangeSet } from '../../src/patch/types.js';

const PROJECT = fileURLToPath(new URL('../fixtures/policy/coverage-project/', import.meta.url));
const report = (module: string): Promise<string> =>
  readFile(path.join(PROJECT, module, 'target/site/jacoco/jacoco.xml'), 'utf8');

describe('JaCoCo line coverage', () => {
  it('reads the report-level LINE counter, not a class or method one', async () => {
    // core: 22 covered, 3 missed lines over the whole report
    expect(readJacocoLineCoverage(await report('core'))).toBeCloseTo(88, 5);
    // payments: 7 covered, 17 missed
    expect(readJacocoLineCoverage(await report('payments'))).toBeCloseTo((7 / 24) * 100, 5);
  });

  it('gives undefined for text that is not a report, or a report without lines', () => {
    expect(readJacocoLineCoverage('not xml at all <<<')).toBeUndefined();
    expect(
      readJacocoLineCoverage('<report name="x"><counter type="BRANCH" missed="1" covered="1"/></report>'),
    ).toBeUndefined();
    expect(
      readJacocoLineCoverage('<report name="x"><counter type="LINE" missed="0" covered="0"/></report>'),
    ).toBeUndefined();
  });

  it('reads a module folder, and undefined when it has no report', async () => {
    expect(await readModuleCoverage(PROJECT, 'core')).toBeCloseTo(88, 5);
    expect(await readModuleCoverage(PROJECT, 'web')).toBeUndefined();
  });

  it('reads the reactor by artifactId', async () => {
    const coverage = await readReactorCoverage(PROJECT, [
      { name: 'Acme Core', artifactId: 'acme-core', dir: 'core' },
      { name: 'Acme Web', artifactId: 'acme-web', dir: 'web' },
      { name: 'Acme Payments', artifactId: 'acme-payments', dir: 'payments' },
    ]);
    expect(Object.keys(coverage)).toEqual(['acme-core', 'acme-web', 'acme-payments']);
    expect(coverage['acme-core']).toBeCloseTo(88, 5);
    expect(coverage['acme-web']).toBeUndefined();
  });
});

describe('auto.requireCoverage gating', () => {
  const config = configSchema.parse({ tier: 'auto', auto: { requireCoverage: 80 } });
  const fix = (dir: string): ChangeSet => ({
    files: [{ path: `${dir}/src/main/java/com/acme/A.java`, before: 'int a = 1 - 2;\n', after: 'int a = 1 + 2;\n' }],
  });
  const decide = async (dir: string, artifactId: string) =>
    decideVerified({
      config,
      changeSet: fix(dir),
      changeTypes: ['edit-main-source'],
      modules: [artifactId],
      coverage: { [artifactId]: await readModuleCoverage(PROJECT, dir) },
      interactive: false,
    });

  it('applies in a module covered at or above the threshold', async () => {
    expect(await decide('core', 'acme-core')).toMatchObject({ action: 'apply', tier: 'auto' });
  });

  it('drops to assist below the threshold and says by how much', async () => {
    const decision = await decide('payments', 'acme-payments');
    expect(decision).toMatchObject({ action: 'suggest', tier: 'assist' });
    expect(decision.reasons).toContain(
      'module acme-payments line coverage 29.2% is below auto.requireCoverage 80%: tier drops to assist',
    );
  });

  it('drops to assist when the module has no jacoco report', async () => {
    const decision = await decide('web', 'acme-web');
    expect(decision).toMatchObject({ action: 'suggest', tier: 'assist' });
    expect(decision.reasons).toContain(
      'module acme-web has no jacoco report (target/site/jacoco/jacoco.xml), auto.requireCoverage is 80%: tier drops to assist',
    );
  });

  it('treats exactly the threshold as enough', () => {
    const decision = decideVerified({
      config,
      changeSet: fix('core'),
      changeTypes: ['edit-main-source'],
      modules: ['m'],
      coverage: { m: 80 },
      interactive: false,
    });
    expect(decision.action).toBe('apply');
  });

  it('drops to assist when the module is unknown', () => {
    const decision = decideVerified({
      config,
      changeSet: fix('core'),
      changeTypes: ['edit-main-source'],
      modules: [],
      interactive: false,
    });
    expect(decision.tier).toBe('assist');
    expect(decision.reasons).toContain(
      "auto.requireCoverage is 80% but the patch's module is unknown: tier drops to assist",
    );
  });

  it('does not gate when requireCoverage is unset', () => {
    const open = configSchema.parse({ tier: 'auto' });
    expect(
      decideVerified({
        config: open,
        changeSet: fix('web'),
        changeTypes: ['edit-main-source'],
        modules: ['acme-web'],
        interactive: false,
      }).action,
    ).toBe('apply');
  });
});
