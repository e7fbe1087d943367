import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changeSetFromModelText, DEFAULT_PATCH_POLICY, type PatchPolicy } from '../../src/patch/index.js';
import { removeDir, tempDir } from './patch-support.js';

// changeSetFromModelText (index.ts) on small real trees: each stage's refusal, the overlay,
// encodings and modes carried into the change set, and modes dropped once checked.

const dirs: string[] = [];
function project(files: Record<string, string | Buffer> = {}): string {
  const root = tempDir();
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});
const policy = (over: Partial<PatchPolicy> = {}): PatchPolicy => ({
  ...DEFAULT_PATCH_POLICY,
  allowedChanges: ['edit-other', 'add-file', 'mode-change', 'rename', 'edit-main-source'],
  ...over,
});
const sr = (path: string, search: string, replace: string) =>
  `${path}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n`;

describe('changeSetFromModelText', () => {
  it('reads `diff --git my file.txt my file.txt` (a path with spaces, no a/ b/ prefixes) with or without ---/+++', async () => {
    const root = project({ 'my file.txt': 'one\ntwo\n', 'run.sh': 'echo\n' });
    const withHeaders = await changeSetFromModelText(
      'diff --git my file.txt my file.txt\n--- my file.txt\n+++ my file.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n',
      root,
      policy(),
    );
    expect(withHeaders.problems).toEqual([]);
    expect(withHeaders.changeSet?.files).toEqual([
      { path: 'my file.txt', before: 'one\ntwo\n', after: 'one\nthree\n' },
    ]);
    const modeOnly = await changeSetFromModelText(
      'diff --git my file.txt my file.txt\nold mode 100644\nnew mode 100755\n',
      root,
      policy(),
    );
    expect(modeOnly.problems).toEqual([]);
    expect(modeOnly.changeSet?.files.map((file) => [file.path, file.newMode])).toEqual([['my file.txt', '100755']]);
  });

  it('does not read a reply over twice patch.maxChangeSetBytes, and reads one of exactly that length', async () => {
    const root = project({ 'a.txt': 'a\n' });
    const reply = sr('a.txt', 'a\n', 'b\n');
    const exact = await changeSetFromModelText(reply, root, policy({ maxChangeSetBytes: reply.length / 2 }));
    expect(exact.problems).toEqual([]);
    const over = await changeSetFromModelText(reply + ' ', root, policy({ maxChangeSetBytes: reply.length / 2 }));
    expect(over).toEqual({
      problems: [
        {
          code: 'reply-too-large',
          message: `The reply is ${reply.length + 1} characters long; a reply over ${reply.length} (twice patch.maxChangeSetBytes) is not read.`,
        },
      ],
      edits: [],
    });
  });

  it('passes the JSON summary on, and returns the extraction problems of a reply without edits', async () => {
    const root = project({ 'a.txt': 'a\n' });
    const result = await changeSetFromModelText(
      '{"edits":[{"file":"a.txt","search":"a\\n","replace":"b\\n"}],"summary":"renames a"}',
      root,
      policy(),
    );
    expect(result.summary).toBe('renames a');
    expect(result.changeSet?.files).toEqual([{ path: 'a.txt', before: 'a\n', after: 'b\n' }]);
    expect(await changeSetFromModelText('No change needed.', root, policy())).toEqual({
      problems: [
        { code: 'no-edits', message: 'The reply holds no unified diff, SEARCH/REPLACE block or JSON edit list.' },
      ],
      edits: [],
    });
    expect(await changeSetFromModelText('No change needed.', root, policy())).not.toHaveProperty('summary');
    // Nothing to place: the project folder is not even looked at.
    expect(
      (await changeSetFromModelText('No change needed.', join(root, 'missing'), policy())).problems.map((p) => p.code),
    ).toEqual(['no-edits']);
  });

  it('refuses a declared mode that is not a file mode before reading anything, naming the file or "(unnamed)"', async () => {
    const root = project({ 'a.sh': 'a\n' });
    const result = await changeSetFromModelText(
      'diff --git a/a.sh b/a.sh\nold mode 100644\nnew mode 120000\n',
      root,
      policy(),
    );
    expect(result.changeSet).toBeUndefined();
    expect(result.problems).toEqual([
      {
        code: 'invalid-mode',
        file: 'a.sh',
        message:
          'a.sh: new mode 120000 (a symbolic link) is refused; patches only write plain (100644) or executable (100755) files.',
      },
    ]);
    const deleted = await changeSetFromModelText(
      'diff --git a/a.sh b/a.sh\ndeleted file mode 160000\n',
      root,
      policy(),
    );
    expect(deleted.problems).toEqual([
      {
        code: 'invalid-mode',
        file: 'a.sh',
        message:
          'a.sh: old mode 160000 (a submodule) is refused; patches only write plain (100644) or executable (100755) files.',
      },
    ]);
  });

  it('refuses a protected path before reading it, and reports every refused path', async () => {
    const root = project({ '.env': 'k=v\n', 'b.txt': 'b\n' });
    const result = await changeSetFromModelText(
      sr('.env', 'k=v\n', 'k=w\n') + sr('mvnw.cmd', 'x\n', 'y\n'),
      root,
      policy(),
    );
    expect(result.problems.map((p) => [p.code, p.file])).toEqual([
      ['protected-path', '.env'],
      ['protected-path', 'mvnw.cmd'],
    ]);
  });

  it("edits the overlay's content instead of the disk's, and treats an overlay null as a deleted file", async () => {
    const root = project({ 'a.txt': 'disk\n', 'b.txt': 'disk\n' });
    const overlay = new Map<string, string | null>([
      ['a.txt', 'progress\n'],
      ['b.txt', null],
    ]);
    const result = await changeSetFromModelText(sr('a.txt', 'progress\n', 'done\n'), root, policy(), { overlay });
    expect(result.changeSet?.files).toEqual([{ path: 'a.txt', before: 'progress\n', after: 'done\n' }]);
    const gone = await changeSetFromModelText(sr('b.txt', 'disk\n', 'x\n'), root, policy(), { overlay });
    expect(gone.problems.map((p) => p.code)).toEqual(['file-not-found']);
  });

  it('refuses a file that is not UTF-8 unless allowed, then keeps it latin1, rename source included', async () => {
    const root = project({ 'l.txt': Buffer.from('caf\xe9\n', 'latin1') });
    const refused = await changeSetFromModelText(sr('l.txt', 'caf\u00e9\n', 'th\u00e9\n'), root, policy());
    expect(refused.problems).toEqual([
      {
        code: 'non-utf8',
        file: 'l.txt',
        message: 'l.txt is not valid UTF-8, and policy does not allow editing such files.',
      },
    ]);
    const allowed = await changeSetFromModelText(
      sr('l.txt', 'caf\u00e9\n', 'th\u00e9\n'),
      root,
      policy({ allowNonUtf8: true }),
    );
    expect(allowed.changeSet?.files).toEqual([
      { path: 'l.txt', before: 'caf\u00e9\n', after: 'th\u00e9\n', encoding: 'latin1' },
    ]);
    const renamed = await changeSetFromModelText(
      'diff --git a/l.txt b/m.txt\nrename from l.txt\nrename to m.txt\n',
      root,
      policy({ allowNonUtf8: true }),
    );
    expect(renamed.changeSet?.files).toEqual([
      { path: 'm.txt', oldPath: 'l.txt', before: 'caf\u00e9\n', after: 'caf\u00e9\n', encoding: 'latin1' },
    ]);
    const utf8 = await changeSetFromModelText(sr('u.txt', '', 'x\n'), project(), policy({ allowNonUtf8: true }));
    expect(utf8.changeSet?.files[0]).not.toHaveProperty('encoding');
  });

  it('takes the old mode of a "new mode" alone from the disk, so a real change is a mode change and none is dropped', async () => {
    const root = project({ 'run.sh': 'echo\n', 'same.sh': 'echo\n' });
    chmodSync(join(root, 'run.sh'), 0o644);
    chmodSync(join(root, 'same.sh'), 0o755);
    const changed = await changeSetFromModelText('diff --git a/run.sh b/run.sh\nnew mode 100755\n', root, policy());
    expect(changed.changeSet?.files).toEqual([
      { path: 'run.sh', before: 'echo\n', after: 'echo\n', oldMode: '100644', newMode: '100755' },
    ]);
    const refused = await changeSetFromModelText(
      'diff --git a/run.sh b/run.sh\nnew mode 100755\n',
      root,
      policy({ allowedChanges: ['edit-other'] }),
    );
    expect(refused.problems.map((p) => p.code)).toEqual(['change-type-not-allowed']);
    const stated = await changeSetFromModelText(
      'diff --git a/run.sh b/run.sh\nold mode 100755\nnew mode 100644\n',
      root,
      policy(),
    );
    expect(stated.problems.map((p) => p.code)).toEqual(['mode-mismatch']);
    const same = await changeSetFromModelText(
      'diff --git a/same.sh b/same.sh\nnew mode 100755\n--- a/same.sh\n+++ b/same.sh\n@@ -1 +1 @@\n-echo\n+echo hi\n',
      root,
      policy({ allowedChanges: ['edit-other'] }),
    );
    expect(same.changeSet?.files).toEqual([{ path: 'same.sh', before: 'echo\n', after: 'echo hi\n' }]);
  });

  it("drops a new file's default mode but keeps an executable one, and drops modes a deletion states", async () => {
    const root = project({ 'old.sh': 'x\n' });
    const plain = await changeSetFromModelText(
      'diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+n\n',
      root,
      policy(),
    );
    expect(plain.changeSet?.files).toEqual([{ path: 'n.txt', before: null, after: 'n\n' }]);
    const exec = await changeSetFromModelText(
      'diff --git a/x.sh b/x.sh\nnew file mode 100755\n--- /dev/null\n+++ b/x.sh\n@@ -0,0 +1 @@\n+x\n',
      root,
      policy(),
    );
    expect(exec.changeSet?.files).toEqual([{ path: 'x.sh', before: null, after: 'x\n', newMode: '100755' }]);
    const removed = await changeSetFromModelText(
      'diff --git a/old.sh b/old.sh\ndeleted file mode 100644\n--- a/old.sh\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n',
      root,
      policy({ allowedChanges: ['delete-file', 'edit-other'] }),
    );
    expect(removed.changeSet?.files).toEqual([{ path: 'old.sh', before: 'x\n', after: null, oldMode: '100644' }]);
  });

  it('returns placement problems without validating, and validation and disk problems together', async () => {
    const root = project({ 'a.txt': 'a\n' });
    const placed = await changeSetFromModelText(sr('a.txt', 'zzz\n', 'b\n'), root, policy({ allowedChanges: [] }));
    expect(placed.problems.map((p) => p.code)).toEqual(['hunk-not-found']);
    const refused = await changeSetFromModelText(sr('a.txt', 'a\n', 'b\n'), root, policy({ allowedChanges: [] }));
    expect(refused.problems.map((p) => p.code)).toEqual(['change-type-not-allowed']);
    expect(refused.changeSet).toBeUndefined();
    expect(refused.edits).toHaveLength(1);
  });

  it('turns an unexpected failure into an io-error instead of throwing', async () => {
    const result = await changeSetFromModelText(sr('a.txt', 'a\n', 'b\n'), join(tempDir(), 'no-such-root'), policy());
    expect(result).toEqual({
      problems: [{ code: 'io-error', message: 'The patch could not be checked against the project: ENOENT.' }],
      edits: [],
    });
  });
});
