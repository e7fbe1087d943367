/**
 * The plugin API imports nothing at run time: the config block eslint.config.js takes from
 * scripts/eslint-type-only.mjs refuses every value import in src/plugins/contracts.ts and
 * lets types through (what loading it loads: test/integration/plugin-types.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { TYPE_ONLY_FILES, typeOnlyImports } from '../../scripts/eslint-type-only.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const linter = new Linter({ cwd: root, configType: 'flat' });
const config: Linter.Config[] = [
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } },
  typeOnlyImports,
];
const refusals = (code: string, file = 'src/plugins/contracts.ts') =>
  linter
    .verify(code, config, { filename: path.join(root, file) })
    .map((message) => `${message.line}: ${message.ruleId}`);

describe('src/plugins/contracts.ts imports nothing at run time', () => {
  it('holds for the file as it is', () => {
    expect(TYPE_ONLY_FILES).toEqual(['src/plugins/contracts.ts']);
    expect(refusals(readFileSync(path.join(root, 'src/plugins/contracts.ts'), 'utf8'))).toEqual([]);
  });

  it('lets types in and out', () => {
    const code = [
      "import type { Diagnostic } from '../diagnose/types.js';",
      "export type { ChangeSet } from '../patch/types.js';",
      "export type * from '../java/index.js';",
      "export const STATES = ['a'] as const;",
    ];
    expect(refusals(code.join('\n'))).toEqual([]);
  });

  it.each([
    ["import { COMMAND_TOOL_STATES } from '../policy/schema.js';"],
    ["import { type RunRecord } from '../report/run-record.js';"],
    ["import '../policy/schema.js';"],
    ["export { MvnxError } from '../shared/errors.js';"],
    ["export * from '../shared/similar.js';"],
    ["export const later = () => import('../policy/schema.js');"],
  ])('refuses %s', (code) => {
    expect(refusals(code)).toEqual(['1: no-restricted-syntax']);
  });

  it('leaves the other files of plugins/ alone', () => {
    expect(refusals("import { z } from 'zod';", 'src/plugins/check.ts')).toEqual([]);
  });
});
