import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PATCH_POLICY,
  pathProblem,
  protectedProblem,
  validateChangeSet,
  type FileChange,
  type PatchPolicy,
} from '../../src/patch/index.js';

// The pure rules of validate/validate.ts and validate/path-rules.ts, rule by rule: each
// refusal with its exact message, and each limit at its boundary (at the limit passes, one over fails).

const policy = (overrides: Partial<PatchPolicy> = {}): PatchPolicy => ({
  ...DEFAULT_PATCH_POLICY,
  allowedChanges: [
    'edit-main-source',
    'edit-other',
    'edit-build-file',
    'add-file',
    'rename',
    'mode-change',
    'binary',
    'delete-file',
    'add-dependency',
  ],
  ...overrides,
});
const validate = (files: FileChange[], overrides: Partial<PatchPolicy> = {}) =>
  validateChangeSet({ files }, policy(overrides));
const codes = (files: FileChange[], overrides: Partial<PatchPolicy> = {}) =>
  validate(files, overrides).map((p) => p.code);
const messages = (files: FileChange[], overrides: Partial<PatchPolicy> = {}) =>
  validate(files, overrides).map((p) => p.message);
const JAVA = 'src/main/java/A.java';

describe('validateChangeSet: what counts as a change', () => {
  it('counts a rename, a binary change or a mode change as a change even when the content stays', () => {
    expect(codes([{ path: 'src/main/java/B.java', oldPath: JAVA, before: 'a\n', after: 'a\n' }])).toEqual([]);
    expect(codes([{ path: 'img/a.png', before: 'x', after: 'x', binary: true }])).toEqual([]);
    expect(codes([{ path: 'run.sh', before: 'a\n', after: 'a\n', oldMode: '100644', newMode: '100755' }])).toEqual([]);
  });

  it('refuses a change set whose only "change" is a mode restated as it was', () => {
    expect(validate([{ path: 'run.sh', before: 'a\n', after: 'a\n', oldMode: '100755', newMode: '100755' }])).toEqual([
      { code: 'empty-change', message: 'The patch changes nothing.' },
    ]);
    expect(codes([{ path: 'run.sh', before: 'a\n', after: 'a\n', oldMode: '100755' }])).toEqual(['empty-change']);
  });
});

describe('validateChangeSet: paths', () => {
  it('refuses a path that is not canonical, naming the canonical spelling', () => {
    expect(validate([{ path: 'src//main/./java/A.java', before: 'a\n', after: 'b\n' }])).toEqual([
      {
        code: 'invalid-path',
        file: 'src//main/./java/A.java',
        message: 'Path "src//main/./java/A.java" is not in canonical form; write it as "src/main/java/A.java".',
      },
    ]);
    expect(pathProblem(JAVA)).toBeUndefined();
    expect(pathProblem('src/../A.java')?.code).toBe('path-traversal');
  });

  it('checks both names of a rename and stops at a broken path (no protection or size check on it)', () => {
    const out = validate([{ path: 'big/../x.txt', oldPath: '.env', before: 'a\n', after: 'x'.repeat(50) }], {
      protectedPaths: ['**/.env'],
      maxFileBytes: 10,
    });
    expect(out.map((p) => p.code)).toEqual(['path-traversal']);
  });

  it('refuses two names of one change set that are one file on macOS and Windows, renames included', () => {
    const out = validate([
      { path: 'src/main/java/Util.java', before: 'a\n', after: 'b\n' },
      { path: 'src/main/java/New.java', oldPath: 'src/main/java/util.java', before: 'u\n', after: 'u\n' },
    ]);
    expect(out.map((p) => [p.code, p.file])).toEqual([['path-alias', 'src/main/java/util.java']]);
  });

  it('names the role of a protected rename source and target, and none for a plain edit', () => {
    const globs = { protectedPaths: ['secrets/**'] };
    expect(messages([{ path: 'secrets/b.txt', oldPath: 'docs/a.txt', before: 'k\n', after: 'k\n' }], globs)).toEqual([
      'secrets/b.txt (rename target) is protected by policy (matches "secrets/**").',
    ]);
    expect(messages([{ path: 'docs/b.txt', oldPath: 'secrets/a.txt', before: 'k\n', after: 'k\n' }], globs)).toEqual([
      'secrets/a.txt (rename source) is protected by policy (matches "secrets/**").',
    ]);
    expect(messages([{ path: 'secrets/a.txt', before: 'k\n', after: 'l\n' }], globs)).toEqual([
      'secrets/a.txt is protected by policy (matches "secrets/**").',
    ]);
  });

  it('tells an alias of a protected name from the name itself, and tries every glob in order', () => {
    expect(protectedProblem('Pom.xml', ['docs/**', 'pom.xml'])).toEqual({
      code: 'protected-path',
      file: 'Pom.xml',
      message:
        'Pom.xml is protected by policy: on macOS and Windows it is the same file as one matching "pom.xml" (it differs only in case or Unicode form).',
    });
    expect(protectedProblem('pom.xml', ['docs/**', 'pom.xml'], ' (rename target)')?.message).toBe(
      'pom.xml (rename target) is protected by policy (matches "pom.xml").',
    );
    expect(protectedProblem('src/A.java', ['docs/**', 'pom.xml'])).toBeUndefined();
  });
});

describe('validateChangeSet: modes', () => {
  it.each([
    ['120000', ' (a symbolic link)'],
    ['160000', ' (a submodule)'],
    ['040000', ' (a folder)'],
    ['100777', ''],
  ])('refuses new mode %s, saying what it is', (mode, what) => {
    expect(messages([{ path: 'run.sh', before: 'a\n', after: 'b\n', newMode: mode }])).toEqual([
      `run.sh: new mode ${mode}${what} is refused; patches only write plain (100644) or executable (100755) files.`,
    ]);
  });

  it('checks the old mode too, and names both when both are wrong', () => {
    expect(messages([{ path: 'run.sh', before: 'a\n', after: 'b\n', oldMode: '120000', newMode: '100777' }])).toEqual([
      'run.sh: old mode 120000 (a symbolic link) is refused; patches only write plain (100644) or executable (100755) files.',
      'run.sh: new mode 100777 is refused; patches only write plain (100644) or executable (100755) files.',
    ]);
  });
});

describe('validateChangeSet: sizes, at the limit and one over', () => {
  it('allows a file of exactly maxFileBytes and refuses one byte more, by the bytes of its own encoding', () => {
    expect(codes([{ path: JAVA, before: 'a\n', after: 'x'.repeat(10) }], { maxFileBytes: 10 })).toEqual([]);
    expect(validate([{ path: JAVA, before: 'a\n', after: 'x'.repeat(11) }], { maxFileBytes: 10 })).toEqual([
      {
        code: 'file-too-large',
        file: JAVA,
        message: `${JAVA} would be 11 bytes; policy allows at most 10 per file (patch.maxFileBytes).`,
      },
    ]);
    // "é" is two bytes in UTF-8 and one in latin1.
    expect(codes([{ path: JAVA, before: 'a\n', after: 'é'.repeat(6) }], { maxFileBytes: 10 })).toEqual([
      'file-too-large',
    ]);
    expect(
      codes([{ path: JAVA, before: 'a\n', after: 'é'.repeat(6), encoding: 'latin1' }], { maxFileBytes: 10 }),
    ).toEqual([]);
  });

  it('counts a deleted file as no bytes written', () => {
    expect(
      codes([{ path: JAVA, before: 'x'.repeat(50), after: null }], { maxFileBytes: 10, maxChangeSetBytes: 10 }),
    ).toEqual([]);
  });

  it('stops at an oversized file: its change type is not judged and lines are not counted', () => {
    const out = validate([{ path: 'README.md', before: 'a\n', after: 'x\n'.repeat(20) }], {
      maxFileBytes: 10,
      maxLinesChanged: 1,
      allowedChanges: [],
    });
    expect(out.map((p) => p.code)).toEqual(['file-too-large']);
  });

  it('allows a change set of exactly maxChangeSetBytes and refuses one byte more, summed over files', () => {
    const two = (n: number): FileChange[] => [
      { path: JAVA, before: 'a\n', after: 'x'.repeat(10) },
      { path: 'src/main/java/B.java', before: 'a\n', after: 'y'.repeat(n) },
    ];
    expect(codes(two(10), { maxChangeSetBytes: 20 })).toEqual([]);
    expect(validate(two(11), { maxChangeSetBytes: 20 })).toEqual([
      {
        code: 'change-too-large',
        message: 'The patch would write 21 bytes; policy allows at most 20 (patch.maxChangeSetBytes).',
      },
    ]);
  });

  it('refuses an added line longer than maxLineLength, naming its line, and allows one exactly that long', () => {
    const after = (n: number) => `a\nb\n${'z'.repeat(n)}\nc\n`;
    expect(codes([{ path: JAVA, before: 'a\nb\nc\n', after: after(8) }], { maxLineLength: 8 })).toEqual([]);
    expect(validate([{ path: JAVA, before: 'a\nb\nc\n', after: after(9) }], { maxLineLength: 8 })).toEqual([
      {
        code: 'line-too-long',
        file: JAVA,
        message: `${JAVA} line 3 would be 9 characters long; policy allows at most 8 (patch.maxLineLength).`,
      },
    ]);
  });

  it('measures a line without its CR, and the last line without a newline too', () => {
    expect(codes([{ path: JAVA, before: 'a\r\n', after: `a\r\n${'z'.repeat(8)}\r\n` }], { maxLineLength: 8 })).toEqual(
      [],
    );
    expect(messages([{ path: JAVA, before: 'a\n', after: `a\n${'z'.repeat(9)}` }], { maxLineLength: 8 })).toEqual([
      `${JAVA} line 2 would be 9 characters long; policy allows at most 8 (patch.maxLineLength).`,
    ]);
  });

  it('counts lines from an empty first line on', () => {
    expect(messages([{ path: JAVA, before: 'a\n', after: `\n${'z'.repeat(9)}\n` }], { maxLineLength: 8 })).toEqual([
      `${JAVA} line 2 would be 9 characters long; policy allows at most 8 (patch.maxLineLength).`,
    ]);
  });

  it('reports the first of the longest added lines, wherever it is', () => {
    const added = (...lines: string[]) =>
      messages([{ path: JAVA, before: 'a\n', after: `a\n${lines.join('\n')}\n` }], { maxLineLength: 8 });
    expect(added('m'.repeat(12), 'n'.repeat(9), 'o'.repeat(3))).toEqual([
      `${JAVA} line 2 would be 12 characters long; policy allows at most 8 (patch.maxLineLength).`,
    ]);
    expect(added('p'.repeat(10), 'q'.repeat(10))).toEqual([
      `${JAVA} line 2 would be 10 characters long; policy allows at most 8 (patch.maxLineLength).`,
    ]);
  });

  it('counts a CR inside a line as a character; only a line-ending CR is not counted', () => {
    expect(codes([{ path: JAVA, before: 'a\n', after: 'a\nab\rcd\n' }], { maxLineLength: 4 })).toEqual([
      'line-too-long',
    ]);
    expect(codes([{ path: JAVA, before: 'a\n', after: 'a\nabcd\r\n' }], { maxLineLength: 4 })).toEqual([]);
  });

  it('does not count a long line the file already had, and reports the longest added line', () => {
    const old = 'o'.repeat(30);
    expect(codes([{ path: JAVA, before: `${old}\na\n`, after: `${old}\nb\n` }], { maxLineLength: 8 })).toEqual([]);
    expect(
      messages([{ path: JAVA, before: `${old}\n`, after: `${old}\n${'n'.repeat(9)}\n${'m'.repeat(12)}\n` }], {
        maxLineLength: 8,
      }),
    ).toEqual([`${JAVA} line 3 would be 12 characters long; policy allows at most 8 (patch.maxLineLength).`]);
  });

  it('allows exactly maxFilesTouched files and maxLinesChanged lines, and refuses one more', () => {
    const files = (n: number) =>
      Array.from({ length: n }, (_, i): FileChange => ({
        path: `src/main/java/F${i}.java`,
        before: 'a\n',
        after: 'b\n',
      }));
    expect(codes(files(2), { maxFilesTouched: 2, maxLinesChanged: 4 })).toEqual([]);
    expect(validate(files(3), { maxFilesTouched: 2, maxLinesChanged: 6 })).toEqual([
      { code: 'too-many-files', message: 'The patch touches 3 files; policy allows at most 2.' },
    ]);
    expect(validate(files(3), { maxFilesTouched: 3, maxLinesChanged: 5 })).toEqual([
      { code: 'too-many-lines', message: 'The patch changes 6 lines (3 added, 3 removed); policy allows at most 5.' },
    ]);
  });

  it('does not count lines once a size rule refused the change set', () => {
    const files: FileChange[] = [{ path: JAVA, before: 'a\nb\nc\n', after: 'x\ny\nz\n' }];
    expect(codes(files, { maxChangeSetBytes: 3, maxLinesChanged: 1 })).toEqual(['change-too-large']);
    expect(codes(files, { maxLineLength: 0, maxLinesChanged: 1 })).toEqual(['line-too-long']);
  });
});

describe('validateChangeSet: change types and build-time code', () => {
  it('names every change type the policy does not allow', () => {
    expect(
      validate([{ path: 'src/main/java/B.java', oldPath: JAVA, before: 'a\n', after: 'b\n' }], {
        allowedChanges: ['edit-main-source'],
      }),
    ).toEqual([
      {
        code: 'change-type-not-allowed',
        file: 'src/main/java/B.java',
        message: 'src/main/java/B.java: change type rename is not allowed by policy.',
      },
    ]);
  });

  const exec = (version: string) =>
    `<project><modelVersion>4.0.0</modelVersion><artifactId>a</artifactId><build><plugins><plugin><artifactId>exec-maven-plugin</artifactId><version>${version}</version></plugin></plugins></build></project>\n`;
  const plain = '<project><modelVersion>4.0.0</modelVersion><artifactId>a</artifactId></project>\n';

  it('refuses a pom that adds a code-running plugin even when the policy allows build edits', () => {
    expect(validate([{ path: 'core/pom.xml', before: plain, after: exec('3.1.0') }])).toEqual([
      {
        code: 'build-time-code',
        file: 'core/pom.xml',
        message:
          'core/pom.xml: adds or changes <plugin> exec-maven-plugin, which runs code at build time (process execution); a repair may not do that.',
      },
    ]);
  });

  it('checks a *.pom file and a pom.xml even when their text does not parse as a POM', () => {
    const broken = '<project><build><plugins><plugin><artifactId>exec-maven-plugin</artifactId>\n';
    expect(codes([{ path: 'dist/app-1.0.pom', before: 'x\n', after: broken }])).toEqual(['build-time-code']);
    expect(codes([{ path: 'pom.xml', before: 'x\n', after: broken }])).toEqual(['build-time-code']);
  });

  it('leaves XML that is neither a POM nor named like one alone', () => {
    const broken = '<config><artifactId>exec-maven-plugin</artifactId>\n';
    expect(codes([{ path: 'docs/notpom.xml', before: 'x\n', after: broken }])).toEqual([]);
    expect(codes([{ path: 'docs/pom.xml.txt', before: 'x\n', after: broken }])).toEqual([]);
    expect(codes([{ path: 'docs/app.pom.txt', before: 'x\n', after: broken }])).toEqual([]);
  });

  it('checks an XML file of any name whose content is a POM, and names every plugin it adds', () => {
    const two = exec('3.1.0').replace(
      '</plugins>',
      '<plugin><artifactId>maven-antrun-plugin</artifactId></plugin></plugins>',
    );
    expect(messages([{ path: 'ci/release.xml', before: plain, after: two }])).toEqual([
      'ci/release.xml: adds or changes <plugin> exec-maven-plugin, <plugin> maven-antrun-plugin, which runs code at build time (process execution); a repair may not do that.',
    ]);
  });
});
