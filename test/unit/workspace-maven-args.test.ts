import { describe, expect, it } from 'vitest';
import {
  MAVEN_OPTIONS,
  MavenArgsError,
  formatMavenArgs,
  goalsOf,
  parseMavenArgs,
  propertyValue,
  rebaseArgs,
  rebasePath,
} from '../../src/workspace/maven-args.js';

describe('parseMavenArgs', () => {
  it.each([
    { args: ['-o', '-q', 'verify'], goals: ['verify'] },
    { args: ['clean', 'install', '-pl', 'a', '-am'], goals: ['clean', 'install'] },
    { args: ['-Dtest=X', 'test'], goals: ['test'] },
    { args: ['-D', 'skipTests', 'package'], goals: ['package'] },
    { args: ['-f', 'sub/pom.xml', 'verify'], goals: ['verify'] },
    { args: ['-T', '1C', 'verify'], goals: ['verify'] },
    { args: ['-T1C', 'verify'], goals: ['verify'] },
    { args: ['-s', 'settings.xml', '-gs', 'g.xml', '-t', 'tc.xml', '-gt', 'gtc.xml', 'compile'], goals: ['compile'] },
    { args: ['--settings=settings.xml', '--projects', 'app', 'verify'], goals: ['verify'] },
    { args: ['-P', 'ci,fast', '-Pother', 'verify'], goals: ['verify'] },
    { args: ['-rf', ':core', '-l', 'out.log', '-b', 'singlethreaded', 'install'], goals: ['install'] },
    { args: ['-e', '-X', '-U', '-N', '-amd', '-fae', '-ntp', '-llr', 'verify'], goals: ['verify'] },
    { args: ['-pl', '!app', 'verify'], goals: ['verify'] },
    { args: ['-pl', '-app', 'verify'], goals: ['verify'] },
    { args: ['dependency:tree', '-DoutputFile=x.txt'], goals: ['dependency:tree'] },
    { args: [], goals: [] },
  ])('$args -> goals $goals, and formats back to the same tokens', ({ args, goals }) => {
    const parsed = parseMavenArgs(args);
    expect(goalsOf(parsed)).toEqual(goals);
    expect(formatMavenArgs(parsed)).toEqual(args);
  });

  it('knows which options take a value, separate or joined', () => {
    const parsed = parseMavenArgs([
      '-pl',
      'a,b',
      '-pla',
      '-Dx=1',
      '--define',
      'y=2',
      '-fae',
      '-fpom.xml',
      '--file=p.xml',
    ]);
    const described = parsed.map((arg) => (arg.type === 'option' ? [arg.spec?.long, arg.value] : ['goal', arg.value]));
    expect(described).toEqual([
      ['projects', 'a,b'],
      ['projects', 'a'],
      ['define', 'x=1'],
      ['define', 'y=2'],
      ['fail-at-end', undefined],
      ['file', 'pom.xml'],
      ['file', 'p.xml'],
    ]);
  });

  it('keeps an unknown option in place as a flag, without swallowing the next token', () => {
    const parsed = parseMavenArgs(['--no-such-flag', 'verify']);
    expect(parsed[0]).toEqual({ type: 'option', tokens: ['--no-such-flag'] });
    expect(goalsOf(parsed)).toEqual(['verify']);
  });

  it.each([['-pl'], ['verify', '-f'], ['-D'], ['--settings'], ['-T']])(
    '%j: a value option at the end is a clear error',
    (...args) => {
      expect(() => parseMavenArgs(args)).toThrow(MavenArgsError);
      expect(() => parseMavenArgs(args)).toThrow(/needs a value, but it is the last argument/);
    },
  );

  it('rejects a non-string argument', () => {
    expect(() => parseMavenArgs(['verify', 3 as unknown as string])).toThrow(/argument 1 is not a string/);
  });

  it('has no option listed twice', () => {
    const names = MAVEN_OPTIONS.flatMap((o) => [o.long, ...(o.short ? [`-${o.short}`] : [])]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('reads -D properties the way Maven does (a bare -Dflag is true, the last one wins)', () => {
    const parsed = parseMavenArgs(['-DskipTests', '-Dmaven.repo.local=/a', '-D', 'maven.repo.local=/b']);
    expect(propertyValue(parsed, 'skipTests')).toBe('true');
    expect(propertyValue(parsed, 'maven.repo.local')).toBe('/b');
    expect(propertyValue(parsed, 'absent')).toBeUndefined();
  });
});

describe('rebaseArgs', () => {
  const from = '/home/dev/shop';
  const to = '/tmp/mvnx-ws-1/project';

  it.each([
    { args: ['-f', 'sub/pom.xml', 'verify'], out: ['-f', `${to}/sub/pom.xml`, 'verify'] },
    { args: ['-f', '/home/dev/shop/sub/pom.xml', 'verify'], out: ['-f', `${to}/sub/pom.xml`, 'verify'] },
    { args: ['--file=sub', 'verify'], out: [`--file=${to}/sub`, 'verify'] },
    { args: ['-fsub/pom.xml', 'verify'], out: [`--file=${to}/sub/pom.xml`, 'verify'] },
    { args: ['-s', '.mvn/settings.xml', '-o'], out: ['-s', `${to}/.mvn/settings.xml`, '-o'] },
    { args: ['-s', '/etc/maven/settings.xml', 'verify'], out: ['-s', '/etc/maven/settings.xml', 'verify'] },
    { args: ['-f', '../other/pom.xml', 'verify'], out: ['-f', '/home/dev/other/pom.xml', 'verify'] },
    { args: ['-f', '/home/dev/shop-other/pom.xml'], out: ['-f', '/home/dev/shop-other/pom.xml'] },
    { args: ['-Dx=/home/dev/shop/a', '-pl', 'core', 'verify'], out: ['-Dx=/home/dev/shop/a', '-pl', 'core', 'verify'] },
  ])('$args', ({ args, out }) => {
    expect(rebaseArgs(args, from, to)).toEqual(out);
  });

  it('resolves relative paths against where the user ran Maven', () => {
    expect(rebaseArgs(['-f', '../pom.xml', 'verify'], from, to, `${from}/core`)).toEqual([
      '-f',
      `${to}/pom.xml`,
      'verify',
    ]);
  });

  it('refuses relative roots', () => {
    expect(() => rebaseArgs(['verify'], 'shop', to)).toThrow(/absolute roots/);
  });

  it('does not take a sibling folder with a common prefix for the project', () => {
    expect(rebasePath('/home/dev/shop2/pom.xml', from, to)).toBe('/home/dev/shop2/pom.xml');
    expect(rebasePath('/home/dev/shop/..pom', from, to)).toBe(`${to}/..pom`);
  });
});
