import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultLocalRepository } from '../../src/codebase/index.js';
import { resolveMavenUserState } from '../../src/maven/settings.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('the local repository the quick-fixes read jars from', () => {
  // Java's user.home is the account's home, not $HOME: the test sets it as Maven users do, with -Duser.home.
  it('is the one the build uses: settings.xml <localRepository>, then -Dmaven.repo.local', async () => {
    const home = await tempDir('mvnx-local-repo-');
    const project = path.join(home, 'project');
    await mkdir(path.join(home, '.m2'), { recursive: true });
    await mkdir(project);
    expect(defaultLocalRepository({ env: { MAVEN_OPTS: `-Duser.home=${home}` }, projectRoot: project })).toBe(
      path.join(home, '.m2', 'repository'),
    );

    await writeFile(
      path.join(home, '.m2', 'settings.xml'),
      '<settings><!-- <localRepository>/nope</localRepository> --><localRepository>${user.home}/m2-cache</localRepository></settings>',
    );
    expect(defaultLocalRepository({ env: { MAVEN_OPTS: `-Duser.home=${home}` }, projectRoot: project })).toBe(
      path.join(home, 'm2-cache'),
    );

    expect(
      defaultLocalRepository({
        env: { MAVEN_OPTS: `-Duser.home=${home} -Dmaven.repo.local=/srv/repo` },
        projectRoot: project,
      }),
    ).toBe('/srv/repo');
    expect(
      defaultLocalRepository({
        env: { MAVEN_OPTS: `-Duser.home=${home}` },
        projectRoot: project,
        mavenArgs: ['-Dmaven.repo.local=cache', 'verify'],
      }),
    ).toBe(path.join(project, 'cache'));
  });
});

describe('settings.xml <localRepository>, read as XML', () => {
  const read = async (settingsXml: string) => {
    const home = await tempDir('mvnx-settings-xml-');
    await mkdir(path.join(home, '.m2'), { recursive: true });
    await writeFile(path.join(home, '.m2', 'settings.xml'), settingsXml);
    const state = resolveMavenUserState({
      args: [],
      env: { MAVEN_OPTS: `-Duser.home=${home}`, REPO_ROOT: '/srv/env-repo' },
      cwd: home,
    });
    return { home, localRepository: state.localRepository, source: state.localRepositorySource };
  };

  it.each([
    [
      'only in a comment',
      '<settings><!-- <localRepository>/nope</localRepository> --></settings>',
      (home: string) => path.join(home, '.m2', 'repository'),
    ],
    [
      'in CDATA',
      '<settings><localRepository><![CDATA[${user.home}/cdata-repo]]></localRepository></settings>',
      (home: string) => path.join(home, 'cdata-repo'),
    ],
    [
      'with whitespace and line breaks around it',
      '<settings>\n  <localRepository>\n     /srv/spaced\n  </localRepository>\n</settings>',
      () => '/srv/spaced',
    ],
    [
      'with an escaped character and ${env.NAME}',
      '<settings><localRepository>${env.REPO_ROOT}/a&amp;b</localRepository></settings>',
      () => '/srv/env-repo/a&b',
    ],
    [
      'after a profile property of the same name and a mirror',
      '<settings><mirrors><mirror><id>m</id><url>https://repo.example/localRepository</url><mirrorOf>*</mirrorOf></mirror></mirrors><profiles><profile><id>p</id><properties><localRepository>/wrong/profile</localRepository></properties></profile></profiles><localRepository>/srv/right</localRepository></settings>',
      () => '/srv/right',
    ],
    [
      'only as a profile property (not the setting)',
      '<settings><profiles><profile><properties><localRepository>/wrong/profile</localRepository></properties></profile></profiles></settings>',
      (home: string) => path.join(home, '.m2', 'repository'),
    ],
    [
      'in a namespaced file',
      '<?xml version="1.0"?>\n<s:settings xmlns:s="http://maven.apache.org/SETTINGS/1.2.0"><s:localRepository>/srv/ns</s:localRepository></s:settings>',
      () => '/srv/ns',
    ],
    [
      'in a file that is not well-formed (Maven refuses it; the default stands)',
      '<settings><localRepository>/srv/broken</localRepository>',
      (home: string) => path.join(home, '.m2', 'repository'),
    ],
  ])('%s', async (_what, xml, expected) => {
    const { home, localRepository } = await read(xml);
    expect(localRepository).toBe(expected(home));
  });

  it('does not expand a DOCTYPE entity', async () => {
    const { localRepository } = await read(
      '<!DOCTYPE settings [<!ENTITY repo "/evil/repo">]>\n<settings><localRepository>/srv/&repo;</localRepository></settings>',
    );
    expect(localRepository).not.toContain('/evil/repo');
  });
});
