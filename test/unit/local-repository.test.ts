import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultLocalRepository } from '../../src/repair/fixers/declared-classpath.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('the local repository the quick-fixes read jars from', () => {
  // Java's user.home is the account's home, not $HOME: the test sets it as Maven users do, with -Duser.home.
  it('is the one the build uses: settings.xml <localRepository>, then -Dmaven.repo.local', async () => {
    const home = await tempDir('mvnx-local-repo-');
    const project = path.join(home, 'project');
    await mkdir(path.join(home, '.m2'), { recursive: true });
    await mkdir(project);
    expect(defaultLocalRepository({ env: { MAVEN_OPTS: `-Duser.home=${home}` }, projectRoot: project })).toBe(path.join(home, '.m2', 'repository'));

    await writeFile(path.join(home, '.m2', 'settings.xml'), '<settings><!-- <localRepository>/nope</localRepository> --><localRepository>${user.home}/m2-cache</localRepository></settings>');
    expect(defaultLocalRepository({ env: { MAVEN_OPTS: `-Duser.home=${home}` }, projectRoot: project })).toBe(path.join(home, 'm2-cache'));

    expect(defaultLocalRepository({ env: { MAVEN_OPTS: `-Duser.home=${home} -Dmaven.repo.local=/srv/repo` }, projectRoot: project })).toBe('/srv/repo');
    expect(defaultLocalRepository({ env: { MAVEN_OPTS: `-Duser.home=${home}` }, projectRoot: project, mavenArgs: ['-Dmaven.repo.local=cache', 'verify'] })).toBe(path.join(project, 'cache'));
  });
});
