import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFootprint, type BuildFootprint } from '../../src/workspace/build-footprint.js';
import { bwrapArgs } from '../../src/workspace/bwrap.js';
import { containerCommand } from '../../src/workspace/container.js';
import { buildEnvironment } from '../../src/workspace/sandbox-env.js';
import {
  describeSandbox,
  detectSandbox,
  requireSandbox,
  SandboxError,
  suggestedImage,
} from '../../src/workspace/sandbox.js';

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-sandbox-unit-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function script(name: string, body: string): Promise<string> {
  const file = path.join(scratch, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

/** PATH with only fakes for the container engines, so the real clients on this machine do not answer. */
async function enginesDir(dockerBody: string, podmanBody = dockerBody): Promise<NodeJS.ProcessEnv> {
  const dir = await mkdtemp(path.join(scratch, 'bin-'));
  for (const [name, body] of [
    ['docker', dockerBody],
    ['podman', podmanBody],
  ] as const) {
    await writeFile(path.join(dir, name), `#!/bin/sh\n${body}\n`);
    await chmod(path.join(dir, name), 0o755);
  }
  return { PATH: `${dir}${path.delimiter}/usr/bin${path.delimiter}/bin` };
}

describe('detectSandbox', () => {
  it('mode none: not isolated, and the reason says the mode turned it off', async () => {
    const info = await detectSandbox('none');
    expect(info).toMatchObject({ kind: 'none', isolated: false, available: true });
    expect(info.reason).toMatch(/sandbox.mode is none/);
  });

  it('auto with nothing working: none, and the reason names each backend and why it was passed over', async () => {
    const env = await enginesDir(
      'echo "Cannot connect to the Docker daemon" >&2; exit 1',
      'echo "unable to connect to Podman socket" >&2; exit 125',
    );
    const info = await detectSandbox('auto', {
      bwrapExecutable: path.join(scratch, 'no-bwrap'),
      image: 'maven:3.9-eclipse-temurin-17',
      env,
    });
    expect(info).toMatchObject({ kind: 'none', isolated: false, available: true });
    expect(info.tried.map((t) => t.kind)).toEqual(['bwrap', 'podman', 'docker']);
    expect(info.reason).toMatch(
      /^no sandbox available \(bwrap: bubblewrap \(.*no-bwrap\) is not installed; podman: podman cannot run maven:3.9-eclipse-temurin-17 with --network none \(unable to connect to Podman socket\); docker: docker cannot run .* \(Cannot connect to the Docker daemon\)\)$/,
    );
  });

  it('auto falls through to a container engine that works, in the order bwrap, podman, docker', async () => {
    const env = await enginesDir('exit 0', 'echo "no podman here" >&2; exit 127');
    const info = await detectSandbox('auto', { bwrapExecutable: path.join(scratch, 'no-bwrap'), image: 'img:1', env });
    expect(info).toMatchObject({ kind: 'docker', isolated: true, available: true, image: 'img:1' });
    expect(info.tried.map((t) => [t.kind, t.problem === undefined])).toEqual([
      ['bwrap', false],
      ['podman', false],
      ['docker', true],
    ]);
  });

  it('the container probe runs the build’s own flags and the image’s java', async () => {
    const log = path.join(scratch, 'probe-args');
    const env = await enginesDir(`echo "$@" > ${log}; exit 0`);
    await detectSandbox('docker', { image: 'img:2', env });
    const args = await readFile(log, 'utf8');
    expect(args).toMatch(
      /^run --rm --pull never --network none --read-only --tmpfs \/tmp --cap-drop ALL --security-opt no-new-privileges --name mvnx-probe-[0-9a-f]+ img:2 java -version/,
    );
  });

  it('bwrap demanded but missing: unavailable, with the reason, and requireSandbox refuses it', async () => {
    const info = await detectSandbox('bwrap', { bwrapExecutable: path.join(scratch, 'no-bwrap') });
    expect(info).toMatchObject({ kind: 'bwrap', available: false, isolated: false });
    expect(info.reason).toMatch(/is not installed/);
    expect(() => requireSandbox(info)).toThrow(SandboxError);
    expect(() => requireSandbox(info)).toThrow(
      /^sandbox.mode bwrap is required but unavailable: bubblewrap .* is not installed$/,
    );
  });

  it('a docker required without an image is unavailable, and says which field to set', async () => {
    const info = await detectSandbox('docker', {});
    expect(info).toMatchObject({ kind: 'docker', available: false });
    expect(info.reason).toMatch(/set sandbox.image/);
  });

  it('a bwrap that answers --version but cannot isolate (as in an unprivileged container) is not trusted', async () => {
    const broken = await script(
      'broken-bwrap',
      '[ "$1" = --version ] && { echo "bubblewrap 0.8.0"; exit 0; }\necho "bwrap: No permissions to create new namespace" >&2\nexit 1',
    );
    const env = await enginesDir('exit 1');
    const info = await detectSandbox('auto', { bwrapExecutable: broken, env });
    expect(info.kind).toBe('none');
    expect(info.reason).toMatch(
      /installed but cannot isolate a process here \(bwrap: No permissions to create new namespace\)/,
    );
  });

  it('rejects an unknown mode', async () => {
    await expect(detectSandbox('firejail' as 'auto')).rejects.toThrow(
      /unknown sandbox mode "firejail"; expected auto, bwrap, podman, docker, none/,
    );
  });

  it('describes what isolates the build, or that nothing does', () => {
    expect(describeSandbox({ kind: 'bwrap', isolated: true, available: true, tried: [] })).toMatch(
      /run isolated \(bwrap: network off/,
    );
    expect(describeSandbox({ kind: 'none', isolated: false, available: true, reason: 'because', tried: [] })).toBe(
      'verification builds run WITHOUT isolation: because',
    );
  });

  it('suggests an image for the project’s Java release', () => {
    expect(suggestedImage('21')).toBe('maven:3.9-eclipse-temurin-21');
    expect(suggestedImage(undefined)).toBe('maven:3.9-eclipse-temurin-17');
  });
});

describe('buildEnvironment', () => {
  const host = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    JAVA_HOME: '/jdk',
    MAVEN_OPTS: '-Xmx1g',
    LANG: 'C.UTF-8',
    LC_ALL: 'C',
    TZ: 'UTC',
    AWS_SECRET_ACCESS_KEY: 'x',
    GITHUB_TOKEN: 'x',
    NEXUS_PASSWORD: 'x',
    DB_URL: 'jdbc:h2:mem',
    CI: 'true',
    SSH_AUTH_SOCK: '/tmp/agent',
  };

  it('starts empty and passes only the allowlist', () => {
    const { env, dropped } = buildEnvironment(host);
    expect(Object.keys(env).sort()).toEqual(['HOME', 'JAVA_HOME', 'LANG', 'LC_ALL', 'MAVEN_OPTS', 'PATH', 'TZ']);
    expect(dropped).toEqual([
      'AWS_SECRET_ACCESS_KEY',
      'CI',
      'DB_URL',
      'GITHUB_TOKEN',
      'NEXUS_PASSWORD',
      'SSH_AUTH_SOCK',
    ]);
  });

  it('sandbox.env.pass adds names and prefixes, but a secret-looking name only when written out in full', () => {
    expect(Object.keys(buildEnvironment(host, ['DB_*', 'CI']).env)).toEqual(expect.arrayContaining(['DB_URL', 'CI']));
    expect(buildEnvironment(host, ['NEXUS_*', 'GITHUB_*']).env).not.toHaveProperty('NEXUS_PASSWORD');
    expect(buildEnvironment(host, ['NEXUS_PASSWORD']).env.NEXUS_PASSWORD).toBe('x');
  });
});

describe('the bwrap profile', () => {
  let footprint: BuildFootprint;
  let home: string;
  let workspace: string;

  beforeAll(async () => {
    home = path.join(scratch, 'home');
    workspace = path.join(scratch, 'ws', 'project');
    await mkdir(path.join(home, '.m2', 'repository'), { recursive: true });
    await mkdir(workspace, { recursive: true });
    await writeFile(
      path.join(home, '.m2', 'settings.xml'),
      '<settings><servers><server><id>n</id><password>Hunter2-secret</password></server></servers></settings>',
    );
    footprint = await buildFootprint({
      workspaceRoot: workspace,
      cwd: workspace,
      executable: '/usr/bin/mvn',
      args: ['-o', 'verify'],
      env: { PATH: process.env.PATH, HOME: home, MAVEN_OPTS: `-Duser.home=${home}` },
      scratchDir: path.join(scratch, 'ws'),
    });
  });

  it('reads the user’s Maven state the way Maven does (user.home from MAVEN_OPTS), and learns the settings secrets', () => {
    expect(footprint.maven.localRepository).toBe(path.join(home, '.m2', 'repository'));
    expect(footprint.settingsSecrets).toEqual(['Hunter2-secret']);
    expect(footprint.hidden).toContain(home);
  });

  it('binds no host root, hides the home, brings back the repository read-only and settings.xml without its password', async () => {
    const args = bwrapArgs(footprint);
    const text = args.join(' ');
    expect(text).not.toMatch(/--ro-bind \/ \//);
    for (const flag of ['--unshare-all', '--die-with-parent', '--new-session']) expect(args).toContain(flag);
    expect(args).not.toContain('--share-net');
    const hide = args.findIndex((a, i) => a === '--tmpfs' && args[i + 1] === home);
    const repo = args.findIndex(
      (a, i) => a === '--ro-bind-try' && args[i + 1] === path.join(home, '.m2', 'repository'),
    );
    expect(hide).toBeGreaterThan(-1);
    expect(repo).toBeGreaterThan(hide);
    const settings = args.findIndex(
      (a, i) => a === '--ro-bind' && args[i + 2] === path.join(home, '.m2', 'settings.xml'),
    );
    expect(settings).toBeGreaterThan(hide);
    expect(await readFile(args[settings + 1]!, 'utf8')).toBe(
      '<settings><servers><server><id>n</id><password></password></server></servers></settings>',
    );
    // The workspace is the one writable bind, mounted after the private /tmp; then the root goes read-only.
    expect(text).toContain(`--bind ${workspace} ${workspace} --remount-ro /`);
    expect(args.indexOf('--bind')).toBeGreaterThan(args.indexOf('/tmp'));
    expect(args.filter((a) => a === '--bind')).toHaveLength(1);
    expect(text).not.toMatch(/\/run|docker\.sock|\.ssh/);
    expect(args.slice(-4)).toEqual(['TMPDIR', '/tmp', '--chdir', workspace]);
  });

  it('the container command: network none, removed after, workspace at the same path, repository read-only, -e names only', () => {
    const { args, env } = containerCommand({
      engine: 'docker',
      image: 'img:1',
      name: 'mvnx-verify-1',
      footprint,
      env: { PATH: '/usr/bin', HOME: home, MAVEN_OPTS: '-Xmx1g', LANG: 'C.UTF-8' },
      executable: '/usr/bin/mvn',
      args: ['-o', 'verify'],
      user: '1000:1000',
    });
    const text = args.join(' ');
    expect(text).toMatch(
      /^run --rm --pull never --network none --read-only --tmpfs \/tmp --cap-drop ALL --security-opt no-new-privileges --name mvnx-verify-1 --user 1000:1000 /,
    );
    expect(text).toContain(`-v ${path.join(home, '.m2', 'repository')}:${path.join(home, '.m2', 'repository')}:ro`);
    expect(text).toContain(`:${path.join(home, '.m2', 'settings.xml')}:ro`);
    expect(text).toContain(`-v ${workspace}:${workspace} `);
    expect(text).toContain('-e LANG ');
    expect(text).toContain('-e MAVEN_OPTS ');
    expect(text).toContain(`-e HOME=${home}`);
    // The host's PATH and JDK mean nothing in the image; the image's mvn runs.
    expect(text).not.toContain('-e PATH');
    expect(args.slice(-4)).toEqual(['img:1', 'mvn', '-o', 'verify']);
    expect(env.MAVEN_OPTS).toBe(`-Xmx1g -Duser.home=${home}`);
    expect(text).not.toContain('Hunter2');
  });

  it('podman keeps the user’s uid with --userns keep-id instead of --user', () => {
    const { args } = containerCommand({
      engine: 'podman',
      image: 'i',
      name: 'n',
      footprint,
      env: {},
      executable: 'mvn',
      args: ['verify'],
      user: '1:1',
    });
    expect(args.join(' ')).toContain('--userns keep-id');
    expect(args).not.toContain('--user');
  });
});

describe('the build footprint', () => {
  it('keeps PATH folders and JAVA_HOME as written that live in the hidden home usable, and binds nothing else of it', async () => {
    const home = path.join(scratch, 'home2');
    const tools = path.join(home, '.sdkman', 'candidates', 'maven', 'current', 'bin');
    const jdk = path.join(home, '.sdkman', 'candidates', 'java', 'current');
    await mkdir(tools, { recursive: true });
    await mkdir(path.join(jdk, 'bin'), { recursive: true });
    await mkdir(path.join(home, '.ssh'), { recursive: true });
    const workspace = path.join(scratch, 'ws2');
    await mkdir(workspace, { recursive: true });
    const footprint = await buildFootprint({
      workspaceRoot: workspace,
      cwd: workspace,
      executable: '/usr/bin/mvn',
      args: ['verify'],
      env: { PATH: `${tools}:/usr/bin`, HOME: home, JAVA_HOME: jdk, MAVEN_OPTS: `-Duser.home=${home}` },
      scratchDir: scratch,
    });
    expect(footprint.toolDirs).toEqual([tools]);
    expect(footprint.readOnly).toContain(jdk);
    const args = bwrapArgs(footprint).join(' ');
    expect(args).toContain(`--ro-bind-try ${tools} ${tools}`);
    expect(args).not.toContain('.ssh');
  });
});

describe('the Maven the sandbox shows', () => {
  async function footprintFor(executable: string) {
    const workspace = await mkdtemp(path.join(scratch, 'ws-mvn-'));
    return buildFootprint({
      workspaceRoot: workspace,
      cwd: workspace,
      executable,
      args: ['verify'],
      env: { PATH: '/usr/bin', HOME: path.join(scratch, 'home3') },
      scratchDir: scratch,
    });
  }

  it('binds a Maven installation (bin/mvn beside boot/ and lib/) whole', async () => {
    const install = path.join(scratch, 'apache-maven-3.9.9');
    for (const dir of ['bin', 'boot', 'lib']) await mkdir(path.join(install, dir), { recursive: true });
    const mvn = path.join(install, 'bin', 'mvn');
    await writeFile(mvn, '#!/bin/sh\n');
    await chmod(mvn, 0o755);
    expect((await footprintFor(mvn)).readOnly).toContain(install);
  });

  it('binds an mvn that is a script of its own (a wrapper in /tmp or ~/bin) alone, never the folder above it', async () => {
    const wrapper = await script('mvn', 'exec /usr/bin/mvn "$@"');
    const footprint = await footprintFor(wrapper);
    expect(footprint.readOnly).toContain(wrapper);
    // The grandparent of scratch/mvn is the system temp folder: bound, it would replace the private /tmp with the host's, read-only.
    expect(footprint.readOnly).not.toContain(path.dirname(scratch));
    expect(footprint.readOnly).not.toContain(scratch);
    expect(bwrapArgs(footprint).join(' ')).not.toContain(`--ro-bind-try ${path.dirname(scratch)} `);
  });
});
