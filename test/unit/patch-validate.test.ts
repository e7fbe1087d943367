import { describe, expect, it } from 'vitest';
import {
  changedLineTexts,
  classify,
  countChangedLines,
  DEFAULT_PATCH_POLICY,
  fingerprintChangeSet,
  jsonEditListJsonSchema,
  jsonEditListSchema,
  PATCH_PROBLEM_CODES,
  toUnifiedDiff,
  validateChangeSet,
  type ChangeSet,
  type FileChange,
  type PatchPolicy,
} from '../../src/patch/index.js';
import { git, gitRepoWith, removeDir } from './patch-support.js';

const edit = (path: string, before = 'a\n', after = 'b\n'): FileChange => ({ path, before, after });
const policy = (overrides: Partial<PatchPolicy> = {}): PatchPolicy => ({ ...DEFAULT_PATCH_POLICY, ...overrides });
const codes = (cs: ChangeSet, p = policy()) => validateChangeSet(cs, p).map((problem) => problem.code);

describe('validateChangeSet', () => {
  it.each([
    ['/etc/passwd', 'absolute-path'],
    ['C:/Windows/win.ini', 'absolute-path'],
    ['\\\\server\\share\\x', 'absolute-path'],
    ['src/../../x.java', 'path-traversal'],
    ['src\\..\\..\\x.java', 'path-traversal'],
    ['src/a\u0000.java', 'control-char'],
    ['src/a\nb.java', 'control-char'],
    ['.git/hooks/pre-commit', 'forbidden-dir'],
    ['module/.git/config', 'forbidden-dir'],
    ['.mvnx/runs/latest', 'forbidden-dir'],
    ['core/target/classes/A.class', 'forbidden-dir'],
    ['', 'invalid-path'],
    ['src/main/java/', 'invalid-path'],
  ])('refuses %j with %s', (path, code) => {
    expect(codes({ files: [edit(path)] })).toContain(code);
  });

  it('accepts an ordinary source edit', () => {
    expect(codes({ files: [edit('core/src/main/java/com/acme/A.java')] })).toEqual([]);
  });

  it('checks both sides of a rename against protected globs', () => {
    const renamePolicy = policy({
      allowedChanges: ['edit-main-source', 'edit-other', 'rename'],
      protectedPaths: ['secrets/**'],
    });
    const out = validateChangeSet(
      { files: [{ path: 'src/main/java/A.java', oldPath: 'secrets/key.txt', before: 'k\n', after: 'k\n' }] },
      renamePolicy,
    );
    expect(out.map((p) => p.code)).toEqual(['protected-path']);
    expect(out[0]?.message).toContain('rename source');
  });

  it('matches protected globs with dot files', () => {
    expect(
      codes({ files: [edit('.env')] }, policy({ allowedChanges: ['edit-other'], protectedPaths: ['**/.env'] })),
    ).toEqual(['protected-path']);
  });

  it('refuses change types the policy does not allow', () => {
    const cs: ChangeSet = {
      files: [
        { path: 'src/main/java/A.java', before: 'a\n', after: null },
        { path: 'run.sh', before: 'x\n', after: 'x\n', oldMode: '100644', newMode: '100755' },
      ],
    };
    const out = validateChangeSet(cs, policy());
    expect(out.map((p) => p.message)).toEqual([
      'src/main/java/A.java: change type delete-file is not allowed by policy.',
      'run.sh: change type edit-other is not allowed by policy.',
      'run.sh: change type mode-change is not allowed by policy.',
    ]);
  });

  it('enforces the limits on files and lines', () => {
    const cs: ChangeSet = {
      files: [edit('src/main/java/A.java', 'a\nb\nc\n', 'x\ny\nz\n'), edit('src/main/java/B.java')],
    };
    expect(codes(cs, policy({ maxFilesTouched: 1, maxLinesChanged: 8 }))).toEqual(['too-many-files']);
    expect(codes(cs, policy({ maxFilesTouched: 2, maxLinesChanged: 7 }))).toEqual(['too-many-lines']);
  });

  it('refuses a change set that changes nothing', () => {
    expect(codes({ files: [] })).toEqual(['empty-change']);
    expect(codes({ files: [edit('src/main/java/A.java', 'same\n', 'same\n')] })).toEqual(['empty-change']);
  });

  it('exports every code it can return', () => {
    expect(PATCH_PROBLEM_CODES).toEqual(
      expect.arrayContaining([
        'absolute-path',
        'path-traversal',
        'control-char',
        'forbidden-dir',
        'symlink-escape',
        'protected-path',
        'change-type-not-allowed',
        'too-many-files',
        'too-many-lines',
        'empty-change',
        'hunk-not-found',
        'hunk-ambiguous',
        'non-utf8',
        'parse-error',
      ]),
    );
  });
});

describe('classify', () => {
  it.each([
    ['src/main/java/A.java', 'edit-main-source'],
    ['billing/core/src/main/java/A.java', 'edit-main-source'],
    ['src/test/java/ATest.java', 'edit-test-source'],
    ['web/pom.xml', 'edit-build-file'],
    ['src/main/resources/app.properties', 'edit-resource'],
    ['src/test/resources/data.json', 'edit-resource'],
    ['README.md', 'edit-other'],
  ])('%s is %s', (path, type) => {
    expect(classify({ files: [edit(path)] })).toEqual([type]);
  });

  it('sees additions, deletions, renames, modes, binaries and new dependencies', () => {
    const pom = '<project><dependencies>\n<!-- <dependency>old</dependency> -->\n</dependencies></project>\n';
    const cs: ChangeSet = {
      files: [
        { path: 'src/main/java/New.java', before: null, after: 'class New {}\n' },
        { path: 'src/test/java/Old.java', before: 'x\n', after: null },
        { path: 'src/main/java/B.java', oldPath: 'src/main/java/A.java', before: 'a\n', after: 'a\n' },
        { path: 'bin/run', before: 'x\n', after: 'x\n', oldMode: '100644', newMode: '100755' },
        { path: 'src/main/resources/logo.png', before: 'x', after: 'x', binary: true },
        {
          path: 'pom.xml',
          before: pom,
          after: pom.replace('</dependencies>', '<dependency><artifactId>x</artifactId></dependency>\n</dependencies>'),
        },
      ],
    };
    expect(classify(cs)).toEqual([
      'add-dependency',
      'add-file',
      'binary',
      'delete-file',
      'edit-build-file',
      'edit-main-source',
      'edit-other',
      'edit-resource',
      'edit-test-source',
      'mode-change',
      'rename',
    ]);
    expect(classify({ files: [{ path: 'pom.xml', before: pom, after: pom.replace('old', 'older') }] })).toEqual([
      'edit-build-file',
    ]);
  });

  it('counts and lists changed lines without their endings', () => {
    const cs: ChangeSet = {
      files: [
        edit('A.java', 'a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\nd\r\n'),
        { path: 'N.java', before: null, after: 'n\n' },
      ],
    };
    expect(countChangedLines(cs)).toEqual({ added: 3, removed: 1, files: 2 });
    expect(changedLineTexts(cs)).toEqual({ added: ['B', 'd', 'n'], removed: ['b'] });
  });
});

describe('toUnifiedDiff', () => {
  it('writes git-style diffs for edits, creations, deletions, renames and modes that git apply accepts', () => {
    const repo = gitRepoWith(
      new Map([
        ['src/A.java', 'a\nb\nc\n'],
        ['src/Gone.java', 'gone\n'],
        ['src/Old.java', 'one\ntwo\nthree\nfour\nfive\nsix\n'],
        ['bin/run.sh', 'echo\n'],
      ]),
    );
    try {
      const cs: ChangeSet = {
        files: [
          { path: 'src/A.java', before: 'a\nb\nc\n', after: 'a\nB\nc' },
          { path: 'src/Gone.java', before: 'gone\n', after: null },
          { path: 'src/deep/New.java', before: null, after: 'new\n' },
          {
            path: 'src/Renamed.java',
            oldPath: 'src/Old.java',
            before: 'one\ntwo\nthree\nfour\nfive\nsix\n',
            after: 'one\ntwo\nthree\nfour\nfive\nsix!\n',
          },
          { path: 'bin/run.sh', before: 'echo\n', after: 'echo\n', oldMode: '100644', newMode: '100755' },
        ],
      };
      const diff = toUnifiedDiff(cs);
      expect(diff).toContain(
        'diff --git a/src/deep/New.java b/src/deep/New.java\nnew file mode 100644\n--- /dev/null\n+++ b/src/deep/New.java\n',
      );
      expect(diff).toContain(
        'diff --git a/src/Gone.java b/src/Gone.java\ndeleted file mode 100644\n--- a/src/Gone.java\n+++ /dev/null\n',
      );
      expect(diff).toContain('rename from src/Old.java\nrename to src/Renamed.java\n');
      expect(diff).toContain('diff --git a/bin/run.sh b/bin/run.sh\nold mode 100644\nnew mode 100755\n');
      git(repo, ['apply', '--check', '-'], diff);
      git(repo, ['apply', '-'], diff);
      expect(git(repo, ['status', '--porcelain']).split('\n').filter(Boolean).sort()).toEqual(
        [
          ' M bin/run.sh',
          ' M src/A.java',
          ' D src/Gone.java',
          ' D src/Old.java',
          '?? src/Renamed.java',
          '?? src/deep/',
        ].sort(),
      );
    } finally {
      removeDir(repo);
    }
  });
});

describe('fingerprintChangeSet', () => {
  it('is sha-256 hex, independent of file order, and sensitive to content, path and mode', () => {
    const a = edit('A.java');
    const b = edit('B.java', 'x\n', 'y\n');
    const base = fingerprintChangeSet({ files: [a, b] });
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintChangeSet({ files: [b, a] })).toBe(base);
    expect(fingerprintChangeSet({ files: [a, { ...b, after: 'z\n' }] })).not.toBe(base);
    expect(fingerprintChangeSet({ files: [a, { ...b, path: 'C.java' }] })).not.toBe(base);
    expect(fingerprintChangeSet({ files: [a, { ...b, newMode: '100755' }] })).not.toBe(base);
  });
});

describe('jsonEditListSchema', () => {
  it('accepts the three edit shapes and rejects others with a clear error', () => {
    const ok = jsonEditListSchema.safeParse({
      edits: [
        { file: 'A.java', search: 'a', replace: 'b' },
        { file: 'A.java', op: 'insert', line: 3, text: 'x' },
        { file: 'B.java', content: 'class B {}\n' },
      ],
    });
    expect(ok.success).toBe(true);
    const bad = jsonEditListSchema.safeParse({ edits: [{ file: 'A.java', op: 'insert', line: 0 }] });
    expect(bad.success).toBe(false);
  });

  it('exports a JSON schema for structured output', () => {
    expect(jsonEditListJsonSchema).toMatchObject({ type: 'object', required: ['edits'] });
    expect(JSON.stringify(jsonEditListJsonSchema)).toContain('"search"');
  });
});
