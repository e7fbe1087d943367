import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changeSetFromModelText, DEFAULT_PATCH_POLICY } from '../../src/patch/index.js';
import { DEFAULT_PROTECTED_PATHS } from '../../src/policy/schema.js';
import { loadModelReply, MODEL_REPLIES_DIR, modelReplyIndex, replyTargetDir } from '../helpers/model-replies.js';

const index = modelReplyIndex();
const names = Object.keys(index);
const workDirs: string[] = [];
afterAll(() => {
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

function copyOfTarget(target: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mvnx-replies-'));
  workDirs.push(dir);
  cpSync(replyTargetDir(target as never), dir, { recursive: true });
  return dir;
}

describe('model reply fixtures', () => {
  it('has a reply file for every index entry and an index entry for every reply file', () => {
    const files = readdirSync(MODEL_REPLIES_DIR)
      .filter((f) => f.endsWith('.txt'))
      .map((f) => f.replace(/\.txt$/, ''));
    expect(files.sort()).toEqual([...names].sort());
  });

  it('documents every reply in the README', () => {
    const readme = readFileSync(`${MODEL_REPLIES_DIR}README.md`, 'utf8');
    for (const name of names) expect(readme).toContain(`\`${name}\``);
  });

  it('keeps the CRLF fixture in CRLF', () => {
    expect(loadModelReply('missing-semicolon--crlf')).toMatch(/\r\n/);
    expect(loadModelReply('missing-semicolon--wrong-hunk-counts')).not.toMatch(/\r/);
  });

  it('explains an unknown reply name', () => {
    expect(() => loadModelReply('no-such-reply')).toThrow(/no model reply fixture named "no-such-reply"/);
  });

  it.each(
    names.filter((n) => ['fixes', 'applies-without-fixing', 'regresses', 'weakens-test'].includes(index[n]!.expect)),
  )('%s applies to its target through the real patch layer, touching exactly its listed files', async (name) => {
    const info = index[name]!;
    const root = copyOfTarget(info.target);
    const result = await changeSetFromModelText(loadModelReply(name), root, DEFAULT_PATCH_POLICY);
    expect(result.problems).toEqual([]);
    expect(result.changeSet?.files.map((f) => f.path)).toEqual(info.files);
    const after = result.changeSet?.files[0]?.after ?? '';
    expect(after.split('\n')).toContain(info.fixedLine);
    const before = readFileSync(join(root, info.files[0]!), 'utf8');
    expect(after.split('\n').length - before.split('\n').length).toBeLessThanOrEqual(1);
  });

  it('compile-error--no-code holds no edit', async () => {
    const result = await changeSetFromModelText(
      loadModelReply('compile-error--no-code'),
      copyOfTarget('compile-error'),
      DEFAULT_PATCH_POLICY,
    );
    expect(result.edits).toEqual([]);
    expect(result.changeSet).toBeUndefined();
    expect(result.problems.map((p) => p.code)).toEqual(['no-edits']);
  });

  it('compile-error--path-traversal is refused', async () => {
    const result = await changeSetFromModelText(
      loadModelReply('compile-error--path-traversal'),
      copyOfTarget('compile-error'),
      DEFAULT_PATCH_POLICY,
    );
    expect(result.changeSet).toBeUndefined();
    expect(result.problems.length).toBeGreaterThan(0);
  });

  it('compile-error--pom-edit is refused under the default protected paths and touches pom.xml otherwise', async () => {
    const root = copyOfTarget('compile-error');
    const reply = loadModelReply('compile-error--pom-edit');
    const protectedResult = await changeSetFromModelText(reply, root, {
      ...DEFAULT_PATCH_POLICY,
      protectedPaths: [...DEFAULT_PROTECTED_PATHS],
    });
    expect(protectedResult.changeSet).toBeUndefined();
    expect(protectedResult.problems.some((p) => p.file === 'pom.xml')).toBe(true);
    const open = await changeSetFromModelText(reply, root, DEFAULT_PATCH_POLICY);
    expect(open.changeSet?.files.map((f) => f.path)).toEqual(['pom.xml']);
    expect(open.changeSet?.files[0]?.after?.split('\n')).toContain(index['compile-error--pom-edit']!.fixedLine);
  });
});
