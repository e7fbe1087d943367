import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parseClassFile, parseMethodDescriptor } from '../../src/maven/class-file.js';
import { openJar, openZip } from '../../src/maven/jar.js';
import { artifactJarPath, deprecatedTextIn, readArtifactApi } from '../../src/maven/jar-api.js';

const repo = path.join(homedir(), '.m2', 'repository');
const guava = (version: string) => ({ groupId: 'com.google.guava', artifactId: 'guava', version });
const hasGuava =
  existsSync(artifactJarPath(repo, guava('16.0.1'))) && existsSync(artifactJarPath(repo, guava('25.1-jre')));

/** A zip of one entry, stored or deflated, with the central directory Maven's jars have. */
function zipOf(name: string, content: Buffer, deflate: boolean): Buffer {
  const data = deflate ? deflateRawSync(content) : content;
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(deflate ? 8 : 0, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(deflate ? 8 : 0, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const centralStart = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralStart, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

describe('zip reading', () => {
  it('reads stored and deflated entries', () => {
    const text = Buffer.from('hello '.repeat(50));
    expect(
      openZip(zipOf('a/b.txt', text, false), 'stored.zip')
        .read('a/b.txt')
        ?.toString(),
    ).toBe(text.toString());
    expect(
      openZip(zipOf('a/b.txt', text, true), 'deflated.zip')
        .read('a/b.txt')
        ?.toString(),
    ).toBe(text.toString());
    expect(openZip(zipOf('a/b.txt', text, true), 'deflated.zip').read('missing')).toBeUndefined();
  });

  it('refuses what is not a zip, by name', () => {
    expect(() => openZip(Buffer.from('not a zip at all, just some text that is long enough'), 'x.jar')).toThrow(
      'x.jar: not a zip file (no end of central directory)',
    );
  });
});

describe('class files', () => {
  it('reads descriptors as Java types', () => {
    expect(parseMethodDescriptor('(Ljava/lang/String;[IJ)V')).toEqual({
      parameters: ['java.lang.String', 'int[]', 'long'],
      returns: 'void',
    });
    expect(() => parseMethodDescriptor('Ljava/lang/String;')).toThrow('bad method descriptor');
  });

  it('refuses bytes that are not a class file', () => {
    expect(() => parseClassFile(Buffer.from('PK\u0003\u0004 and more bytes'))).toThrow('not a class file (bad magic)');
  });

  it.skipIf(!hasGuava)(
    'reads guava 16 and 25 from ~/.m2: members, static flags, constructors and the Deprecated attribute',
    async () => {
      const old = (await readArtifactApi(repo, guava('16.0.1')))!;
      const fresh = (await readArtifactApi(repo, guava('25.1-jre')))!;
      const objects = old.classes.get('com.google.common.base.Objects')!;
      const firstNonNull = objects.members.find((member) => member.name === 'firstNonNull')!;
      expect(firstNonNull).toMatchObject({
        kind: 'method',
        parameters: ['java.lang.Object', 'java.lang.Object'],
        type: 'java.lang.Object',
      });
      expect(firstNonNull.access & 0x0008).toBe(0x0008);
      expect(
        fresh.classes.get('com.google.common.base.Objects')!.members.some((member) => member.name === 'firstNonNull'),
      ).toBe(false);
      expect(
        old.classes
          .get('com.google.common.base.Stopwatch')!
          .members.filter((member) => member.kind === 'constructor')
          .map((member) => member.descriptor),
      ).toContain('()V');
      // 25.1 marks CharMatcher.WHITESPACE deprecated (whitespace() replaces it); 16.0.1 did not.
      expect(
        fresh.classes.get('com.google.common.base.CharMatcher')!.members.find((member) => member.name === 'WHITESPACE')
          ?.deprecated,
      ).toBe(true);
      expect(
        old.classes.get('com.google.common.base.CharMatcher')!.members.find((member) => member.name === 'WHITESPACE')
          ?.deprecated,
      ).toBe(false);
      // Nested classes are read under their binary names; package-private classes are not API.
      expect(old.classes.has('com.google.common.base.Objects$ToStringHelper')).toBe(true);
      expect(old.bySimpleName.get('Objects')).toEqual(['com.google.common.base.Objects']);
    },
  );

  it.skipIf(!hasGuava)('reads a jar entry the same as unzip does', async () => {
    const jar = await openJar(artifactJarPath(repo, guava('16.0.1')));
    const bytes = jar.read('com/google/common/base/Objects.class')!;
    const unzipped = (
      await execa('unzip', ['-p', artifactJarPath(repo, guava('16.0.1')), 'com/google/common/base/Objects.class'], {
        encoding: 'buffer',
      })
    ).stdout;
    expect(Buffer.compare(bytes, Buffer.from(unzipped))).toBe(0);
    expect(parseClassFile(bytes).name).toBe('com.google.common.base.Objects');
  });
});

describe('@deprecated text from sources', () => {
  it('takes the text of the Javadoc right before the member', () => {
    const source = `class A {\n  /**\n   * Old.\n   * @deprecated use {@link #find(String)}\n   *   instead\n   * @param key the key\n   */\n  @Deprecated\n  public String lookup(String key) { return null; }\n\n  /** Fine. */\n  public String find(String key) { return null; }\n}`;
    expect(deprecatedTextIn(source, 'lookup')).toBe('use {@link #find(String)} instead');
    expect(deprecatedTextIn(source, 'find')).toBeUndefined();
  });
});
