/**
 * Java parses by content across runs (src/java/parse-cache.ts and its disk edge,
 * codebase/parse-store.ts): an entry is found by the file's text alone, a corrupt or
 * foreign entry is parsed again and rewritten, the folder keeps under its cap, and a
 * second prompt build of the same project parses nothing: counted, not timed.
 */
import { cp, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../src/diagnose/types.js';
import {
  fieldsOf,
  findMethodCalls,
  findTryStatements,
  flushJavaParses,
  forgetJavaParses,
  headerOf,
  javaParseStats,
  parseKept,
  parseKey,
  superTypesOf,
  useJavaParseCache,
  viewJavaFile,
  PARSE_CACHE_FORMAT,
  type JavaSourceFile,
} from '../../src/java/index.js';
import { toPatchPolicy, configSchema } from '../../src/policy/index.js';
import { Redactor } from '../../src/model/index.js';
import { createParseCache, createSourceView, createTypeIndex, parseCacheDir } from '../../src/codebase/index.js';
import { buildPromptFor, renderPromptText } from '../../src/repair/proposers/model-proposer.js';

const cases = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/cases');
const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  useJavaParseCache(undefined);
  forgetJavaParses();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-parse-cache-'));
  temps.push(dir);
  return dir;
}

const ACCOUNT = [
  'package com.acme;',
  '',
  'import java.util.List;',
  '',
  'public class Account extends Base implements Comparable<Account> {',
  '  private final List<String> owners;',
  '  private long cents;',
  '',
  '  long total(int n) {',
  '    try {',
  '      return Math.addExact(cents, n);',
  '    } catch (ArithmeticException e) {',
  '      return owners.size();',
  '    }',
  '  }',
  '}',
  '',
].join('\n');

/** A file read through a fresh view, as a new process (or the next run) would read it. */
async function readFresh(text: string): Promise<JavaSourceFile> {
  const viewed = await viewJavaFile({ read: async () => text }, 'Account.java');
  if (!viewed?.parsed.ok) throw new Error('expected a parse');
  return viewed.parsed.file;
}

/** Ends "the process": what it learnt is written, and nothing is kept in memory. */
async function endProcess(): Promise<void> {
  await flushJavaParses();
  forgetJavaParses();
}

describe('the parse cache: an entry per file content', () => {
  it('a second process finds the model and the answers asked before, and parses nothing', async () => {
    const root = await tempDir();
    useJavaParseCache(createParseCache(root));
    const first = await readFresh(ACCOUNT);
    const fields = fieldsOf(first.types[0]!);
    const calls = findMethodCalls(first.types[0]!.methods[0]!);
    const header = headerOf(first);
    await endProcess();

    const before = javaParseStats();
    const again = await readFresh(ACCOUNT);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(fieldsOf(again.types[0]!)).toEqual(fields);
    expect(findMethodCalls(again.types[0]!.methods[0]!)).toEqual(calls);
    expect(
      findMethodCalls(again.types[0]!.methods[0]!, (call) => call.name === 'size').map((call) => call.text),
    ).toEqual(['owners.size()']);
    expect(headerOf(again)).toEqual(header);
    const after = javaParseStats();
    expect(after.parses - before.parses).toBe(0);
    expect(after.cacheHits - before.cacheHits).toBe(1);
  });

  it('a question not asked before parses the file once, then every question has its tree', async () => {
    const root = await tempDir();
    useJavaParseCache(createParseCache(root));
    fieldsOf((await readFresh(ACCOUNT)).types[0]!);
    await endProcess();

    const before = javaParseStats().parses;
    const again = await readFresh(ACCOUNT);
    expect(javaParseStats().parses).toBe(before);
    const method = again.types[0]!.methods[0]!;
    // findTryStatements needs the tree (its blocks are model parts): one parse, the right answer.
    expect(findTryStatements(method).map((entry) => entry.catches[0]!.types)).toEqual([['ArithmeticException']]);
    expect(superTypesOf(again.types[0]!)).toEqual({ superclass: 'Base', interfaces: ['Comparable<Account>'] });
    expect(javaParseStats().parses).toBe(before + 1);
  });

  it('a synchronous reader (the integrity checks) gets the parse the prompt made, and its own parse is kept for the next reader', async () => {
    const prompt = await readFresh(ACCOUNT);
    const before = javaParseStats().parses;
    const kept = parseKept(ACCOUNT);
    expect(kept.ok && kept.file).toBe(prompt);
    expect(javaParseStats().parses).toBe(before);
    // A candidate's text, first judged by the integrity check, then skeletonised for the verification: one parse.
    const candidate = ACCOUNT.replace('return owners.size();', 'return 0;');
    const judged = parseKept(candidate);
    expect(parseKept(candidate)).toBe(judged);
    expect(javaParseStats().parses).toBe(before + 1);
    expect(judged.ok && findMethodCalls(judged.file.types[0]!.methods[0]!).map((call) => call.name)).toEqual([
      'addExact',
    ]);
  });

  it('other text is another entry: an edited file is parsed, not served the old model', async () => {
    const root = await tempDir();
    useJavaParseCache(createParseCache(root));
    await readFresh(ACCOUNT);
    await endProcess();
    const before = javaParseStats().parses;
    const edited = await readFresh(ACCOUNT.replace('private long cents;', 'private long balance;'));
    expect(javaParseStats().parses).toBe(before + 1);
    expect(fieldsOf(edited.types[0]!).map((field) => field.name)).toEqual(['owners', 'balance']);
  });

  it('a file that does not parse is kept with its error, and read back as that error', async () => {
    const root = await tempDir();
    useJavaParseCache(createParseCache(root));
    const broken = 'class Broken {\n  void f() {\n';
    const first = await viewJavaFile({ read: async () => broken }, 'Broken.java');
    await endProcess();
    const before = javaParseStats().parses;
    const again = await viewJavaFile({ read: async () => broken }, 'Broken.java');
    expect(javaParseStats().parses).toBe(before);
    expect(again?.parsed).toEqual(first?.parsed);
    expect(again?.parsed.ok).toBe(false);
  });

  it('the key is the text and the cache format: another java-parser or model shape never reads this entry', () => {
    expect(parseKey(ACCOUNT)).toMatch(/^[0-9a-f]{64}$/);
    expect(parseKey(ACCOUNT)).toBe(parseKey(`${ACCOUNT}`));
    expect(parseKey(ACCOUNT)).not.toBe(parseKey(`${ACCOUNT} `));
    expect(PARSE_CACHE_FORMAT).toContain('java-parser@3.0.1');
  });

  for (const [what, damage] of [
    ['a corrupt entry (cut short)', (entry: string) => entry.slice(0, entry.length / 2)],
    [
      'an entry of another cache format',
      (entry: string) => entry.replace(PARSE_CACHE_FORMAT, 'mvnx-java-parse/0 java-parser@2.0.0'),
    ],
    [
      "another file's entry under this name",
      (entry: string) => entry.replace(/"key":"[0-9a-f]+"/, `"key":"${'0'.repeat(64)}"`),
    ],
    ['an entry whose model is not one', (entry: string) => entry.replace('"types":[', '"types":7,"x":[')],
    ['an entry with a range that is not one', (entry: string) => entry.replace('"range":[', '"range":["x",')],
    ['not JSON at all', () => '\u0000\u0001 garbage'],
  ] as const) {
    it(`${what} is ignored: the file is parsed, no error, and the entry is rewritten`, async () => {
      const root = await tempDir();
      useJavaParseCache(createParseCache(root));
      await readFresh(ACCOUNT);
      await endProcess();
      const file = path.join(parseCacheDir(root), `${parseKey(ACCOUNT)}.json`);
      await writeFile(file, damage(await readFile(file, 'utf8')));

      const before = javaParseStats();
      const again = await readFresh(ACCOUNT);
      expect(fieldsOf(again.types[0]!).map((field) => field.name)).toEqual(['owners', 'cents']);
      expect(javaParseStats().parses).toBe(before.parses + 1);
      expect(javaParseStats().cacheHits).toBe(before.cacheHits);
      await endProcess();
      const rewritten = JSON.parse(await readFile(file, 'utf8')) as { format: string; key: string };
      expect(rewritten).toMatchObject({ format: PARSE_CACHE_FORMAT, key: parseKey(ACCOUNT) });
      // And now it serves again.
      await readFresh(ACCOUNT);
      expect(javaParseStats().parses).toBe(before.parses + 1);
    });
  }
});

describe('the parse cache on disk (.mvnx/cache/java-parse)', () => {
  const key = (n: number) => n.toString(16).padStart(64, '0');

  it('keeps under its size cap: the least recently used entries go first, never the one just written', async () => {
    const root = await tempDir();
    const store = createParseCache(root, { maxBytes: 2500 });
    const entry = 'x'.repeat(1000);
    await store.put(key(1), entry);
    await store.put(key(2), entry);
    const dir = parseCacheDir(root);
    // 1 was written first but read last: 2 is the least recently used.
    await utimes(path.join(dir, `${key(2)}.json`), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await utimes(path.join(dir, `${key(1)}.json`), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect(await store.get(key(1))).toBe(entry);
    await store.put(key(3), entry);
    expect((await readdir(dir)).sort()).toEqual([`${key(1)}.json`, `${key(3)}.json`]);
    // An entry larger than the whole cap is not written at all.
    await store.put(key(4), 'y'.repeat(3000));
    expect(await store.get(key(4))).toBeUndefined();
  });

  it('a later process counts what earlier ones left: the cap holds across runs', async () => {
    const root = await tempDir();
    await createParseCache(root, { maxBytes: 2500 }).put(key(1), 'x'.repeat(1000));
    await createParseCache(root, { maxBytes: 2500 }).put(key(2), 'x'.repeat(1000));
    await utimes(
      path.join(parseCacheDir(root), `${key(1)}.json`),
      new Date(Date.now() - 60_000),
      new Date(Date.now() - 60_000),
    );
    await createParseCache(root, { maxBytes: 2500 }).put(key(3), 'x'.repeat(1000));
    expect((await readdir(parseCacheDir(root))).sort()).toEqual([`${key(2)}.json`, `${key(3)}.json`]);
  });

  it('writes whole files (no temp file left), keeps itself out of git, and refuses keys that are not a content hash', async () => {
    const root = await tempDir();
    const store = createParseCache(root);
    await store.put(key(1), '{"a":1}');
    await store.put('../../escape', 'no');
    expect(await store.get('../../escape')).toBeUndefined();
    expect(await readdir(parseCacheDir(root))).toEqual([`${key(1)}.json`]);
    expect(await readFile(path.join(root, '.mvnx/cache/.gitignore'), 'utf8')).toBe('*\n');
    expect((await readdir(root)).sort()).toEqual(['.mvnx']);
  });

  it("withholds an entry the run's redaction finds a secret in: `.mvnx/` may leave the machine as a CI artifact", async () => {
    const root = await tempDir();
    const secret = `ghp_${'a1B2'.repeat(9)}`;
    const redactor = new Redactor({ knownSecrets: [secret] });
    const leaky = ACCOUNT.replace(
      '  long total(int n) {',
      `  void publish() {\n    send("${secret}");\n  }\n\n  long total(int n) {`,
    );
    const askAndFlush = async () => {
      findMethodCalls((await readFresh(leaky)).types[0]!.methods[0]!);
      await readFresh(ACCOUNT);
      await endProcess();
    };
    // Without the check the call's argument, the secret, is in the entry.
    const unchecked = await tempDir();
    useJavaParseCache(createParseCache(unchecked));
    await askAndFlush();
    const written = await readdir(parseCacheDir(unchecked));
    expect(written).toHaveLength(2);
    expect(
      (await Promise.all(written.map((name) => readFile(path.join(parseCacheDir(unchecked), name), 'utf8')))).join(),
    ).toContain(secret);

    useJavaParseCache(createParseCache(root, { withholds: (entry) => redactor.redactSecrets(entry) !== entry }));
    await askAndFlush();
    expect(await readdir(parseCacheDir(root))).toEqual([`${parseKey(ACCOUNT)}.json`]);
  });

  it('never fails a run: a cache that cannot be written or read costs a parse, not an error', async () => {
    const root = await tempDir();
    // `.mvnx` is a file here: no folder can be made under it.
    await writeFile(path.join(root, '.mvnx'), 'not a folder');
    const store = createParseCache(root);
    await expect(store.put(key(1), 'entry')).resolves.toBeUndefined();
    await expect(store.get(key(1))).resolves.toBeUndefined();
    useJavaParseCache(store);
    const before = javaParseStats().parses;
    expect((await readFresh(ACCOUNT)).types[0]!.name).toBe('Account');
    await expect(flushJavaParses()).resolves.toBeUndefined();
    expect(javaParseStats().parses).toBe(before + 1);
    expect((await stat(path.join(root, '.mvnx'))).isFile()).toBe(true);
  });
});

describe('two prompt builds of the same project (the in-memory cache cleared between them)', () => {
  const config = configSchema.parse({});
  async function build(root: string, diagnosis: Diagnosis): Promise<string> {
    const view = createSourceView(root);
    useJavaParseCache(createParseCache(root));
    const prompt = await buildPromptFor(diagnosis, { files: [] }, [], {
      read: () => (file) => view.read(file),
      list: (glob) => view.list(glob),
      types: createTypeIndex({ projectRoot: root, classpath: [] }),
      checker: { root, policy: toPatchPolicy(config) },
      editFormat: 'diff',
      contextTokens: 8192,
    });
    return renderPromptText(prompt);
  }

  const failures: [string, string, Diagnosis['diagnostics'][number]][] = [
    [
      'a failing test',
      'wrapped-exception-root-cause',
      {
        kind: 'test',
        category: 'test',
        fixable: true,
        message: 'cannot export item pen',
        fingerprint: 'f',
        file: 'src/main/java/com/acme/export/CsvRow.java',
        line: 20,
        test: 'com.acme.export.ExporterTest#anItemWithoutANoteHasAnEmptyCell',
        testFailure: {
          className: 'com.acme.export.ExporterTest',
          method: 'anItemWithoutANoteHasAnEmptyCell',
          outcome: 'error',
          failureType: 'com.acme.export.ExportException',
          rootCause: 'java.lang.NullPointerException: value is null',
          stackTrace: '',
          reportFile: 'x',
          frames: [
            {
              file: 'src/main/java/com/acme/export/CsvRow.java',
              line: 20,
              className: 'com.acme.export.CsvRow',
              method: 'cell',
            },
            {
              file: 'src/main/java/com/acme/export/CsvRow.java',
              line: 15,
              className: 'com.acme.export.CsvRow',
              method: 'render',
            },
            {
              file: 'src/main/java/com/acme/export/Exporter.java',
              line: 13,
              className: 'com.acme.export.Exporter',
              method: 'export',
            },
            {
              file: 'src/test/java/com/acme/export/ExporterTest.java',
              line: 18,
              className: 'com.acme.export.ExporterTest',
              method: 'anItemWithoutANoteHasAnEmptyCell',
            },
          ],
        },
      },
    ],
    [
      'a compile error about a superclass method',
      'renamed-superclass-method',
      {
        kind: 'compile',
        category: 'compile',
        fixable: true,
        message: 'cannot find symbol',
        scope: 'main',
        fingerprint: 'f',
        file: 'src/main/java/com/acme/json/OptionalIntReader.java',
        line: 14,
        column: 34,
        details: [
          'symbol:   method _fromEmptyValue(com.acme.json.ReadContext)',
          'location: class com.acme.json.OptionalIntReader',
        ],
      },
    ],
  ];

  for (const [what, bench, diagnostic] of failures) {
    it(`${what}: the second build parses no file and shows the same prompt`, async () => {
      const root = await tempDir();
      await cp(path.join(cases, bench, 'project'), root, { recursive: true });
      const diagnosis: Diagnosis = {
        diagnostics: [diagnostic],
        fingerprint: 'f',
        fixable: true,
        modules: [],
        warnings: [],
      } as unknown as Diagnosis;

      const before = javaParseStats();
      const first = await build(root, diagnosis);
      const afterFirst = javaParseStats();
      expect(afterFirst.parses - before.parses).toBeGreaterThan(1);
      forgetJavaParses();
      useJavaParseCache(undefined);

      const second = await build(root, diagnosis);
      const afterSecond = javaParseStats();
      expect(afterSecond.parses - afterFirst.parses).toBe(0);
      expect(afterSecond.cacheHits - afterFirst.cacheHits).toBe(afterFirst.parses - before.parses);
      expect(second).toBe(first);
      expect(first).toContain('### ');
    });
  }
});
