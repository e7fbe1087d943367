import { homedir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/model/index.js';
import { REDACTED, Redactor, redact, withRedaction } from '../../src/model/redact.js';
import { base64Forms, secretEnvValues } from '../../src/model/secret-values.js';
import { sanitizeSettings, settingsSecrets } from '../../src/maven/settings.js';
import { startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';

// Built from pieces so that this file itself does not trip secret scanners.
const AWS_KEY = ['AKIA', 'IOSFODNN7EXAMPLE'].join('');
const GITHUB = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
const GITLAB = ['glpat', '-', 'xT9kQ2mN8vB4cL6pR3wZ'].join('');
const OPENAI = ['sk', '-proj-', 'Q1w2E3r4T5y6U7i8O9p0AsDfGhJk'].join('');
const SLACK = ['xoxb', '-', '123456789012-1234567890123-AbCdEfGhIjKlMnOp'].join('');
const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'].join(
  '.',
);
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HcRrX4',
  'hM0sNQ6Xq3Qm4fZ3d2fX',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

describe('redact', () => {
  it.each([
    ['an AWS access key id', `aws_access_key_id = ${AWS_KEY}`, AWS_KEY],
    ['a GitHub token', `git clone https://${GITHUB}@github.com/acme/app.git`, GITHUB],
    ['a GitLab token', `PRIVATE-TOKEN ${GITLAB}`, GITLAB],
    ['an OpenAI-style key', `client = new Client("${OPENAI}");`, OPENAI],
    ['a Slack token', `slack.webhook.token ${SLACK}`, SLACK],
    ['a JWT', `Authorization header was ${JWT} today`, JWT],
    ['a PEM private key block', `key:\n${PEM}\nrest`, 'MIIEpAIBAAKCAQEA'],
    ['a quoted password assignment in Java', 'private static final String PASSWORD = "hunter2!";', 'hunter2!'],
    ['a JSON token field', '{"token": "abc123def", "user": "bob"}', 'abc123def'],
    ['a properties password line', 'db.password=s3cr3t-Value', 's3cr3t-Value'],
    ['a YAML api key line', '  apiKey: q8w7e6r5t4', 'q8w7e6r5t4'],
    ['an exported env secret', 'export SONAR_TOKEN=9f8e7d6c5b4a', '9f8e7d6c5b4a'],
    ['a -D password flag', 'mvn deploy -Drepo.password=topsecret -B', 'topsecret'],
    ['a Bearer header', 'Authorization: Bearer abcdefghijklmnop1234', 'abcdefghijklmnop1234'],
    ['credentials in a URL', '<url>https://deployer:pa55word@nexus.acme.io/repo</url>', 'pa55word'],
  ])('removes %s', (_kind, text, secret) => {
    const result = redact(text);
    expect(result).not.toContain(secret);
    expect(result).toContain(REDACTED);
  });

  it('keeps the key of an assignment so the text still reads', () => {
    expect(redact('db.password=s3cr3t')).toBe(`db.password=${REDACTED}`);
    expect(redact('String token = "abc123";')).toBe(`String token = "${REDACTED}";`);
    expect(redact('https://deployer:pa55word@nexus.acme.io/repo')).toBe(
      `https://deployer:${REDACTED}@nexus.acme.io/repo`,
    );
  });

  it.each([
    ['this.password = password;'],
    ['String token = tokenService.issue(user);'],
    ['throw new IllegalStateException("Invalid token: " + token);'],
    ['if (apiKey == null) return;'],
    ['password=${env.DB_PASSWORD}'],
    ['public String getSecret() { return secret; }'],
  ])('leaves code that only names a secret alone: %s', (code) => {
    expect(redact(code)).toBe(code);
  });

  it.each([
    ['/home/alice/work/app/src/Main.java:[3,8] error', '~/work/app/src/Main.java:[3,8] error'],
    ['at /Users/bob/.m2/repository/junit.jar', 'at ~/.m2/repository/junit.jar'],
    ['C:\\Users\\carol\\proj\\pom.xml', '~\\proj\\pom.xml'],
    ['file:///home/dave/x', 'file://~/x'],
  ])('replaces the home folder in %s', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it("replaces the current user's real home folder and extra home folders", () => {
    const home = homedir();
    expect(redact(`${home}/.m2/settings.xml`)).toBe('~/.m2/settings.xml');
    expect(redact('/srv/builds/jenkins/ws/pom.xml', { homeDirs: ['/srv/builds/jenkins'] })).toBe('~/ws/pom.xml');
  });

  it('replaces the project root with . even inside a home folder, but not a longer sibling name', () => {
    const options = { projectRoot: '/home/alice/work/app' };
    expect(redact('[ERROR] /home/alice/work/app/src/main/java/A.java:[1,1]', options)).toBe(
      '[ERROR] ./src/main/java/A.java:[1,1]',
    );
    expect(redact('/home/alice/work/app2/B.java', options)).toBe('~/work/app2/B.java');
  });

  it('applies extra patterns and explains a bad one', () => {
    expect(redact('customer ACME-4411 failed', { extraPatterns: ['ACME-\\d+'] })).toBe(`customer ${REDACTED} failed`);
    expect(redact('id X1 and X2', { extraPatterns: [/X\d/] })).toBe(`id ${REDACTED} and ${REDACTED}`);
    expect(() => redact('x', { extraPatterns: ['(unclosed'] })).toThrow(
      /redact.patterns\[0\] is not a valid regular expression/,
    );
    expect(() => redact('x', { extraPatterns: [''] })).toThrow(/redact.patterns\[0\] is empty/);
  });

  it('does nothing when turned off', () => {
    const text = `/home/alice/x db.password=s3cr3t ${AWS_KEY}`;
    expect(redact(text, { enabled: false })).toBe(text);
  });

  it('leaves ordinary build output unchanged', () => {
    const text =
      '[ERROR] src/main/java/com/acme/App.java:[12,5] cannot find symbol\n  symbol:   class List\n  location: class com.acme.App';
    expect(redact(text)).toBe(text);
  });
});

describe('withRedaction', () => {
  let mock: OllamaMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('sends no secret and no home path to the server: checked on the request body the mock received', async () => {
    mock = await startOllamaMock({ replies: ['ok'] });
    const provider = withRedaction(
      createProvider({
        provider: 'ollama',
        name: 'qwen2.5-coder:7b',
        host: mock.url,
        temperature: 0,
        seed: 1,
        timeoutSeconds: 10,
      }),
      { projectRoot: '/home/alice/app' },
    );
    await provider.chat({
      messages: [
        { role: 'system', content: `Guidelines from /home/alice/.mvnx/team.md` },
        {
          role: 'user',
          content: `[ERROR] /home/alice/app/src/A.java:[3,1]\nString key = "${AWS_KEY}";\n${PEM}\ntoken: ${GITHUB}`,
        },
      ],
    });
    const raw = mock.chatRequests()[0]?.rawBody ?? '';
    expect(raw).toContain('./src/A.java');
    expect(raw).toMatch(/\[REDACTED-\d+\]/);
    for (const secret of [AWS_KEY, GITHUB, 'MIIEpAIBAAKCAQEA', '/home/alice']) expect(raw).not.toContain(secret);
  });

  it('keeps kind, model and host of the wrapped provider and fails early on a bad pattern', () => {
    const inner = createProvider({
      provider: 'ollama',
      name: 'm',
      host: 'http://127.0.0.1:1',
      temperature: 0,
      seed: 1,
      timeoutSeconds: 1,
    });
    const wrapped = withRedaction(inner);
    expect([wrapped.kind, wrapped.model, wrapped.host]).toEqual([inner.kind, inner.model, inner.host]);
    expect(withRedaction(inner, { enabled: false })).toBe(inner);
    expect(() => withRedaction(inner, { extraPatterns: ['[a-'] })).toThrow(/not a valid regular expression/);
  });
});

// More shapes the issue names, built from pieces for the same reason as above.
const NPM = ['npm', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
const GCP_KEY = ['AIza', 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'].join('');
const AZURE = [
  'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=',
  'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYQ==',
  ';EndpointSuffix=core.windows.net',
].join('');
const GCP_JSON = JSON.stringify({ type: 'service_account', private_key_id: 'abc', private_key: `${PEM}\n` });
const GLCBT = ['glcbt', '-', '64_xT9kQ2mN8vB4cL6pR3wZ'].join('');
const SLACK_HOOK = ['https://hooks.slack.com/services/', 'T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'].join('');

describe('redact: every shape the issue names', () => {
  it.each([
    ['an npm token', `//registry.npmjs.org/:_authToken=${NPM}`, NPM],
    [
      'an npmrc _authToken without the npm_ prefix',
      '//nexus.acme.io/:_authToken=0f1e2d3c4b5a69788796a5b4',
      '0f1e2d3c4b5a69788796a5b4',
    ],
    ['a GCP API key', `maps.key=${GCP_KEY}`, GCP_KEY],
    ['a GCP service-account JSON private key', GCP_JSON, 'MIIEpAIBAAKCAQEA'],
    ['an Azure storage connection string', AZURE, 'Zm9vYmFyYmF6cXV4Zm9v'],
    [
      'an Azure SAS signature',
      'https://acme.blob.core.windows.net/c?sv=2022&sig=AbCdEf0123456789%2BXyZ',
      'AbCdEf0123456789',
    ],
    ['a GitLab CI job token', `CI_JOB_TOKEN ${GLCBT}`, GLCBT],
    ['a Slack webhook', `notify: ${SLACK_HOOK}`, 'XXXXXXXXXXXXXXXXXXXXXXXX'],
    ['an XML <password>', '<server><id>n</id><password>s3cr3t!value</password></server>', 's3cr3t!value'],
    ['an XML <passphrase>', '<passphrase>long pass phrase</passphrase>', 'long pass phrase'],
    [
      'a JDBC password parameter',
      'jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=Sup3rS3cret',
      'Sup3rS3cret',
    ],
    ['a JDBC URL with credentials', 'jdbc:postgresql://app:pgpass123@db:5432/app', 'pgpass123'],
    ['a mongodb+srv URL', 'mongodb+srv://admin:m0ng0pw@cluster0.acme.net/db', 'm0ng0pw'],
    ['a Basic auth header', 'Authorization: Basic ZGVwbG95ZXI6cGE1NXdvcmQ=', 'ZGVwbG95ZXI6cGE1NXdvcmQ'],
  ])('removes %s', (_kind, text, secret) => {
    const result = redact(text);
    expect(result).not.toContain(secret);
    expect(result).toContain(REDACTED);
  });

  it('leaves a settings.xml reference to an environment variable alone', () => {
    expect(redact('<password>${env.NEXUS_PASSWORD}</password>')).toBe('<password>${env.NEXUS_PASSWORD}</password>');
  });

  it.each([['String password = password;'], ['if (pwd == null) pwd = readPwd();'], ['<password/>']])(
    'leaves code alone: %s',
    (code) => {
      expect(redact(code)).toBe(code);
    },
  );
});

describe('Redactor: known values', () => {
  const VALUE = ['Tr0ub4dor', '-', 'x9Kq'].join('');

  it.each([
    ['raw', `failed with ${VALUE}`],
    ['inside a longer word', `prefix${VALUE}suffix`],
    ['base64 at offset 0', Buffer.from(VALUE).toString('base64')],
    ['base64 at offset 1', Buffer.from(`a${VALUE}`).toString('base64')],
    ['base64 at offset 2', Buffer.from(`ab${VALUE} and more`).toString('base64')],
    ['base64url', Buffer.from(`??${VALUE}>>`).toString('base64url')],
    ['URL-encoded', `?p=${encodeURIComponent(`${VALUE}&/`)}`],
    ['JSON-escaped', JSON.stringify({ v: `"${VALUE}"` })],
  ])('finds the value %s', (_form, text) => {
    const redactor = new Redactor({ knownSecrets: [VALUE + (_form === 'URL-encoded' ? '&/' : '')] });
    const out = redactor.redact(text);
    expect(out).toMatch(/\[REDACTED-1\]/);
    expect(out).not.toContain(VALUE);
  });

  // A password with the characters JSON and XML escape: each form below differs from the raw value.
  const ESCAPED = ['Pa"ss', '<w&rd', '\\9'].join('');
  it.each([
    ['raw, in a log line', `login failed for ${ESCAPED} at startup`],
    ['JSON-escaped, in a JSON config', JSON.stringify({ banner: { title: 'app', text: ESCAPED } }, null, 2)],
    [
      'XML-escaped, in an XML file',
      `<server>\n  <motd>${ESCAPED.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}</motd>\n</server>`,
    ],
    [
      'XML-escaped, in an attribute',
      `<db label="${ESCAPED.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}"/>`,
    ],
  ])('finds a value that escaping changes: %s', (_form, text) => {
    const jsonForm = JSON.stringify(ESCAPED).slice(1, -1);
    const xmlForm = ESCAPED.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    expect(jsonForm).not.toBe(ESCAPED);
    expect(xmlForm).not.toBe(ESCAPED);
    const redactor = new Redactor({ knownSecrets: [ESCAPED] });
    for (const out of [
      redactor.redact(text),
      redactor.forLocalOutput().redact(text),
      JSON.stringify(redactor.forLocalOutput().redactDeep({ message: text })),
    ]) {
      expect(out).toMatch(/\[REDACTED-1\]/);
      for (const form of [ESCAPED, jsonForm, xmlForm, 'ss<w&rd', 'ss&lt;w&amp;rd', 'a\\"ss'])
        expect(out).not.toContain(form);
    }
    // Mapped back to the very spelling it replaced, so a patch applied to the file keeps its escaping.
    expect(redactor.restore(redactor.redact(text))).toBe(text);
  });

  it('the base64 forms cover every alignment of the value inside a longer text', () => {
    for (const before of ['', 'x', 'xy', 'xyz']) {
      const encoded = Buffer.from(`${before}${VALUE}tail`).toString('base64');
      expect(
        base64Forms(VALUE).some((form) => encoded.includes(form)),
        before,
      ).toBe(true);
    }
  });

  it('ignores values too short or too common to be secrets', () => {
    const redactor = new Redactor({ knownSecrets: ['true', 'abc', '8080', 'password'] });
    expect(redactor.redact('enabled=true on port 8080 abc')).toBe('enabled=true on port 8080 abc');
  });

  it('numbers placeholders consistently, maps them back, and does not redact a placeholder again', () => {
    const redactor = new Redactor({ knownSecrets: [VALUE] });
    const once = redactor.redact(`a ${VALUE} b ${AWS_KEY} c ${VALUE} password="[REDACTED-2]"`);
    expect(once).toBe('a [REDACTED-1] b [REDACTED-2] c [REDACTED-1] password="[REDACTED-2]"');
    expect(redactor.redact(once)).toBe(once);
    expect(redactor.restore('x [REDACTED-1] y [REDACTED-2] z [REDACTED-9]')).toBe(
      `x ${VALUE} y ${AWS_KEY} z [REDACTED-9]`,
    );
  });

  it('redacts every string of a record, keys and numbers untouched', () => {
    const redactor = new Redactor({ knownSecrets: [VALUE] });
    const record = {
      runId: 'r1',
      attempts: [{ n: 1, reason: `leaked ${VALUE}` }],
      mavenArgs: ['-Drepo.password=topsecret'],
      count: 3,
    };
    expect(redactor.redactDeep(record)).toEqual({
      runId: 'r1',
      attempts: [{ n: 1, reason: 'leaked [REDACTED-1]' }],
      mavenArgs: ['-Drepo.password=[REDACTED-2]'],
      count: 3,
    });
  });

  it('is turned off by redact.enabled: false', () => {
    const redactor = new Redactor({ knownSecrets: [VALUE], enabled: false });
    expect(redactor.redact(VALUE)).toBe(VALUE);
  });
});

describe('secret sources', () => {
  it('takes the values of secret-looking environment variables, and of named ones', () => {
    const env = {
      GITHUB_TOKEN: 'g1',
      AWS_SECRET_ACCESS_KEY: 's1',
      NEXUS_PASSWORD: 'p1',
      NPM_CONFIG__AUTH: 'a1',
      MY_API: 'k1',
      PATH: '/usr/bin',
      GIT_AUTHOR_NAME: 'Alice',
      SSH_AUTH_SOCK: '/tmp/a',
    };
    expect(secretEnvValues(env, ['MY_API']).sort()).toEqual(['a1', 'g1', 'k1', 'p1', 's1']);
  });

  it('reads settings.xml passwords and passphrases, CDATA and escapes included, and empties them in a sanitized copy', () => {
    const xml =
      '<settings><!-- <password>old</password> --><servers><server><password>p&amp;1</password></server><server><passphrase><![CDATA[x<y]]></passphrase></server><server><password>${env.X}</password></server></servers><localRepository>/r</localRepository></settings>';
    expect(settingsSecrets(xml)).toEqual(['p&1', 'x<y']);
    const clean = sanitizeSettings(xml);
    expect(clean).not.toContain('p&amp;1');
    expect(clean).not.toContain('x<y');
    expect(clean).toContain('<localRepository>/r</localRepository>');
  });

  it('reads settings.xml secrets as XML: a CDATA that holds a closing tag, a tag with whitespace, repeated elements', () => {
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">',
      '  <!-- the old one: <password>old-but-maybe-live</password> -->',
      '  <servers>',
      '    <server id="nexus"><username>ci</username><password><![CDATA[ab</password>cd]]></password></server>',
      '    <server id="gpg"><passphrase >  spaced-secret  </passphrase ></server>',
      '    <server id="h"><configuration><httpHeaders><property><name>X-Token</name><value>v &lt; 2</value></property></httpHeaders></configuration></server>',
      '  </servers>',
      '  <proxies><proxy><password>proxy&amp;pass</password></proxy><proxy><password>second</password></proxy></proxies>',
      '  <localRepository>/r</localRepository>',
      '</settings>',
      '',
    ].join('\n');
    expect(settingsSecrets(xml)).toEqual(['ab</password>cd', 'spaced-secret', 'proxy&pass', 'second']);
    const clean = sanitizeSettings(xml);
    for (const secret of [
      'ab</password>cd',
      'cd]]>',
      'spaced-secret',
      'proxy&amp;pass',
      'second',
      'old-but-maybe-live',
    ])
      expect(clean).not.toContain(secret);
    // The rest is the same file: attributes, escapes, the repository path and the layout stay.
    expect(clean).toContain('<server id="nexus"><username>ci</username><password></password></server>');
    expect(clean).toContain('<value>v &lt; 2</value>');
    expect(clean).toContain('\n  <localRepository>/r</localRepository>\n</settings>');
    expect(settingsSecrets(clean)).toEqual([]);
  });

  it('still finds the secrets of a settings file that is not well-formed, and sanitizes it to an empty one', () => {
    const broken =
      '<settings><servers><server><password>leaky</password></server><server><passphrase><![CDATA[p<q]]></passphrase></server></servers>';
    expect(settingsSecrets(broken)).toEqual(['leaky', 'p<q']);
    expect(sanitizeSettings(broken)).toBe('<settings/>\n');
  });
});
