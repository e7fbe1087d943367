import { describe, expect, it } from 'vitest';
import { aliasCollisions, canonicalPath, foldName, foldPath, matchPathGlob } from '../../src/patch/index.js';

// canonical-path.ts rule by rule: the one spelling a path gets, the reason each refused
// spelling is given (code and message), and the limits at their boundary.

const refusal = (raw: string) => {
  const result = canonicalPath(raw);
  return 'problem' in result ? result.problem : undefined;
};

describe('canonicalPath: the one spelling', () => {
  it.each([
    ['src/A.java', 'src/A.java'],
    ['src\\main\\A.java', 'src/main/A.java'],
    ['src/./a//B.java', 'src/a/B.java'],
    ['./src/A.java', 'src/A.java'],
    ['src/main/java/com/acme/target/T.java', 'src/main/java/com/acme/target/T.java'],
    ['mod/src/target/x.txt', 'mod/src/target/x.txt'],
    ['a.b/c', 'a.b/c'],
    ['.github-ish/x.txt', '.github-ish/x.txt'],
    ['gitx/a.txt', 'gitx/a.txt'],
    ['my.git/a.txt', 'my.git/a.txt'],
    ['CONTRIBUTING.md', 'CONTRIBUTING.md'],
    ['console.txt', 'console.txt'],
    ['com10.txt', 'com10.txt'],
    ['auxiliary/x.txt', 'auxiliary/x.txt'],
    ['~tilde/inside.txt'.slice(1), 'tilde/inside.txt'],
    ['a~1/b.txt', 'a~1/b.txt'],
  ])('%j is %j', (raw, path) => {
    expect(canonicalPath(raw)).toEqual({ path });
  });
});

describe('canonicalPath: refusals, each with its message', () => {
  it('names an empty path, a folder and a path with no file', () => {
    expect(refusal('')).toEqual({ code: 'invalid-path', message: 'A change names an empty path.' });
    expect(refusal('src/main/')).toEqual({
      code: 'invalid-path',
      file: 'src/main/',
      message: 'Path "src/main/" names a folder, not a file.',
    });
    expect(refusal('src/main/.')?.message).toBe('Path "src/main/." names a folder, not a file.');
    expect(refusal('.')).toEqual({ code: 'invalid-path', file: '.', message: 'Path "." names a folder, not a file.' });
    expect(refusal('src\\main\\')?.code).toBe('invalid-path');
    expect(refusal('./')?.code).toBe('invalid-path');
  });

  it('refuses control characters, escapes shown', () => {
    expect(refusal('src/a\u0000.java')).toEqual({
      code: 'control-char',
      file: 'src/a\u0000.java',
      message: 'Path "src/a\\u0000.java" contains a NUL or control character.',
    });
    for (const ch of ['\u001f', '\u007f', '\u0085', '\u009f', '\t'])
      expect(refusal(`src/a${ch}b.java`)?.code).toBe('control-char');
    expect(refusal('src/a\u00a0b.java')?.code).not.toBe('control-char');
  });

  it('refuses absolute paths, drive letters and home folders', () => {
    expect(refusal('/etc/passwd')).toEqual({
      code: 'absolute-path',
      file: '/etc/passwd',
      message: 'Path "/etc/passwd" is absolute; patches may only name paths inside the project.',
    });
    expect(refusal('c:relative.txt')?.code).toBe('absolute-path');
    expect(refusal('Z:\\x.txt')?.code).toBe('absolute-path');
    expect(refusal('~/.ssh/id_rsa')?.code).toBe('absolute-path');
    expect(refusal('1:x.txt')?.code).not.toBe('absolute-path');
  });

  it('refuses a .. segment anywhere, but not a name that merely contains dots', () => {
    expect(refusal('src/../../x.java')).toEqual({
      code: 'path-traversal',
      file: 'src/../../x.java',
      message: 'Path "src/../../x.java" has a ".." segment that could leave the project.',
    });
    expect(refusal('..')?.code).toBe('path-traversal');
    expect(canonicalPath('src/..x/a..b.java')).toEqual({ path: 'src/..x/a..b.java' });
  });

  it('refuses .git and .mvnx in any spelling and at any depth, saying how it was written', () => {
    expect(refusal('.git/config')?.message).toBe('Path ".git/config" is inside .git/, which patches never write.');
    expect(refusal('mod/.GIT/hooks/x')?.message).toBe(
      'Path "mod/.GIT/hooks/x" is inside .git/ (written ".GIT"), which patches never write.',
    );
    expect(refusal('GIT~1/config')?.message).toBe(
      'Path "GIT~1/config" is inside .git/ (written "GIT~1"), which patches never write.',
    );
    expect(refusal('git~12/config')?.code).toBe('forbidden-dir');
    expect(refusal('.mvnx/runs/x.json')?.message).toBe(
      'Path ".mvnx/runs/x.json" is inside .mvnx/, which patches never write.',
    );
    expect(refusal('.git./config')?.code).toBe('forbidden-dir');
    expect(refusal('.git. ./config')?.code).toBe('forbidden-dir');
    expect(refusal('.git::$INDEX_ALLOCATION/config')?.code).toBe('forbidden-dir');
    expect(refusal('.g\u0131t/config')?.code).toBe('forbidden-dir');
  });

  it('refuses target/ as build output, but not under a src folder', () => {
    expect(refusal('core/target/classes/A.class')).toEqual({
      code: 'forbidden-dir',
      file: 'core/target/classes/A.class',
      message:
        'Path "core/target/classes/A.class" is inside target/, Maven\'s build output, which patches never write.',
    });
    expect(refusal('Target/x.txt')?.code).toBe('forbidden-dir');
    expect(refusal('target')?.code).toBe('forbidden-dir');
  });

  it('refuses a name over 255 bytes and a path over 4095 bytes, and accepts both at the limit', () => {
    const name = (bytes: number) => 'n'.repeat(bytes);
    expect(canonicalPath(`src/${name(255)}`)).toEqual({ path: `src/${name(255)}` });
    expect(refusal(`src/${name(256)}`)?.message).toBe(
      `Path ${JSON.stringify(`src/${name(193)}...`)} has a name of 256 bytes; file systems allow 255.`,
    );
    expect(refusal(`src/${'é'.repeat(128)}`)?.code).toBe('path-too-long'); // 256 bytes in UTF-8
    const deep = (total: number) => {
      const segments: string[] = [];
      let length = -1;
      while (length + 201 <= total) {
        segments.push(name(200));
        length += 201;
      }
      segments.push(name(total - length - 1));
      return segments.join('/');
    };
    expect(deep(4095)).toHaveLength(4095);
    expect(canonicalPath(deep(4095))).toEqual({ path: deep(4095) });
    expect(refusal(deep(4096))?.code).toBe('path-too-long');
    expect(refusal(deep(4096))?.message).toMatch(/ is 4096 bytes long; file systems allow 4095\.$/);
  });

  it('shows at most 200 characters of a long path in a message', () => {
    const long = `${'d'.repeat(250)}/../x`;
    expect(refusal(long)?.message).toBe(
      `Path "${'d'.repeat(197)}..." has a ".." segment that could leave the project.`,
    );
    const exactly200 = `${'d'.repeat(195)}/../x`;
    expect(exactly200).toHaveLength(200);
    expect(refusal(exactly200)?.message).toBe(`Path "${exactly200}" has a ".." segment that could leave the project.`);
  });

  it('refuses names Windows or macOS read as another file', () => {
    expect(refusal('src/A.java.')?.code).toBe('path-alias');
    expect(refusal('src/A.java.')?.message).toBe(
      'Path "src/A.java.": "A.java." ends with a dot or a space, which Windows drops, so it aliases "A.java".',
    );
    expect(refusal('src/A.java .')?.message).toBe(
      'Path "src/A.java .": "A.java ." ends with a dot or a space, which Windows drops, so it aliases "A.java".',
    );
    expect(refusal('pom.xml::$DATA')?.code).toBe('path-alias');
    expect(refusal('pom.xml::$DATA')?.message).toBe(
      'Path "pom.xml::$DATA": "pom.xml::$DATA" has a ":", which names an NTFS alternate data stream of "pom.xml".',
    );
    expect(refusal('src/A\u200b.java')?.message).toBe(
      'Path "src/A\u200b.java" contains an invisible character (macOS ignores it), so it names another file than it shows.',
    );
    expect(refusal('src/A\u00ad.java')?.code).toBe('path-alias');
    expect(refusal('src/a<b.java')?.message).toBe(
      'Path "src/a<b.java": "a<b.java" has a character Windows does not allow in names (< > " | ? *).',
    );
    for (const ch of ['>', '"', '|', '?', '*']) expect(refusal(`src/a${ch}b.java`)?.code).toBe('invalid-path');
  });

  it.each([
    ['CON'],
    ['con.txt'],
    ['NUL.java'],
    ['Aux.tar.gz'],
    ['prn'],
    ['COM1'],
    ['com9.log'],
    ['COM\u00b9'],
    ['LPT9'],
    ['lpt1.txt'],
    ['CONIN$'],
    ['conout$'],
    ['CLOCK$'],
    ['ＣＯＮ.txt'],
    ['nul .txt'],
  ])('refuses the Windows device name %j', (name) => {
    expect(refusal(`src/${name}`)?.code).toBe('path-alias');
  });

  it('names the device in its message, upper case', () => {
    expect(refusal('src/nul.java')?.message).toBe(
      'Path "src/nul.java": "nul.java" is the Windows device NUL, not a file.',
    );
  });

  it('checks escapes before forbidden folders, and forbidden folders before aliases', () => {
    expect(refusal('/.git/x')?.code).toBe('absolute-path');
    expect(refusal('.git/../x')?.code).toBe('path-traversal');
    expect(refusal('.git/x.')?.code).toBe('forbidden-dir');
    expect(refusal('target/x<y')?.code).toBe('forbidden-dir');
  });
});

describe('foldName and foldPath', () => {
  it('folds case, compatibility forms, invisible code points and look-alike letters, segment by segment', () => {
    expect(foldName('Pom.XML')).toBe('pom.xml');
    expect(foldName('ｐｏｍ.xml')).toBe('pom.xml');
    expect(foldName('p\u043em.xml')).toBe('pom.xml'); // Cyrillic о
    expect(foldName('\u03c1om.xml')).toBe('pom.xml'); // Greek ρ
    expect(foldName('po\u200bm.xml')).toBe('pom.xml');
    expect(foldName('cafe\u0301')).toBe('caf\u00e9');
    expect(foldPath('.MVN/Jvm.Config')).toBe('.mvn/jvm.config');
  });
});

describe('matchPathGlob', () => {
  it('matches exactly, as an alias, or not at all, dot files included', () => {
    expect(matchPathGlob('.mvn/jvm.config', '**/.mvn/**')).toBe('exact');
    expect(matchPathGlob('core/.mvn/jvm.config', '**/.mvn/**')).toBe('exact');
    expect(matchPathGlob('.MVN/jvm.config', '**/.mvn/**')).toBe('alias');
    expect(matchPathGlob('p\u043em.xml', 'pom.xml')).toBe('alias');
    expect(matchPathGlob('src/pom.xml', 'pom.xml')).toBeUndefined();
    expect(matchPathGlob('Pom.xml', 'POM.XML')).toBe('alias');
    expect(matchPathGlob('pom.xml', 'pom.xml')).toBe('exact');
    expect(matchPathGlob('secrets/.key', 'secrets/*')).toBe('exact');
    expect(matchPathGlob('SECRETS/.key', 'secrets/*')).toBe('alias');
    // A second call uses the compiled glob and answers the same.
    expect(matchPathGlob('.MVN/jvm.config', '**/.mvn/**')).toBe('alias');
  });
});

describe('aliasCollisions', () => {
  it('reports each later spelling of one file, once per pair, and nothing for the same spelling twice', () => {
    expect(
      aliasCollisions(['src/Util.java', 'src/util.java', 'src/Util.java', 'src/UTIL.java', 'src/Other.java']),
    ).toEqual([
      {
        code: 'path-alias',
        file: 'src/util.java',
        message:
          '"src/Util.java" and "src/util.java" are one file on macOS and Windows (they differ only in case or Unicode form); name it one way.',
      },
      {
        code: 'path-alias',
        file: 'src/UTIL.java',
        message:
          '"src/Util.java" and "src/UTIL.java" are one file on macOS and Windows (they differ only in case or Unicode form); name it one way.',
      },
    ]);
    expect(aliasCollisions(['caf\u00e9.txt', 'cafe\u0301.txt']).map((p) => p.code)).toEqual(['path-alias']);
    expect(aliasCollisions([])).toEqual([]);
  });
});
