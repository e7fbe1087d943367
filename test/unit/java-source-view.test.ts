/** src/java's SourceView parse: once per view and text, shared by the prompt context, the fixers and the agent's tools. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { viewJavaFile } from '../../src/java/index.js';
import { parseByContent } from '../../src/java/parse-cache.js';
import { ProjectSources } from '../../src/repair/context/sources.js';
import { createSourceView } from '../../src/codebase/index.js';
import { readJava } from '../../src/repair/agent/tools/support/tool-kit.js';
import { overlayReaders } from '../../src/repair/loop/compose.js';
import type { ChangeSet } from '../../src/patch/types.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'mvnx-java-view-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILE = 'src/main/java/com/acme/Calc.java';
mkdirSync(path.join(root, 'src/main/java/com/acme'), { recursive: true });
writeFileSync(path.join(root, FILE), 'package com.acme;\nclass Calc {\n  int add(int a, int b) { return a + b; }\n}\n');
writeFileSync(
  path.join(root, 'src/main/java/com/acme/Broken.java'),
  'package com.acme;\nclass Broken {\n  void f() {\n',
);

describe('viewJavaFile', () => {
  it('parses a file once per view: the prompt context, a fixer and an agent tool get the same model', async () => {
    const view = createSourceView(root);
    const first = await viewJavaFile(view, FILE);
    expect(first?.parsed.ok).toBe(true);
    expect(await viewJavaFile(view, FILE)).toBe(first);
    const fromContext = await new ProjectSources(view).parse(FILE);
    const fromTool = (await readJava('extract_method', view, FILE)).java;
    expect(first?.parsed.ok && fromContext === first.parsed.file && fromTool === first.parsed.file).toBe(true);
  });

  it('parses again when the view reads other text for the path (a change laid over, or the file edited)', async () => {
    let text = 'class A { }';
    const view = { root, read: async () => text, list: async () => [] };
    const before = await viewJavaFile(view, 'A.java');
    text = 'class A { int x; }';
    const after = await viewJavaFile(view, 'A.java');
    expect(after).not.toBe(before);
    expect(after?.parsed.ok && after.parsed.file.text).toBe('class A { int x; }');
  });

  it('keeps a file that does not parse as its error, and a missing file as undefined', async () => {
    const view = createSourceView(root);
    const broken = await viewJavaFile(view, 'src/main/java/com/acme/Broken.java');
    expect(broken?.parsed.ok).toBe(false);
    expect(broken?.parsed.ok === false && broken.parsed.error.message).toMatch(/end of the file/);
    expect(await viewJavaFile(view, 'src/main/java/com/acme/Missing.java')).toBeUndefined();
  });

  it('one reader per base: the views the fixers, the prompt context and the agent build of one attempt share the parse; a new base reads its own text', async () => {
    const original = createSourceView(root);
    const readAt = overlayReaders((file) => original.read(file));
    const base: ChangeSet = { files: [] };
    const list = (glob: string) => original.list(glob);
    const fixers = await viewJavaFile({ read: readAt(base) }, FILE);
    const context = await new ProjectSources({ read: readAt(base), list }).parse(FILE);
    const agent = await readJava('extract_method', { root, read: readAt(base), list }, FILE);
    expect(fixers?.parsed.ok && context === fixers.parsed.file && agent.java === fixers.parsed.file).toBe(true);
    const next: ChangeSet = {
      files: [{ path: FILE, before: fixers!.text, after: 'package com.acme;\nclass Calc { }\n' }],
    };
    const changed = await viewJavaFile({ read: readAt(next) }, FILE);
    expect(changed?.parsed.ok && changed.parsed.file.types[0]!.methods).toEqual([]);
  });
});

describe('viewJavaFile keeps a bounded number of parses', () => {
  it('keeps the most recently used 64 files of a reader and parses an older one again', async () => {
    const view = { read: async (file: string) => `class ${file.replace('.java', '')} { }` };
    const first = await viewJavaFile(view, 'C0.java');
    for (let n = 1; n <= 63; n++) await viewJavaFile(view, `C${n}.java`);
    expect(await viewJavaFile(view, 'C0.java')).toBe(first);
    for (let n = 64; n <= 128; n++) await viewJavaFile(view, `C${n}.java`);
    const again = await viewJavaFile(view, 'C0.java');
    expect(again).not.toBe(first);
    // Dropped by the reader, still known by its content: not parsed again.
    expect(again?.parsed).toBe(first?.parsed);
  });
});

describe('parses are shared by content across readers', () => {
  it('the next attempt (a new base, a new reader) parses no file the patch left as it was; a changed text is parsed', async () => {
    const original = createSourceView(root);
    const readAt = overlayReaders((file) => original.read(file));
    const first = await viewJavaFile({ read: readAt({ files: [] }) }, FILE);
    const other = 'src/main/java/com/acme/Other.java';
    const next: ChangeSet = { files: [{ path: other, before: '', after: 'package com.acme;\nclass Other { }\n' }] };
    const second = await viewJavaFile({ read: readAt(next) }, FILE);
    expect(second?.parsed.ok).toBe(true);
    expect(second?.parsed).toBe(first?.parsed);
    const edited: ChangeSet = { files: [{ path: FILE, before: first!.text, after: `${first!.text}// edited\n` }] };
    expect((await viewJavaFile({ read: readAt(edited) }, FILE))?.parsed).not.toBe(first?.parsed);
  });

  it('keeps a bounded number of parses by content (the 256 most recently used)', async () => {
    const first = await parseByContent('class Bounded0 { }');
    expect(await parseByContent('class Bounded0 { }')).toBe(first);
    for (let n = 1; n <= 256; n++) await parseByContent(`class Bounded${n} { }`);
    expect(await parseByContent('class Bounded0 { }')).not.toBe(first);
  });
});
