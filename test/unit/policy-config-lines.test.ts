/**
 * Where a config error points (src/policy/locate.ts: the line of a field, of an unknown key,
 * of a syntax error) and the budget cap check of loading (load.ts), each pinned to the exact
 * line or one-line message. policy-validation.test.ts checks the same through whole files;
 * these reach the corners it does not (keys with no value, paths through scalars and lists,
 * single-digit JSON positions, a hard cap set in the file).
 */
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/policy/locate.js';
import { load, loadError, tempRepo } from './policy-helpers.js';

const lines = (text: string) => parseConfigText(text, 'f', 'yaml').lineOf;

describe('lineOf', () => {
  const text = [
    '# team config',
    'tier: assist',
    'model:',
    '  name:',
    '    qwen',
    '  host: h',
    'rules:',
    '  - paths: [a]',
    '  -',
    '    paths:',
    '      - b',
    'empty:',
    'budget:',
    '  maxAttempts:',
    '    a: 1',
    '    undefined: 2',
    '',
  ].join('\n');
  const lineOf = lines(text);

  it.each([
    [[], undefined, 2],
    [['tier'], undefined, 2],
    [['model', 'name'], undefined, 5],
    [['model'], 'name', 4],
    [['model', 'host'], undefined, 6],
    [['rules', 1, 'paths', 0], undefined, 11],
    [['rules', 1], 'paths', 10],
    [['empty'], undefined, 12],
    [['budget', 'maxAttempts'], undefined, 15],
  ] as const)('%j (key %s) is on line %i', (path, key, line) => {
    expect(lineOf(path, key)).toBe(line);
  });

  it('stops at the deepest node that exists: a missing key, a list index past the end, a step into a scalar or a list by name', () => {
    expect(lineOf(['model'], 'nmae')).toBe(4);
    expect(lineOf(['model', 'nmae', 'x'])).toBe(4);
    expect(lineOf(['rules', 5, 'paths'])).toBe(8);
    expect(lineOf(['tier', 'x'])).toBe(2);
    expect(lineOf(['tier', 0, 'x'])).toBe(2);
    expect(lineOf(['rules', 'x', 'y'])).toBe(8);
  });

  it('has no line for anything in an empty file', () => {
    expect(lines('')(['tier'])).toBeUndefined();
    expect(lines('# nothing yet\n')([], 'tier')).toBeUndefined();
  });
});

describe('syntax errors', () => {
  it.each([
    [
      'yaml',
      'tier: auto\nmodel:\n  name: [unclosed\n',
      'Invalid config f:3: syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
    ['yaml', 'tier: auto\ntier: off\n', 'Invalid config f:2: syntax error: Map keys must be unique'],
    ['yaml', 'a: b: c\n', 'Invalid config f:1: syntax error: Nested mappings are not allowed in compact mappings'],
    ['json', '{"a" 1}', "Invalid config f:1: syntax error: Expected ':' after property name"],
    ['json', '{\n  "tier": auto\n}', "Invalid config f: syntax error: Unexpected token 'a' (not valid JSON)"],
    ['json', '', 'Invalid config f: syntax error: Unexpected end of JSON input (not valid JSON)'],
    ['json', '{\n  "tier": tru', 'Invalid config f:2: syntax error: Flow map must end with a }'],
  ] as const)('%s %j: %s', (format, text, message) => {
    expect(() => parseConfigText(text, 'f', format)).toThrow(expect.objectContaining({ message, exitCode: 2 }));
  });
});

describe('budget above its hard cap', () => {
  it('accepts a budget equal to its hard cap', async () => {
    const root = await tempRepo({
      '.mvnxrc.yaml':
        'budget:\n  maxAttempts: 5\n  maxModelCalls: 7\n  maxWallSeconds: 60\n  perAttemptTimeoutSeconds: 30\n  hardCap:\n    maxAttempts: 5\n    maxModelCalls: 7\n    maxWallSeconds: 60\n    perAttemptTimeoutSeconds: 30\n',
    });
    expect((await load(root)).budget).toMatchObject({
      maxAttempts: 5,
      hardCap: { maxAttempts: 5, maxModelCalls: 7, maxWallSeconds: 60, perAttemptTimeoutSeconds: 30 },
    });
  });

  it('names the source of the budget and of the hard cap when the cap is set in a file', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'budget:\n  hardCap:\n    maxModelCalls: 4\n' });
    expect(await loadError(root)).toBe(
      'Invalid config default: budget.maxModelCalls: found 6, expected at most budget.hardCap.maxModelCalls (4, from .mvnxrc.yaml)',
    );
    expect(await loadError(root, { env: { MVNX_MAX_WALL_SECONDS: '1000' } })).toBe(
      'Invalid config default: budget.maxModelCalls: found 6, expected at most budget.hardCap.maxModelCalls (4, from .mvnxrc.yaml)',
    );
    const wall = await tempRepo({
      '.mvnxrc.yaml': 'budget:\n  perAttemptTimeoutSeconds: 200\n  hardCap:\n    perAttemptTimeoutSeconds: 100\n',
    });
    expect(await loadError(wall)).toBe(
      'Invalid config .mvnxrc.yaml: budget.perAttemptTimeoutSeconds: found 200, expected at most budget.hardCap.perAttemptTimeoutSeconds (100, from .mvnxrc.yaml)',
    );
    expect(await loadError(await tempRepo(), { env: { MVNX_MAX_WALL_SECONDS: '1000' } })).toBe(
      'Invalid config env MVNX_MAX_WALL_SECONDS: budget.maxWallSeconds: found 1000, expected at most budget.hardCap.maxWallSeconds (900, from default)',
    );
  });
});
