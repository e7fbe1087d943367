/**
 * The edges of redaction that mutation testing (mutation/slices/redaction.config.mjs) found no test
 * for: exact output of each token shape (so a pattern that stops after one character
 * fails), known values in their escaped and encoded spellings, the placeholder numbering
 * past nine, path prefixes in both slash styles, and the provider wrapper's pass-through.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/model/ollama-provider.js';
import { Redactor, redact, withRedaction } from '../../src/model/redact.js';
import type { ToolSpec } from '../../src/model/types.js';
import {
  base64Forms,
  isSecretEnvName,
  secretEnvValues,
  usableSecret,
  valueForms,
} from '../../src/model/secret-values.js';
import { deadServerUrl, startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';

const READ: ToolSpec = {
  name: 'read_range',
  description: 'lines of a file',
  parameters: {
    type: 'object',
    properties: {
      file: { type: 'string', description: 'a file' },
      start: { type: 'integer', description: 'first line' },
    },
    required: ['file', 'start'],
  },
};

// Built from pieces so that this file itself does not trip secret scanners.
const piece = (...parts: string[]) => parts.join('');

describe('secret values: which variables, which values, which spellings', () => {
  it.each(['SSH_AUTH_SOCK', 'XAUTHORITY', 'GPG_KEY_ID', 'KEYMAP', 'KEYTIMEOUT', 'AUTHOR', 'HOME'])(
    '%s holds no secret',
    (name) => {
      expect(isSecretEnvName(name)).toBe(false);
    },
  );

  it.each(['AUTH', 'AUTH_HEADER', 'NPM_AUTH', 'DEPLOY_KEY', 'db_password'])('%s holds a secret', (name) => {
    expect(isSecretEnvName(name)).toBe(true);
  });

  it('takes set values of secret-looking variables and of the variables named, and skips unset ones', () => {
    expect(
      secretEnvValues({ API_TOKEN: undefined, DEPLOY_KEY: 'k-123456', PATH: '/usr/bin', MODEL_API: 'named-1' }, [
        'MODEL_API',
      ]),
    ).toEqual(['k-123456', 'named-1']);
    expect(secretEnvValues({ PATH: '/usr/bin', MODEL_API: 'named-1' })).toEqual([]);
  });

  it.each([
    ['abcdef', true],
    ['abcde', false],
    ['  abc  ', false],
    ['changeit', false],
    ['Password', false],
    ['UNDEFINED', false],
    ['12345678', false],
    ['123456', false],
    ['123456789', true],
    ['1234567x', true],
  ])('usableSecret(%j) is %s', (value, usable) => {
    expect(usableSecret(value)).toBe(usable);
  });

  it('base64: the core at byte offsets 0, 1 and 2, each also in the URL-safe alphabet, none shorter than 8', () => {
    expect(base64Forms('??>>??>>')).toEqual([
      'Pz8+Pj8/Pj',
      'Pz8-Pj8_Pj',
      '8/Pj4/Pz4+',
      '8_Pj4_Pz4-',
      '/Pz4+Pz8+P',
      '_Pz4-Pz8-P',
    ]);
    expect(base64Forms('abcdef')).toEqual(['YWJjZGVm', 'YWJjZGVm']);
    expect(base64Forms('abcde')).toEqual([]);
  });

  it('every spelling once, longest first: JSON-escaped without its quotes, XML-escaped, URL-encoded, base64', () => {
    const value = `Pa"ss<w&rd\\9'>`;
    const forms = valueForms(value);
    expect(forms).toContain(String.raw`Pa\"ss<w&rd\\9'>`);
    expect(forms).toContain('Pa&quot;ss&lt;w&amp;rd\\9&apos;&gt;');
    expect(forms).toContain("Pa%22ss%3Cw%26rd%5C9'%3E");
    expect(forms).not.toContain(`"Pa\\"ss<w&rd\\\\9'>"`);
    expect(new Set(forms).size).toBe(forms.length);
    expect(forms.map((form) => form.length)).toEqual([...forms.map((form) => form.length)].sort((a, b) => b - a));
    expect(valueForms('abcdef')).toEqual(['YWJjZGVm', 'abcdef']);
    expect(valueForms('abcde')).toEqual([]);
  });
});

describe('token shapes: the whole token goes, nothing of it stays', () => {
  const PKCS8 = ['-----BEGIN PRIVATE KEY-----', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', '-----END PRIVATE KEY-----'].join(
    '\n',
  );
  it.each([
    ['a PKCS#8 key block (no algorithm word)', `key ${PKCS8} end`],
    ['a GCP OAuth token', `auth ${piece('ya29.', 'a0AfH6SMBx7Qk2LmN4pQ8rT1vW')} end`],
    ['a fine-grained GitHub token', `auth ${piece('github_pat_', '11ABCDEFG0abcdefghijklmnopqrstuv')} end`],
    ['a GitLab deploy token', `auth ${piece('gldt-', 'xT9kQ2mN8vB4cL6pR3wZ')} end`],
    ['an npm token', `auth ${piece('npm_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8')} end`],
    ['a Slack token', `auth ${piece('xoxb-', '1234567890-AbCdEfGhIj')} end`],
    ['a Stripe restricted key', `auth ${piece('rk_live_', 'a1B2c3D4e5F6g7H8i9')} end`],
    ['a Stripe secret key', `auth ${piece('sk_test_', 'a1B2c3D4e5F6g7H8i9')} end`],
    ['a SendGrid key', `auth ${piece('SG.', 'a1B2c3D4e5F6g7H8i9', '.', 'j0K1l2M3n4O5p6Q7r8')} end`],
    ['a plain sk- key', `auth ${piece('sk-', 'a1B2c3D4e5F6g7H8i9J0k1')} end`],
    ['an Anthropic-style key', `auth ${piece('sk-ant-api03-', 'a1B2c3D4e5F6g7H8i9J0k1')} end`],
    [
      'a JWT',
      `auth ${piece('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', '.', 'dozjgNryP4J3jVmNHl0w5N')} end`,
    ],
  ])('%s', (_kind, text) => {
    expect(redact(text)).toMatch(/^\S+ \[REDACTED\] end$/);
  });

  it.each([
    ['Authorization: Bearer  abcdefghijklmnop1234', 'Authorization: Bearer  [REDACTED]'],
    ['Authorization: Basic dXNlcjpwYXNzd29yZA== sent', 'Authorization: Basic [REDACTED] sent'],
    ['Authorization: Basic  dXNlcjpwYXNzd29yZDE sent', 'Authorization: Basic  [REDACTED] sent'],
    ['mvn -Ddb.PASSWORD=x1y2z3 -Dapi.token=y2z3x1 -B', 'mvn -Ddb.PASSWORD=[REDACTED] -Dapi.token=[REDACTED] -B'],
    ['connect pwd=abc123 PWD=def456', 'connect pwd=[REDACTED] PWD=[REDACTED]'],
    ['<password>s3cret${suffix}</password>', '<password>[REDACTED]</password>'],
    ['<password>${env.DB_PASSWORD}</password>', '<password>${env.DB_PASSWORD}</password>'],
  ])('keeps the key: %s', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it.each([
    ['/home/alice', '~'],
    ['at /home/alice then', 'at ~ then'],
    ['C:\\Users\\bob\\app\\A.java', '~\\app\\A.java'],
    ['at C:\\Users\\bob then', 'at ~ then'],
    ['C:\\Users\\bob', '~'],
  ])('shortens the home folder of any user: %s', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it('uses the plain marker, also past nine placeholders', () => {
    const text = Array.from({ length: 12 }, (_, i) => `password=secret-${i}`).join('\n');
    expect(redact(text)).toBe(Array.from({ length: 12 }, () => 'password=[REDACTED]').join('\n'));
  });
});

describe('Redactor', () => {
  it('finds known values in every spelling, the longest first, and leaves unusable ones alone', () => {
    const redactor = new Redactor({ knownSecrets: ['secret1', 'secret1-longer', '12345678', 'changeit'] });
    expect(redactor.redactSecrets('secret1-longer, secret1, port 12345678, changeit')).toBe(
      '[REDACTED-1], [REDACTED-2], port 12345678, changeit',
    );
    const escaped = new Redactor({ knownSecrets: [`Pa"ss<w&rd\\9`] });
    expect(escaped.redactSecrets(`{"db":"Pa\\"ss<w&rd\\\\9"} <p>Pa&quot;ss&lt;w&amp;rd\\9</p>`)).toBe(
      '{"db":"[REDACTED-1]"} <p>[REDACTED-2]</p>',
    );
  });

  it('takes extra patterns as given, a RegExp that is already global included', () => {
    const redactor = new Redactor({ extraPatterns: [/ACME-\d{4}/g, /CORP-\d{4}/, 'INT-\\d{4}'] });
    expect(redactor.redactSecrets('ids ACME-1234 ACME-5678 CORP-4321 CORP-8765 INT-1111')).toBe(
      'ids [REDACTED-1] [REDACTED-2] [REDACTED-3] [REDACTED-4] [REDACTED-5]',
    );
  });

  it('numbers past nine and maps every placeholder back; an unnumbered one stays as it is', () => {
    const redactor = new Redactor();
    const text = Array.from({ length: 12 }, (_, i) => `password=secret-${i}`).join('\n');
    const redacted = redactor.redactSecrets(text);
    expect(redacted).toContain('password=[REDACTED-12]');
    expect(redactor.restore(`${redacted}\n[REDACTED] [REDACTED-99]`)).toBe(`${text}\n[REDACTED] [REDACTED-99]`);
  });

  it.each(['password=[REDACTED]', 'password=[REDACTED-12]', 'password=[REDACTED-4][REDACTED-5]'])(
    'keeps a value that is already placeholders: %s',
    (text) => {
      expect(new Redactor().redactSecrets(text)).toBe(text);
    },
  );

  it.each(['password=[REDACTED-1]hunter22', 'password=hunter22[REDACTED-1]'])(
    'numbers a value that only contains a placeholder: %s',
    (text) => {
      const redactor = new Redactor();
      expect(redactor.redactSecrets(text)).toBe('password=[REDACTED-1]');
      expect(redactor.restore('password=[REDACTED-1]')).toBe(text);
    },
  );

  it('turned off, passes text, paths and values through untouched, the same objects', () => {
    const off = new Redactor({ enabled: false, projectRoot: '/srv/app', knownSecrets: ['hunter22'] });
    expect(off.redact('/srv/app/A.java password=hunter22')).toBe('/srv/app/A.java password=hunter22');
    const record = { note: 'password=hunter22' };
    expect(off.redactDeep(record)).toBe(record);
  });

  it('leaves what is not text alone, and text without secrets as it is', () => {
    const redactor = new Redactor();
    expect(redactor.redact(undefined as unknown as string)).toBeUndefined();
    expect(redactor.redactSecrets(42 as unknown as string)).toBe(42);
    expect(redactor.redactSecrets('the value is undefined')).toBe('the value is undefined');
    expect(redactor.redact('')).toBe('');
  });

  it('redactDeep: strings inside plain objects and arrays; dates, nulls and numbers kept as they are', () => {
    const when = new Date(0);
    const redacted = new Redactor().redactDeep({
      when,
      none: null,
      count: 3,
      list: ['password=hunter22', { token: 'token: "abc123def"' }],
    });
    expect(redacted).toEqual({
      when,
      none: null,
      count: 3,
      list: ['password=[REDACTED-1]', { token: 'token: "[REDACTED-2]"' }],
    });
    expect(redacted.when).toBe(when);
  });

  it('shortens the project root with or without trailing slashes, in either slash style, everywhere in the text', () => {
    expect(new Redactor({ projectRoot: '/srv/app//' }).redact('/srv/app/A.java and /srv/app/B.java')).toBe(
      './A.java and ./B.java',
    );
    expect(new Redactor({ projectRoot: '/srv/app/' }).redact('/srv/app/A.java')).toBe('./A.java');
    expect(new Redactor({ projectRoot: '/srv/app' }).redact('\\srv\\app\\A.java')).toBe('.\\A.java');
    expect(new Redactor({ projectRoot: 'D:\\work\\app' }).redact('D:/work/app/A.java')).toBe('./A.java');
    expect(new Redactor({ projectRoot: '/a' }).redact('/a/B.java')).toBe('./B.java');
    expect(new Redactor({ projectRoot: '/' }).redact('x /srv/A.java')).toBe('x /srv/A.java');
  });

  it('shortens the longest home folder first', () => {
    expect(new Redactor({ homeDirs: ['/data', '/data/alice'] }).redact('/data/alice/A.java /data/B.java')).toBe(
      '~/A.java ~/B.java',
    );
    expect(new Redactor({ homeDirs: ['/data/alice', '/data'] }).redact('/data/alice/A.java /data/B.java')).toBe(
      '~/A.java ~/B.java',
    );
  });

  it('extra patterns: a global RegExp as given, a string replaced everywhere', () => {
    expect(new Redactor({ extraPatterns: [/ACME-\d+/g] }).redactSecrets('ACME-1 ACME-2')).toBe(
      '[REDACTED-1] [REDACTED-2]',
    );
    expect(new Redactor({ extraPatterns: ['ACME-\\d+'] }).redactSecrets('ACME-1 ACME-2')).toBe(
      '[REDACTED-1] [REDACTED-2]',
    );
    expect(new Redactor({ extraPatterns: [/ACME-\d+/] }).redactSecrets('ACME-1 ACME-2')).toBe(
      '[REDACTED-1] [REDACTED-2]',
    );
  });
});

describe('withRedaction: what passes through the wrapper', () => {
  let mock: OllamaMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('redacts tool-call arguments going out, restores them coming back, and keeps the reply as shown', async () => {
    mock = await startOllamaMock({
      replies: [
        {
          text: 'use [REDACTED-1]',
          toolCalls: [
            {
              name: 'read_range',
              arguments: {
                file: '[REDACTED-1]',
                lines: [1, { note: '[REDACTED-1]' }],
                start: 3,
                all: true,
                none: null,
              },
            },
          ],
        },
      ],
    });
    const inner = new OllamaProvider({
      provider: 'ollama',
      name: 'qwen2.5-coder:7b',
      host: mock.url,
      temperature: 0,
      seed: 1,
      timeoutSeconds: 10,
    });
    const wrapped = withRedaction(inner, new Redactor({ knownSecrets: ['hunter22'] }));
    await expect(wrapped.healthCheck()).resolves.toBeUndefined();
    // The wrapper asks the wrapped provider: a dead server fails the health check through it.
    const dead = withRedaction(
      new OllamaProvider({
        provider: 'ollama',
        name: 'm',
        host: await deadServerUrl(),
        temperature: 0,
        seed: 1,
        timeoutSeconds: 2,
      }),
    );
    await expect(dead.healthCheck()).rejects.toThrow();
    expect(await wrapped.toolCalling!()).toEqual(await inner.toolCalling!());
    expect(inner.modelContextTokens!()).toEqual(expect.any(Number));
    expect(wrapped.modelContextTokens!()).toBe(inner.modelContextTokens!());
    const result = await wrapped.chat({
      tools: [READ],
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            {
              name: 'search',
              arguments: { pattern: 'hunter22', nested: ['hunter22', { deep: 'hunter22' }], limit: 5 },
            },
          ],
        },
      ],
    });
    const sent = mock.chatRequests()[0]!.rawBody;
    expect(sent).not.toContain('hunter22');
    expect(sent).toContain('"limit":5');
    expect(result.text).toBe('use hunter22');
    expect(result.shown).toBe('use [REDACTED-1]');
    expect(result.toolCalls?.[0]?.arguments).toEqual({
      file: 'hunter22',
      lines: [1, { note: 'hunter22' }],
      start: 3,
      all: true,
      none: null,
    });
  });
});
