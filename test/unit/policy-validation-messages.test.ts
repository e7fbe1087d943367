/**
 * The one-line validation messages (src/policy/config-issues.ts) for every kind of problem and
 * value, and the schema's own checks (command tools, regular expressions, host lists), each
 * asserted exactly. The plugin loader uses describeFields and knownKeysAt with its own
 * schemas (records, functions), so some cases use small schemas of that shape.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configSchema } from '../../src/policy/schema.js';
import { describeFields, describeIssues, knownKeysAt, validateLayer } from '../../src/policy/config-issues.js';

/** describeFields for `raw` against `schema`, which must refuse it. */
function problem(schema: z.core.$ZodType, raw: unknown): string {
  const result = z.safeParse(schema, raw);
  if (result.success) throw new Error(`${JSON.stringify(raw)} is valid`);
  return describeFields(schema, result.error.issues, raw);
}

/** The message validateLayer throws for a config layer from `label`. */
function layerError(raw: unknown, label = '.mvnxrc.yaml'): string {
  try {
    validateLayer(raw, { label });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(raw)} is valid`);
}

describe('what was found', () => {
  it.each([
    [{ tier: null }, 'tier: found null, expected one of "off", "monitor", "assist", "auto"'],
    [{ tier: {} }, 'tier: found a mapping, expected one of "off", "monitor", "assist", "auto"'],
    [{ tier: ['auto'] }, 'tier: found a list, expected one of "off", "monitor", "assist", "auto"'],
    [{ budget: null }, 'budget: found null, expected a mapping (object)'],
  ])('%j: %s', (raw, message) => {
    expect(layerError(raw)).toBe(`Invalid config .mvnxrc.yaml: ${message}`);
  });

  it('shows a value up to 60 characters whole, and a longer one cut at 57 with "..."', () => {
    const schema = z.object({ port: z.number() });
    const sixty = 'a'.repeat(58); // 60 characters with its quotes
    expect(problem(schema, { port: sixty })).toBe(`port: found "${sixty}" (string), expected a number`);
    expect(problem(schema, { port: `${sixty}b` })).toBe(
      `port: found "${'a'.repeat(56)}... (string), expected a number`,
    );
  });

  it('names code that JSON has no text for: a function, a bigint, a symbol', () => {
    const schema = z.object({ name: z.string() });
    expect(problem(schema, { name: () => 'x' })).toBe('name: found a function, expected a string');
    expect(problem(schema, { name: 12n })).toBe('name: found 12 (bigint), expected a string');
    expect(problem(schema, { name: Symbol('fixer') })).toBe('name: found Symbol(fixer) (symbol), expected a string');
    expect(problem(schema, { name: 12 })).toBe('name: found 12 (number), expected a string');
  });

  it('says "nothing" for a value that is missing, or whose path runs through a scalar or null', () => {
    expect(problem(z.object({ name: z.string() }), {})).toBe('name: found nothing, expected a string');
    // A preprocessed field: the issue's path is inside what the schema made, not what was given.
    const made = z.object({ part: z.preprocess(() => ({ length: 'x' }), z.object({ length: z.number() })) });
    expect(problem(made, { part: 'abc' })).toBe('part.length: found nothing, expected a number');
    expect(problem(made, { part: null })).toBe('part.length: found nothing, expected a number');
    expect(problem(made, { part: { length: 'given' } })).toBe('part.length: found "given" (string), expected a number');
  });

  it('names the top level when the whole value is wrong', () => {
    expect(problem(configSchema, 3)).toBe('(top level): found 3 (number), expected a mapping (object)');
  });
});

describe('what was expected', () => {
  it.each([
    [{ model: { name: '' } }, 'model.name: found "" (string), expected a non-empty string'],
    [{ budget: { maxAttempts: 0 } }, 'budget.maxAttempts: found 0 (number), expected a number > 0'],
    [
      { rollout: { promote: { assistToAuto: { minCoverage: -1 } } } },
      'rollout.promote.assistToAuto.minCoverage: found -1 (number), expected a number >= 0',
    ],
    [
      { rollout: { promote: { assistToAuto: { minCoverage: 101 } } } },
      'rollout.promote.assistToAuto.minCoverage: found 101 (number), expected a number <= 100',
    ],
    [
      { tools: [{ name: 'lint', command: 'lint', states: [] }] },
      'tools[0].states: found a list, expected a list of at least 1 item(s)',
    ],
    [{ model: { keepAlive: '' } }, 'model.keepAlive: found "" (string), expected a non-empty string'],
    [
      { verify: { parallel: 'many' } },
      'verify.parallel: found "many" (string), expected Invalid input: expected "auto" or number',
    ],
    [{ model: { keepAlive: true } }, 'model.keepAlive: found true (boolean), expected string or number'],
  ])('%j: %s', (raw, message) => {
    expect(layerError(raw)).toBe(`Invalid config .mvnxrc.yaml: ${message}`);
  });

  it('reads a record like an object, an exclusive maximum and a multiple', () => {
    expect(problem(z.object({ parameters: z.record(z.string(), z.string()) }), { parameters: 3 })).toBe(
      'parameters: found 3 (number), expected a mapping (object)',
    );
    expect(problem(z.object({ ratio: z.number().lt(1) }), { ratio: 1 })).toBe(
      'ratio: found 1 (number), expected a number < 1',
    );
    expect(problem(z.object({ step: z.number().multipleOf(5) }), { step: 7 })).toBe(
      'step: found 7 (number), expected a multiple of 5',
    );
  });

  it('counts the other problems, one or more', () => {
    expect(layerError({ tier: 'x', budget: { maxAttempts: 0 } })).toBe(
      'Invalid config .mvnxrc.yaml: tier: found "x" (string), expected one of "off", "monitor", "assist", "auto" (and 1 more problem)',
    );
    expect(layerError({ tier: 'x', budget: { maxAttempts: 0 }, model: { name: '' } })).toBe(
      'Invalid config .mvnxrc.yaml: tier: found "x" (string), expected one of "off", "monitor", "assist", "auto" (and 2 more problems)',
    );
  });
});

describe('where', () => {
  it('says "config" before a file, even one whose name has env or flag in it, but not before env or a flag', () => {
    expect(layerError({ tier: 'x' }, 'staging env settings.yaml')).toBe(
      'Invalid config staging env settings.yaml: tier: found "x" (string), expected one of "off", "monitor", "assist", "auto"',
    );
    expect(layerError({ tier: 'x' }, 'env MVNX_TIER')).toBe(
      'Invalid env MVNX_TIER: tier: found "x" (string), expected one of "off", "monitor", "assist", "auto"',
    );
    expect(layerError({ tier: 'x' }, 'flag --mvnx-tier')).toBe(
      'Invalid flag --mvnx-tier: tier: found "x" (string), expected one of "off", "monitor", "assist", "auto"',
    );
  });

  it('asks for the line of an unknown key with the key, and of a bad value without', () => {
    const asked: unknown[] = [];
    const lineOf = (path: readonly PropertyKey[], key?: string) => (asked.push([path, key]), 7);
    const unknown = configSchema.safeParse({ model: { nmae: 'x' } });
    const bad = configSchema.safeParse({ model: { name: 3 } });
    if (unknown.success || bad.success) throw new Error('expected both to be refused');
    expect(describeIssues(unknown.error.issues, { model: { nmae: 'x' } }, { label: 'f', lineOf })).toBe(
      'Invalid config f:7: model.nmae: unknown key "nmae" (did you mean "name"?)',
    );
    expect(describeIssues(bad.error.issues, { model: { name: 3 } }, { label: 'f', lineOf })).toBe(
      'Invalid config f:7: model.name: found 3 (number), expected a string',
    );
    expect(asked).toEqual([
      [['model'], 'nmae'],
      [['model', 'name'], undefined],
    ]);
  });
});

describe('knownKeysAt', () => {
  const top = Object.keys(configSchema.shape);

  it('finds the keys through lists, optionals, defaults, prefaults, unions and nullables', () => {
    expect(knownKeysAt(configSchema, [])).toEqual(top);
    expect(knownKeysAt(configSchema, ['rules', 0])).toContain('paths');
    expect(knownKeysAt(configSchema, ['rules', 0, 'publish'])).toEqual(['merge', 'updateBranch']);
    expect(knownKeysAt(configSchema, ['guidelines'])).toEqual(['file']);
    expect(knownKeysAt(z.object({ part: z.object({ a: z.string(), b: z.number() }).nullable() }), ['part'])).toEqual([
      'a',
      'b',
    ]);
  });

  it('finds none on a path that leaves the schema: an unknown key, a list by name, an object by index, a scalar', () => {
    expect(knownKeysAt(configSchema, ['nope'])).toEqual([]);
    expect(knownKeysAt(configSchema, ['rules', 'paths'])).toEqual([]);
    expect(knownKeysAt(configSchema, ['model', 0])).toEqual([]);
    expect(knownKeysAt(configSchema, ['tier'])).toEqual([]);
  });
});

describe('schema checks', () => {
  it.each([
    [
      {
        tools: [
          { name: 'lint', command: 'lint %FILE%' },
          { name: 'lint', command: 'lint2 %FILE%' },
        ],
      },
      'tools[1].name: found "lint" (string), expected another command tool is already named lint',
    ],
    [
      {
        tools: [
          { name: 'a1', command: 'a' },
          { name: 'b1', command: 'b' },
          { name: 'a1', command: 'c' },
        ],
      },
      'tools[2].name: found "a1" (string), expected another command tool is already named a1',
    ],
    [
      { tools: [{ name: 'lint', command: 'lint %FLIE%' }] },
      'tools[0].command: found "lint %FLIE%" (string), expected unknown placeholder %FLIE% (known: %FILE% %LINE% %CLASS% %MODULE% %WORKSPACE%)',
    ],
    [
      { tools: [{ name: 'lint', command: '-x %FILE%' }] },
      'tools[0].command: found "-x %FILE%" (string), expected the command starts with the option -x; name the program first',
    ],
  ])('refuses %j: %s', (raw, message) => {
    expect(layerError(raw)).toBe(`Invalid config .mvnxrc.yaml: ${message}`);
  });

  it('accepts tools of different names and good commands', () => {
    const parsed = configSchema.parse({
      tools: [
        { name: 'lint', command: 'lint %FILE%' },
        { name: 'pmd', command: 'pmd -d %FILE%' },
      ],
    });
    expect(parsed.tools.map((tool) => tool.name)).toEqual(['lint', 'pmd']);
  });

  it('joins a list of model hosts with commas', () => {
    expect(configSchema.parse({ model: { host: ['http://a:1', 'http://b:2'] } }).model.host).toBe(
      'http://a:1,http://b:2',
    );
  });
});
