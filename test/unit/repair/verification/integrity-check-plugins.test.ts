/**
 * The loop's integrity port with a plugin's rules (src/repair/verification/integrity-check.ts):
 * a plugin's rule sees every fix, a main-code fix included, and can only add a refusal.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSourceView } from '../../../../src/codebase/index.js';
import type { Diagnosis } from '../../../../src/diagnose/types.js';
import type { IntegrityRule } from '../../../../src/plugins/contracts.js';
import { createIntegrityCheck } from '../../../../src/repair/verification/integrity-check.js';

const POM =
  '<project><modelVersion>4.0.0</modelVersion><groupId>a</groupId><artifactId>shop</artifactId><version>1</version></project>';
const MAIN = 'src/main/java/com/acme/Shop.java';
const BEFORE = 'package com.acme;\nclass Shop {\n  int total() { return 1; }\n}\n';
const AFTER =
  'package com.acme;\nclass Shop {\n  int total() { return Integer.parseInt(System.getenv("TOTAL")); }\n}\n';
const compileError: Diagnosis = {
  diagnostics: [{ kind: 'compile', category: 'compile', file: MAIN, line: 3, message: 'x' } as never],
  fingerprint: 'f',
  fixable: true,
  modules: [],
  warnings: [],
};

const noGetenv: IntegrityRule = {
  id: 'main-reads-env',
  description: 'main code does not read environment variables',
  check: ({ changes }) =>
    changes
      .filter((c) => /System\.getenv/.test(c.after ?? '') && !/System\.getenv/.test(c.before ?? ''))
      .map((c) => ({
        rule: 'main-reads-env',
        file: c.path,
        message: `added System.getenv to ${c.path}`,
        failingTestEdit: false,
      })),
};

function project(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mvnx-integrity-plugins-'));
  writeFileSync(path.join(root, 'pom.xml'), POM);
  mkdirSync(path.join(root, 'src/main/java/com/acme'), { recursive: true });
  writeFileSync(path.join(root, MAIN), BEFORE);
  return root;
}

describe('the integrity port with plugin rules', () => {
  const fix = { files: [{ path: MAIN, before: BEFORE, after: AFTER }] };

  it('runs a plugin rule on a fix of main code alone, and refuses it with the rule’s message', async () => {
    const root = project();
    const check = createIntegrityCheck({
      projectRoot: root,
      original: createSourceView(root),
      userFailures: [],
      allowFailingTestEdits: false,
      pluginRules: [noGetenv],
    });
    const outcome = await check(fix, compileError);
    expect(outcome.refused).toMatch(/^test-weakening: added System\.getenv to src\/main\/java\/com\/acme\/Shop\.java/);
  });

  it('without plugin rules the same fix is not read at all (no test, no test setting, no failing test)', async () => {
    const root = project();
    const check = createIntegrityCheck({
      projectRoot: root,
      original: createSourceView(root),
      userFailures: [],
      allowFailingTestEdits: false,
    });
    expect(await check(fix, compileError)).toEqual({ failingTestEdits: [] });
  });
});
