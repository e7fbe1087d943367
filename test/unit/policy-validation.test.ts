import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closestMatch } from '../../src/shared/similar.js';
import { loadError, tempRepo } from './policy-helpers.js';

async function errorFor(file: string, content: string): Promise<string> {
  return loadError(await tempRepo({ [file]: content }));
}

describe('validation errors: one line, file, line, field, found, expected', () => {
  it.each([
    [
      'unknown top-level key, YAML',
      '.mvnxrc.yaml',
      'tier: auto\ntiers: monitor\n',
      'Invalid config .mvnxrc.yaml:2: tiers: unknown key "tiers" (did you mean "tier"?)',
    ],
    [
      'unknown nested key, YAML',
      '.mvnxrc.yaml',
      'model:\n  name: x\n  temprature: 1\n',
      'Invalid config .mvnxrc.yaml:3: model.temprature: unknown key "temprature" (did you mean "temperature"?)',
    ],
    [
      'unknown key in a rule',
      '.mvnxrc.yml',
      "rules:\n  - paths: ['a/**']\n  - paths: ['b/**']\n    teir: auto\n",
      'Invalid config .mvnxrc.yml:4: rules[1].teir: unknown key "teir" (did you mean "tier"?)',
    ],
    [
      'unknown key without a near match lists the keys',
      '.mvnxrc.yaml',
      'assist:\n  zzzzzzzz: true\n',
      'Invalid config .mvnxrc.yaml:2: assist.zzzzzzzz: unknown key "zzzzzzzz" (expected one of: autoApplyLowRisk, promptOnTty)',
    ],
    [
      'unknown key, JSON',
      '.mvnxrc.json',
      '{\n  "tier": "auto",\n  "budget": {\n    "maxAttempt": 2\n  }\n}\n',
      'Invalid config .mvnxrc.json:4: budget.maxAttempt: unknown key "maxAttempt" (did you mean "maxAttempts"?)',
    ],
    [
      'wrong type, YAML',
      '.mvnxrc.yaml',
      'tier: auto\nmodel:\n  temperature: hot\n',
      'Invalid config .mvnxrc.yaml:3: model.temperature: found "hot" (string), expected a number',
    ],
    [
      'wrong type, JSON',
      '.mvnxrc.json',
      '{\n  "budget": {\n    "maxAttempts": "3"\n  }\n}',
      'Invalid config .mvnxrc.json:3: budget.maxAttempts: found "3" (string), expected a number',
    ],
    [
      'bad enum with did-you-mean',
      '.mvnxrc.yaml',
      'tier: atuo\n',
      'Invalid config .mvnxrc.yaml:1: tier: found "atuo" (string), expected one of "off", "monitor", "assist", "auto" (did you mean "auto"?)',
    ],
    [
      'bad change type in a list',
      '.mvnxrc.yaml',
      'allowedChanges:\n  - edit-main-source\n  - edit-tests\n',
      'Invalid config .mvnxrc.yaml:3: allowedChanges[1]: found "edit-tests" (string), expected one of "edit-main-source", "edit-test-source", "edit-build-file", "edit-resource", "edit-other", "add-file", "delete-file", "rename", "mode-change", "binary", "add-dependency" (did you mean "edit-test-source"?)',
    ],
    [
      'list expected',
      '.mvnxrc.yaml',
      'protectedPaths: secrets/**\n',
      'Invalid config .mvnxrc.yaml:1: protectedPaths: found "secrets/**" (string), expected a list',
    ],
    [
      'mapping expected',
      '.mvnxrc.yaml',
      'model: qwen\n',
      'Invalid config .mvnxrc.yaml:1: model: found "qwen" (string), expected a mapping (object)',
    ],
    [
      'number out of range',
      '.mvnxrc.yaml',
      'auto:\n  requireCoverage: 120\n',
      'Invalid config .mvnxrc.yaml:2: auto.requireCoverage: found 120 (number), expected a number <= 100',
    ],
    [
      'not positive',
      '.mvnxrc.yaml',
      'budget:\n  maxAttempts: 0\n',
      'Invalid config .mvnxrc.yaml:2: budget.maxAttempts: found 0 (number), expected a number > 0',
    ],
    [
      'a context window too small for a prompt and its answer',
      '.mvnxrc.yaml',
      'model:\n  contextTokens: 2048\n',
      'Invalid config .mvnxrc.yaml:2: model.contextTokens: found 2048 (number), expected a number >= 2560',
    ],
    [
      'a num_ctx cap too small for a prompt and its answer',
      '.mvnxrc.yaml',
      'model:\n  numCtx: 2048\n',
      'Invalid config .mvnxrc.yaml:2: model.numCtx: found 2048 (number), expected a number >= 2560',
    ],
    [
      'not an integer',
      '.mvnxrc.yaml',
      'budget:\n  maxAttempts: 2.5\n',
      'Invalid config .mvnxrc.yaml:2: budget.maxAttempts: found 2.5 (number), expected a int',
    ],
    [
      'missing required field',
      '.mvnxrc.yaml',
      'rules:\n  - tier: auto\n',
      'Invalid config .mvnxrc.yaml:2: rules[0].paths: found nothing, expected a list',
    ],
    [
      'empty list',
      '.mvnxrc.yaml',
      'rules:\n  - paths: []\n',
      'Invalid config .mvnxrc.yaml:2: rules[0].paths: found a list, expected a list of at least 1 item(s)',
    ],
    [
      'union: neither text nor file',
      '.mvnxrc.yaml',
      'guidelines: 42\n',
      'Invalid config .mvnxrc.yaml:1: guidelines: found 42 (number), expected string or object',
    ],
    [
      'sandbox network must stay off',
      '.mvnxrc.yaml',
      'sandbox:\n  network: true\n',
      'Invalid config .mvnxrc.yaml:2: sandbox.network: found true (boolean), expected one of false',
    ],
    [
      'several problems are counted',
      '.mvnxrc.yaml',
      'tier: x\nmodel:\n  seed: y\n',
      'Invalid config .mvnxrc.yaml:1: tier: found "x" (string), expected one of "off", "monitor", "assist", "auto" (and 1 more problem)',
    ],
    [
      'top level not a mapping',
      '.mvnxrc.yaml',
      '- tier: auto\n',
      'Invalid config .mvnxrc.yaml: found a list, expected a mapping of settings at the top level',
    ],
    [
      'YAML syntax error',
      '.mvnxrc.yaml',
      'tier: auto\nmodel:\n  name: [unclosed\n',
      'Invalid config .mvnxrc.yaml:3: syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
    [
      'JSON syntax error: trailing comma',
      '.mvnxrc.json',
      '{\n  "tier": "auto",\n  "model": {"name": "x",}\n}',
      'Invalid config .mvnxrc.json:3: syntax error: Expected double-quoted property name',
    ],
    [
      'JSON syntax error: missing comma',
      '.mvnxrc.json',
      '{\n  "tier": "auto"\n  "model": {}\n}',
      "Invalid config .mvnxrc.json:3: syntax error: Expected ',' or '}' after property value",
    ],
    [
      'JSON syntax error: bare word',
      '.mvnxrc.json',
      '{\n  "tier": auto\n}',
      "Invalid config .mvnxrc.json: syntax error: Unexpected token 'a' (not valid JSON)",
    ],
    [
      'duplicate key',
      '.mvnxrc.yaml',
      'tier: auto\ntier: off\n',
      'Invalid config .mvnxrc.yaml:2: syntax error: Map keys must be unique',
    ],
    [
      'redact.patterns are checked as regular expressions when the config loads',
      '.mvnxrc.yaml',
      "redact:\n  patterns:\n    - 'ACME-[0-9]{8}'\n    - 'token=(['\n",
      'Invalid config .mvnxrc.yaml:4: redact.patterns[1]: found "token=([" (string), expected a valid regular expression (Invalid regular expression: /token=([/g: Unterminated character class)',
    ],
    [
      'a .mvnxrc without extension is YAML',
      '.mvnxrc',
      'tier: auto\nfixer:\n  enabled: false\n',
      'Invalid config .mvnxrc:2: fixer: unknown key "fixer" (did you mean "fixers"?)',
    ],
  ])('%s', async (_name, file, content, expected) => {
    expect(await errorFor(file, content)).toBe(expected);
  });

  it('reports JS configs without a line', async () => {
    expect(await errorFor('.mvnxrc.cjs', 'module.exports = { tier: "auto", modle: {} };\n')).toBe(
      'Invalid config .mvnxrc.cjs: modle: unknown key "modle" (did you mean "model"?)',
    );
  });

  it('names a file outside the project root by its absolute path', async () => {
    const root = await tempRepo({ 'app/pom.xml': '<project/>', '.mvnxrc.yaml': 'tier: nope\n' });
    expect(await loadError(path.join(root, 'app'))).toBe(
      `Invalid config ${path.join(root, '.mvnxrc.yaml')}:1: tier: found "nope" (string), expected one of "off", "monitor", "assist", "auto"`,
    );
  });

  it('refuses a base budget above its hard cap, naming both sources', async () => {
    expect(await errorFor('.mvnxrc.yaml', 'budget:\n  maxAttempts: 12\n')).toBe(
      'Invalid config .mvnxrc.yaml: budget.maxAttempts: found 12, expected at most budget.hardCap.maxAttempts (8, from default)',
    );
  });

  it('accepts a $schema key, as JSON editors write it', async () => {
    const root = await tempRepo({
      '.mvnxrc.json': '{"$schema": "https://unpkg.com/mvnx/schema.json", "tier": "monitor"}',
    });
    const { load } = await import('./policy-helpers.js');
    expect((await load(root)).tier).toBe('monitor');
  });
});

describe('closestMatch', () => {
  it.each([
    ['temprature', ['temperature', 'name'], 'temperature'],
    ['Tier', ['tier'], 'tier'],
    ['xyz', ['temperature', 'name'], undefined],
    ['maxAttempt', ['maxAttempts', 'maxModelCalls'], 'maxAttempts'],
  ])('%s -> %s', (word, candidates, expected) => {
    expect(closestMatch(word, candidates)).toBe(expected);
  });
});
