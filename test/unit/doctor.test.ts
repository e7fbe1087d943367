import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/doctor.js';
import { FIXERS_FIXTURES } from './fixers-support.js';

const project = path.join(FIXERS_FIXTURES, 'literal-return', 'project');
let server: Server;
let host: string;
let closedPortHost: string;
let scratch: string;
const requests: string[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-doctor-'));
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    if (request.url === '/api/version') response.end(JSON.stringify({ version: '0.6.4' }));
    else if (request.url === '/api/tags')
      response.end(JSON.stringify({ models: [{ name: 'qwen2.5-coder:7b' }, { name: 'tiny:latest' }] }));
    // What an OpenAI-compatible server (llama.cpp, vLLM, LM Studio) lists.
    else if (request.url === '/v1/models')
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'served-coder', object: 'model' }] }));
    else response.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port that was just free: bind, read it, close, so nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPortHost = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(scratch, { recursive: true, force: true });
});

async function doctor(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = project,
): Promise<{ code: number; lines: string[] }> {
  let output = '';
  const code = await run(args, { cwd, env, write: (text) => (output += text) });
  return { code, lines: output.trimEnd().split('\n') };
}

function line(lines: string[], check: string): string {
  return lines.find((l) => l.slice(5).startsWith(`${check}:`)) ?? `(no ${check} line in:\n${lines.join('\n')})`;
}

const baseEnv = (): NodeJS.ProcessEnv => {
  const {
    MVNX_HOST: _a,
    OLLAMA_HOST: _b,
    MVNX_MODEL: _c,
    MVNX_MAVEN: _d,
    MVNX_CONFIG: _e,
    NODE_EXTRA_CA_CERTS: _f,
    ...rest
  } = process.env;
  return rest;
};

describe('mvnx doctor on this machine', () => {
  it('reports Java, Maven, offline readiness, config and a reachable model server with the model pulled', async () => {
    const { code, lines } = await doctor([], { ...baseEnv(), MVNX_HOST: host });
    expect(line(lines, 'java')).toMatch(/^ok {3}java: 17\./);
    expect(line(lines, 'maven')).toMatch(/^ok {3}maven: \/.*mvn/);
    expect(line(lines, 'maven version')).toMatch(/^ok {3}maven version: 3\.\d+\.\d+/);
    expect(line(lines, 'offline')).toMatch(/^ok {3}offline: 6 pinned plugin\(s\) present/);
    expect(line(lines, 'config')).toMatch(/^ok {3}config: tier /);
    expect(line(lines, 'model server')).toBe(`ok   model server: Ollama 0.6.4 at ${host}`);
    expect(line(lines, 'model')).toBe('ok   model: qwen2.5-coder:7b is pulled');
    expect(line(lines, 'sandbox')).toMatch(/^(ok|warn)\s+sandbox: /);
    expect(requests).toContain('/api/version');
    expect(requests).toContain('/api/tags');
    expect(code).toBe(0);
  });

  it('says so when NODE_EXTRA_CA_CERTS is not set, and measures what it costs node when it is', async () => {
    const unset = await doctor([], { ...baseEnv(), MVNX_HOST: closedPortHost });
    expect(line(unset.lines, 'start-up')).toBe('ok   start-up: NODE_EXTRA_CA_CERTS is not set');
    // Node's own root certificates as a bundle file, as a company CA bundle would be.
    const bundle = path.join(scratch, 'extra-ca.pem');
    await writeFile(bundle, rootCertificates.join('\n'));
    const set = await doctor([], { ...baseEnv(), MVNX_HOST: closedPortHost, NODE_EXTRA_CA_CERTS: bundle });
    expect(line(set.lines, 'start-up')).toMatch(
      new RegExp(
        `^(ok   start-up: NODE_EXTRA_CA_CERTS=${bundle} costs|warn start-up: NODE_EXTRA_CA_CERTS=${bundle} adds) about -?\\d+ ms`,
      ),
    );
    expect(set.code).toBe(0);
  }, 30_000);

  it('warns, but passes, when the model is not pulled', async () => {
    const { code, lines } = await doctor(['--mvnx-model=llama9:70b'], { ...baseEnv(), MVNX_HOST: host });
    expect(line(lines, 'model')).toBe(
      'warn model: llama9:70b is not pulled on ' +
        host +
        ' — run ollama pull llama9:70b; quick-fixes still work without a model',
    );
    expect(code).toBe(0);
  });

  it('warns, but passes, when nothing listens on the model port', async () => {
    const { code, lines } = await doctor([], { ...baseEnv(), OLLAMA_HOST: closedPortHost });
    expect(line(lines, 'model server')).toMatch(
      new RegExp(
        `^warn model server: cannot reach ${closedPortHost}: ECONNREFUSED — .*quick-fixes still work without a model$`,
      ),
    );
    expect(lines.some((l) => l.includes(' model: '))).toBe(false);
    expect(code).toBe(0);
  });

  it('fails with exit 1 when the configured Maven does not exist', async () => {
    const { code, lines } = await doctor([], {
      ...baseEnv(),
      MVNX_HOST: closedPortHost,
      MVNX_MAVEN: '/nonexistent/mvn',
    });
    expect(line(lines, 'maven')).toMatch(
      /^FAIL maven: MVNX_MAVEN names \/nonexistent\/mvn, which is not an executable file — /,
    );
    expect(code).toBe(1);
  });

  it('fails with exit 1 and names the file when the config is invalid', async () => {
    const bad = path.join(scratch, 'bad.mvnxrc.json');
    await writeFile(bad, JSON.stringify({ tier: 'sometimes' }));
    const { code, lines } = await doctor([`--mvnx-config=${bad}`], { ...baseEnv(), MVNX_HOST: closedPortHost });
    expect(line(lines, 'config')).toMatch(/^FAIL config: .*bad\.mvnxrc\.json.*tier/);
    expect(code).toBe(1);
  });

  it('warns about pinned plugins missing from the local repository', async () => {
    const projectDir = path.join(scratch, 'unpinned');
    await import('node:fs/promises').then((fs) => fs.mkdir(projectDir, { recursive: true }));
    await writeFile(
      path.join(projectDir, 'pom.xml'),
      '<project><build><plugins><plugin><artifactId>maven-imaginary-plugin</artifactId><version>9.9.9</version></plugin></plugins></build></project>',
    );
    const { lines } = await doctor([], { ...baseEnv(), MVNX_HOST: closedPortHost }, projectDir);
    expect(line(lines, 'offline')).toMatch(
      /^warn offline: pinned plugins missing from .*: org\.apache\.maven\.plugins:maven-imaginary-plugin:9\.9\.9 — /,
    );
  });

  it('reads the local repository as the build does: -Dmaven.repo.local in MAVEN_OPTS counts', async () => {
    const projectDir = path.join(scratch, 'repo-local');
    await import('node:fs/promises').then((fs) => fs.mkdir(projectDir, { recursive: true }));
    await writeFile(path.join(projectDir, 'pom.xml'), '<project/>');
    const elsewhere = path.join(scratch, 'elsewhere-repository');
    const { lines } = await doctor(
      [],
      { ...baseEnv(), MVNX_HOST: closedPortHost, MAVEN_OPTS: `-Xmx1g -Dmaven.repo.local=${elsewhere}` },
      projectDir,
    );
    expect(line(lines, 'offline')).toContain(`no local repository at ${elsewhere}`);
  });

  it("checks an OpenAI-compatible provider with its own health check, not Ollama's /api/version", async () => {
    const projectDir = path.join(scratch, 'openai');
    await import('node:fs/promises').then((fs) => fs.mkdir(projectDir, { recursive: true }));
    await writeFile(path.join(projectDir, 'pom.xml'), '<project/>');
    await writeFile(
      path.join(projectDir, '.mvnxrc.yaml'),
      `model:\n  provider: openai-compatible\n  host: ${host}\n  name: served-coder\n`,
    );
    const { lines } = await doctor([], baseEnv(), projectDir);
    expect(line(lines, 'model server')).toBe(`ok   model server: OpenAI-compatible server at ${host}`);
    expect(line(lines, 'model')).toBe('ok   model: served-coder is served');

    await writeFile(
      path.join(projectDir, '.mvnxrc.yaml'),
      `model:\n  provider: openai-compatible\n  host: ${host}\n  name: absent-model\n`,
    );
    const missing = await doctor([], baseEnv(), projectDir);
    expect(line(missing.lines, 'model server')).toMatch(
      /^warn model server: the OpenAI-compatible server at .* fails its health check: .*does not serve model absent-model \(it lists: served-coder\)/,
    );
  });

  it('loads the configured plugins and lists what each brings, or fails with exit 1 naming the one that is broken', async () => {
    const projectDir = path.join(scratch, 'with-plugins');
    await import('node:fs/promises').then((fs) => fs.mkdir(projectDir, { recursive: true }));
    await writeFile(path.join(projectDir, 'pom.xml'), '<project/>');
    await writeFile(
      path.join(projectDir, 'typos.mjs'),
      "export default { name: 'acme', version: '2.0.0', fixers: [{ name: 'acme/x', handles: () => false, propose: async () => [] }], parsers: [{ name: 'acme-lint', start: () => ({}) }] };\n",
    );
    await writeFile(path.join(projectDir, '.mvnxrc.yaml'), 'plugins:\n  - ./typos.mjs\n');
    const good = await doctor([], { ...baseEnv(), MVNX_HOST: closedPortHost }, projectDir);
    expect(line(good.lines, 'plugins')).toBe(
      'ok   plugins: acme 2.0.0 (1 fixer(s), 0 reporter(s), 0 tool(s), 1 parser(s))',
    );
    expect(good.code).toBe(0);

    await writeFile(path.join(projectDir, '.mvnxrc.yaml'), 'plugins:\n  - ./typos.mjs\n  - mvnx-plugin-absent\n');
    const bad = await doctor([], { ...baseEnv(), MVNX_HOST: closedPortHost }, projectDir);
    expect(line(bad.lines, 'plugins')).toMatch(
      /^FAIL plugins: plugin mvnx-plugin-absent: not found from .*with-plugins .*— install the plugin or fix the path/,
    );
    expect(bad.code).toBe(1);
  });

  it('reports no plugins when none are configured', async () => {
    const { lines } = await doctor([], { ...baseEnv(), MVNX_HOST: closedPortHost });
    expect(line(lines, 'plugins')).toBe('ok   plugins: none configured');
  });

  it.each([
    [['--verbose'], 'unknown argument --verbose'],
    [['now'], 'unknown argument now'],
    [['--mvnx-config'], 'flag --mvnx-config needs a value: --mvnx-config=FILE'],
    [['--mvnx-hots=gpu-box'], 'unknown flag --mvnx-hots; did you mean --mvnx-host? (see mvnx --help)'],
    [['--mvnx-agent=maybe'], 'flag --mvnx-agent is a switch: use --mvnx-agent or --mvnx-agent=true|false, not "maybe"'],
  ])('refuses %j with the usage error (exit 2) before probing anything', async (args, what) => {
    let output = '';
    await expect(run(args, { cwd: project, env: baseEnv(), write: (text) => (output += text) })).rejects.toMatchObject({
      exitCode: 2,
      message: `mvnx doctor: ${what}; usage: mvnx doctor [--mvnx-config=FILE] [--mvnx-host=URL] [--mvnx-model=NAME] [--mvnx-maven=PATH] [--mvnx-NAME=VALUE ...]`,
    });
    expect(output).toBe('');
  });

  it('prints its usage for --help', async () => {
    const { code, lines } = await doctor(['--help'], baseEnv());
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^usage: mvnx doctor /);
  });
});
