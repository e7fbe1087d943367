import { homedir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/model/index.js';
import { REDACTED, redact, withRedaction } from '../../src/model/redact.js';
import { startOllamaMock, type OllamaMock } from '../../src/bench/ollama-api-server.js';

// Built from pieces so that this file itself does not trip secret scanners.
const AWS_KEY = ['AKIA', 'IOSFODNN7EXAMPLE'].join('');
const GITHUB = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
const GITLAB = ['glpat', '-', 'xT9kQ2mN8vB4cL6pR3wZ'].join('');
const OPENAI = ['sk', '-proj-', 'Q1w2E3r4T5y6U7i8O9p0AsDfGhJk'].join('');
const SLACK = ['xoxb', '-', '123456789012-1234567890123-AbCdEfGhIjKlMnOp'].join('');
const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'].join('.');
const PEM = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HcRrX4', 'hM0sNQ6Xq3Qm4fZ3d2fX', '-----END RSA PRIVATE KEY-----'].join('\n');

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
    expect(redact('https://deployer:pa55word@nexus.acme.io/repo')).toBe(`https://deployer:${REDACTED}@nexus.acme.io/repo`);
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
    expect(redact('[ERROR] /home/alice/work/app/src/main/java/A.java:[1,1]', options)).toBe('[ERROR] ./src/main/java/A.java:[1,1]');
    expect(redact('/home/alice/work/app2/B.java', options)).toBe('~/work/app2/B.java');
  });

  it('applies extra patterns and explains a bad one', () => {
    expect(redact('customer ACME-4411 failed', { extraPatterns: ['ACME-\\d+'] })).toBe(`customer ${REDACTED} failed`);
    expect(redact('id X1 and X2', { extraPatterns: [/X\d/] })).toBe(`id ${REDACTED} and ${REDACTED}`);
    expect(() => redact('x', { extraPatterns: ['(unclosed'] })).toThrow(/redact.patterns\[0\] is not a valid regular expression/);
    expect(() => redact('x', { extraPatterns: [''] })).toThrow(/redact.patterns\[0\] is empty/);
  });

  it('does nothing when turned off', () => {
    const text = `/home/alice/x db.password=s3cr3t ${AWS_KEY}`;
    expect(redact(text, { enabled: false })).toBe(text);
  });

  it('leaves ordinary build output unchanged', () => {
    const text = '[ERROR] src/main/java/com/acme/App.java:[12,5] cannot find symbol\n  symbol:   class List\n  location: class com.acme.App';
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
      createProvider({ provider: 'ollama', name: 'qwen2.5-coder:7b', host: mock.url, temperature: 0, seed: 1, timeoutSeconds: 10 }),
      { projectRoot: '/home/alice/app' },
    );
    await provider.chat({
      messages: [
        { role: 'system', content: `Guidelines from /home/alice/.mvnx/team.md` },
        { role: 'user', content: `[ERROR] /home/alice/app/src/A.java:[3,1]\nString key = "${AWS_KEY}";\n${PEM}\ntoken: ${GITHUB}` },
      ],
    });
    const raw = mock.chatRequests()[0]?.rawBody ?? '';
    expect(raw).toContain('./src/A.java');
    expect(raw).toContain(REDACTED);
    for (const secret of [AWS_KEY, GITHUB, 'MIIEpAIBAAKCAQEA', '/home/alice']) expect(raw).not.toContain(secret);
  });

  it('keeps kind, model and host of the wrapped provider and fails early on a bad pattern', () => {
    const inner = createProvider({ provider: 'ollama', name: 'm', host: 'http://127.0.0.1:1', temperature: 0, seed: 1, timeoutSeconds: 1 });
    const wrapped = withRedaction(inner);
    expect([wrapped.kind, wrapped.model, wrapped.host]).toEqual([inner.kind, inner.model, inner.host]);
    expect(withRedaction(inner, { enabled: false })).toBe(inner);
    expect(() => withRedaction(inner, { extraPatterns: ['[a-'] })).toThrow(/not a valid regular expression/);
  });
});
