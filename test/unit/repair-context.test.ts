/**
 * The prompt context on the bench cases' real sources (and small projects written here):
 * whichever shape the failure has, the code the fix changes and the declarations it uses
 * come out as pieces, ranked so that the packer takes them first.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnose/types.js';
import { composeRepairPrompt, orderPieces, type ContextPiece } from '../../src/model/prompts/index.js';
import { classUnderTestName } from '../../src/repair/context/failures.js';
import { gatherContext } from '../../src/repair/context/gather.js';
import { importsPiece, methodPiece, typeHeaderPiece, unparsedPieces } from '../../src/repair/context/pieces.js';
import { locationOf, symbolOf } from '../../src/repair/context/symbols.js';
import { parseJava } from '../../src/java/index.js';
import { createSourceView, createTypeIndex } from '../../src/codebase/index.js';

const cases = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/cases');
const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

/** An empty project folder in the temp dir (removed after the tests) and a writer of its files. */
async function scratchProject(): Promise<{ root: string; write: (file: string, text: string) => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-context-'));
  temps.push(root);
  const write = async (file: string, text: string) => {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  };
  return { root, write };
}

async function context(root: string, diagnostics: Diagnostic[], withTypes = false): Promise<ContextPiece[]> {
  const view = createSourceView(root);
  return gatherContext({
    diagnostics,
    access: { read: (file) => view.read(file), list: (glob) => view.list(glob) },
    ...(withTypes ? { types: createTypeIndex({ projectRoot: root, classpath: [] }) } : {}),
  });
}

function promptOf(diagnostics: Diagnostic[], pieces: ContextPiece[]): string {
  return composeRepairPrompt({ diagnostics, context: pieces, editFormat: 'diff', history: [], contextTokens: 8192 })
    .messages.map((m) => m.content)
    .join('\n');
}

const testFailure = (over: Partial<Diagnostic> & { testFailure: Diagnostic['testFailure'] }): Diagnostic => ({
  kind: 'test',
  category: 'test',
  fixable: true,
  message: '',
  fingerprint: 'f',
  ...over,
});
const compileError = (over: Partial<Diagnostic>): Diagnostic => ({
  kind: 'compile',
  category: 'compile',
  fixable: true,
  message: 'cannot find symbol',
  scope: 'main',
  fingerprint: 'f',
  ...over,
});

describe('gatherContext for a failing test', () => {
  it('a wrapped exception: the root cause method first, then the call path, the test in its own tier', async () => {
    const root = path.join(cases, 'wrapped-exception-root-cause/project');
    const d = testFailure({
      message: 'cannot export item pen',
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
    });
    const pieces = orderPieces(await context(root, [d]));
    expect(pieces[0]).toMatchObject({
      label: 'method CsvRow.cell(String)',
      tier: 'primary',
      path: 'src/main/java/com/acme/export/CsvRow.java',
    });
    expect(pieces[0]!.text).toContain('String escaped = value.replace("\\"", "\\"\\"");');
    expect(pieces[0]!.reason).toBe('where it fails: java.lang.NullPointerException: value is null');
    const labels = pieces.filter((p) => p.tier === 'primary').map((p) => p.label);
    expect(labels.indexOf('method CsvRow.render(Item)')).toBeLessThan(
      labels.indexOf('method Exporter.export(List<Item>)'),
    );
    expect(pieces.find((p) => p.tier === 'test' && p.label.includes('anItemWithoutANoteHasAnEmptyCell'))).toBeDefined();
  });

  it('supporting context: imports away from a compile error and fields no shown method reads are tier other', async () => {
    // No right fix of the bench or of the jsoup bugs used these (bench/results-context-use.md).
    const { root, write } = await scratchProject();
    await write(
      'src/main/java/com/acme/shop/Cart.java',
      'package com.acme.shop;\n\nimport java.util.ArrayList;\nimport java.util.List;\n\npublic class Cart {\n    private final List<Integer> items = new ArrayList<>();\n    private String createdBy = "web";\n\n    public long totalCents() {\n        long sum = 0;\n        for (int item : items) sum += item;\n        return sum;\n    }\n}\n',
    );
    await write(
      'src/test/java/com/acme/shop/CartTest.java',
      'package com.acme.shop;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass CartTest {\n    @Test\n    void totalIsInCents() {\n        assertEquals(1250, new Cart().totalCents());\n    }\n}\n',
    );
    const d = testFailure({
      message: 'expected: <1250> but was <12>',
      test: 'com.acme.shop.CartTest#totalIsInCents',
      testFailure: {
        className: 'com.acme.shop.CartTest',
        method: 'totalIsInCents',
        outcome: 'failure',
        failureType: 'org.opentest4j.AssertionFailedError',
        stackTrace: '',
        reportFile: 'x',
        frames: [
          {
            file: 'src/test/java/com/acme/shop/CartTest.java',
            line: 10,
            className: 'com.acme.shop.CartTest',
            method: 'totalIsInCents',
          },
        ],
      },
    });
    const pieces = await context(root, [d]);
    const imports = pieces.filter((p) => p.label.startsWith('imports of'));
    expect(imports.map((p) => [p.label, p.tier])).toEqual([
      ['imports of CartTest.java', 'other'],
      ['imports of Cart.java', 'other'],
    ]);
    // Cart.items is read by the method the test calls, so it stays beside it; createdBy is read by nothing shown.
    expect(pieces.find((p) => p.label === 'field Cart.items')).toMatchObject({ tier: 'declaration' });
    expect(pieces.find((p) => p.label === 'field Cart.createdBy')).toMatchObject({ tier: 'other' });
    expect(pieces.find((p) => p.label === 'method Cart.totalCents()')).toMatchObject({ tier: 'primary' });
  });

  it('an assertion without a main frame: the method the test calls through a local, and the helper it calls', async () => {
    const root = path.join(cases, 'assertion-without-main-frame/project');
    const d = testFailure({
      message: 'expected: <😀> but was: <����>',
      file: 'src/test/java/com/acme/text/EmojiRoundTripTest.java',
      line: 19,
      test: 'com.acme.text.EmojiRoundTripTest#decodesAnEmoji',
      testFailure: {
        className: 'com.acme.text.EmojiRoundTripTest',
        method: 'decodesAnEmoji',
        outcome: 'failure',
        failureType: 'org.opentest4j.AssertionFailedError',
        stackTrace: '',
        reportFile: 'x',
        frames: [
          {
            file: 'src/test/java/com/acme/text/EmojiRoundTripTest.java',
            line: 19,
            className: 'com.acme.text.EmojiRoundTripTest',
            method: 'decodesAnEmoji',
          },
        ],
      },
    });
    const pieces = orderPieces(await context(root, [d]));
    const primary = pieces.filter((p) => p.tier === 'primary');
    expect(primary[0]).toMatchObject({
      label: 'method Utf8Decoder.decode(byte[])',
      reason: 'called by the test (Utf8Decoder.decode)',
    });
    const helper = primary.find((p) => p.label === 'method Utf8Decoder.sequenceLength(int)');
    expect(helper?.reason).toBe('called by decode (Utf8Decoder.sequenceLength)');
    // The method the test calls ranks above what it calls in turn, which ranks above the class's other methods.
    expect(helper!.score).toBeLessThan(primary[0]!.score);
    expect(pieces.find((p) => p.label === 'method Utf8Decoder.isAscii(byte[])')?.tier).toBe('other');
    expect(promptOf([d], pieces)).toContain('if (lead >= 0xF0 && lead < 0xF0) {');
  });

  it('finds the code under test through fields, static imports of a class, FooTest -> Foo and the message', async () => {
    const { root, write } = await scratchProject();
    await write(
      'src/main/java/com/acme/shop/Cart.java',
      'package com.acme.shop;\n\npublic class Cart {\n    private final Pricing pricing = new Pricing();\n\n    public int total(int n) {\n        return pricing.price(n) * n;\n    }\n}\n',
    );
    await write(
      'src/main/java/com/acme/shop/Pricing.java',
      'package com.acme.shop;\n\nclass Pricing {\n    int price(int n) {\n        return n > 10 ? 9 : 10;\n    }\n}\n',
    );
    await write(
      'src/main/java/com/acme/util/Rounding.java',
      'package com.acme.util;\n\npublic final class Rounding {\n    public static int up(int x) {\n        return x + 1;\n    }\n}\n',
    );
    await write(
      'src/main/java/com/acme/shop/Ledger.java',
      'package com.acme.shop;\n\npublic class Ledger {\n    public String owner() {\n        return null;\n    }\n}\n',
    );
    await write(
      'src/test/java/com/acme/shop/CartTest.java',
      'package com.acme.shop;\n\nimport com.acme.util.Rounding;\nimport org.junit.jupiter.api.Test;\n\nclass CartTest {\n    private final Cart cart = new Cart();\n\n    @Test\n    void totals() {\n        int rounded = Rounding.up(1);\n        org.junit.jupiter.api.Assertions.assertEquals(20, cart.total(rounded));\n    }\n}\n',
    );
    const d = testFailure({
      message: 'expected: <20> but was: <40> (see Ledger)',
      file: 'src/test/java/com/acme/shop/CartTest.java',
      line: 12,
      test: 'com.acme.shop.CartTest#totals',
      testFailure: {
        className: 'com.acme.shop.CartTest',
        method: 'totals',
        outcome: 'failure',
        failureType: 'org.opentest4j.AssertionFailedError',
        stackTrace: '',
        reportFile: 'x',
        frames: [
          {
            file: 'src/test/java/com/acme/shop/CartTest.java',
            line: 12,
            className: 'com.acme.shop.CartTest',
            method: 'totals',
          },
        ],
      },
    });
    const pieces = orderPieces(await context(root, [d]));
    const primary = pieces.filter((p) => p.tier === 'primary' && p.label.startsWith('method'));
    // cart.total is on the failing line and Cart is the class under test: it ranks first.
    expect(primary.map((p) => p.label).slice(0, 3)).toEqual([
      'method Cart.total(int)',
      'method Rounding.up(int)',
      'method Pricing.price(int)',
    ]);
    expect(primary.find((p) => p.label === 'method Pricing.price(int)')?.reason).toBe(
      'called by total (Pricing.price)',
    );
    expect(pieces.find((p) => p.label === 'method Ledger.owner()')?.reason).toBe('named in the failure message');
  });

  it('names the class under test by convention', () => {
    expect(
      ['com.acme.FooTest', 'FooTests', 'TestFoo', 'com.acme.FooIT', 'FooTest$Nested', 'Helper'].map(classUnderTestName),
    ).toEqual(['Foo', 'Foo', 'Foo', 'Foo', 'Foo', undefined]);
  });
});

describe('gatherContext for a compile error about a symbol', () => {
  it("a renamed superclass method: the hierarchy's members, the nearest name first", async () => {
    const root = path.join(cases, 'renamed-superclass-method/project');
    const d = compileError({
      file: 'src/main/java/com/acme/json/OptionalIntReader.java',
      line: 14,
      column: 34,
      details: [
        'symbol:   method _fromEmptyValue(com.acme.json.ReadContext)',
        'location: class com.acme.json.OptionalIntReader',
      ],
    });
    const pieces = orderPieces(await context(root, [d]));
    expect(pieces[0]).toMatchObject({ label: 'method OptionalIntReader.read(String, ReadContext)', tier: 'primary' });
    const declarations = pieces.filter(
      (p) => p.tier === 'declaration' && /^declaration (method|constructor) /.test(p.label),
    );
    expect(declarations[0]).toMatchObject({
      label: 'declaration method StdScalarReader._fromEmptyString(ReadContext)',
      path: 'src/main/java/com/acme/json/StdScalarReader.java',
    });
    // Where javac fails, the imports may be the fix: they stay beside the method.
    expect(pieces.find((p) => p.label === 'imports of OptionalIntReader.java')).toMatchObject({ tier: 'primary' });
    // Private members of a superclass and its constructors are not offered.
    expect(declarations.map((p) => p.label)).not.toContain('declaration method StdScalarReader.describe()');
    expect(declarations.map((p) => p.label)).not.toContain(
      'declaration constructor StdScalarReader.StdScalarReader(Class<T>)',
    );
  });

  it('a field of another class: the declarations of the type of the variable', async () => {
    const root = path.join(cases, 'field-of-another-class/project');
    const d = compileError({
      file: 'src/main/java/com/acme/billing/Statement.java',
      line: 18,
      column: 78,
      details: ['symbol:   variable amountDue', 'location: variable invoice of type com.acme.billing.Invoice'],
    });
    const text = promptOf([d], await context(root, [d]));
    expect(text).toContain('public final long balanceCents;');
    expect(text).toContain('### src/main/java/com/acme/billing/Invoice.java');
  });

  it("a wrong argument type: the members of the called method's class", async () => {
    const root = path.join(cases, 'wrong-argument-type/project');
    const d = compileError({
      message: 'incompatible types: java.lang.String cannot be converted to long',
      file: 'src/main/java/com/acme/report/Report.java',
      line: 14,
      column: 52,
      details: [],
    });
    const text = promptOf([d], await context(root, [d]));
    expect(text).toContain('public static String format(long cents) {');
    expect(text).toContain('public static long parseCents(String text) {');
  });

  it('a method of a JDK type: its members from javap, nearest names first', async () => {
    const { root, write } = await scratchProject();
    await write(
      'src/main/java/com/acme/Playlist.java',
      'package com.acme;\n\nimport java.util.ArrayList;\nimport java.util.List;\n\npublic class Playlist {\n    private final List<String> songs = new ArrayList<>();\n\n    public void with(String song) {\n        songs.push(song);\n    }\n}\n',
    );
    const d = compileError({
      file: 'src/main/java/com/acme/Playlist.java',
      line: 10,
      column: 14,
      details: [
        'symbol:   method push(java.lang.String)',
        'location: variable songs of type java.util.List<java.lang.String>',
      ],
    });
    const pieces = await context(root, [d], true);
    const list = pieces.find((p) => p.heading?.startsWith('java.util.List'));
    expect(list?.tier).toBe('declaration');
    expect(list?.text).toContain('public abstract boolean add(E);');
    expect(list?.path).toBeUndefined();
    // Its supertypes come too (Collection), read the same way.
    expect(pieces.some((p) => p.heading?.startsWith('java.util.Collection'))).toBe(true);
  });

  it('a file that does not parse: the lines around the error and the imports', async () => {
    const root = path.join(cases, 'missing-semicolon-statement/project');
    const view = createSourceView(root);
    const [file] = await view.list('**/src/main/java/**/*.java');
    const d = compileError({ message: "';' expected", file: file!, line: 5, details: [] });
    const pieces = await context(root, [d]);
    expect(pieces.some((p) => p.label.startsWith('lines ') && p.tier === 'primary')).toBe(true);
  });

  it("reads javac's symbol and location lines", () => {
    const d = compileError({
      details: [
        'symbol:   method format(java.util.Map<java.lang.String,java.lang.Integer>,int)',
        'location: variable money of type com.acme.Money',
      ],
    });
    expect(symbolOf(d)).toEqual({
      kind: 'method',
      name: 'format',
      argumentTypes: ['java.util.Map<java.lang.String,java.lang.Integer>', 'int'],
    });
    expect(locationOf(d)).toEqual({ kind: 'variable', variable: 'money', type: 'com.acme.Money' });
    expect(symbolOf(compileError({ details: ['symbol:   variable total'] }))).toEqual({
      kind: 'variable',
      name: 'total',
    });
    expect(locationOf(compileError({ details: ['location: interface java.util.stream.IntStream'] }))).toEqual({
      kind: 'interface',
      type: 'java.util.stream.IntStream',
    });
  });
});

describe('context pieces', () => {
  const meta = { tier: 'primary' as const, score: 100, reason: 'test' };
  const parsed = (text: string) => {
    const result = parseJava(text);
    if (!result.ok) throw new Error(result.error.message);
    return result.file;
  };

  it('a method is shown with the comments above it, and only those: a trailing comment on the line above is code, not its javadoc', () => {
    const file = parsed(
      [
        '/* License. */',
        'package a;',
        '',
        'class A {',
        '    int count; /* how many */',
        '    int f() {',
        '        return count;',
        '    }',
        '',
        '    // Twice the count.',
        '    /*',
        '',
        '     * Not javadoc, still a comment.',
        '     */',
        '    int g() { return 2 * count; }',
        '}',
      ].join('\n'),
    );
    const [f, g] = file.types[0]!.methods;
    expect(methodPiece('A.java', file, f!, meta)?.startLine).toBe(6);
    expect(methodPiece('A.java', file, g!, meta)).toMatchObject({
      startLine: 9,
      text: expect.stringMatching(/^\n {4}\/\/ Twice the count\./),
    });
  });

  it('the imports piece runs from the package line to the last import, an import commented out below it left out, parsed or not', () => {
    const lines = [
      'package a;',
      '',
      'import java.util.List;',
      '/*',
      'import java.util.Map;',
      ' */',
      'class A {',
      '    List<String> names;',
      '}',
    ];
    expect(importsPiece('A.java', parsed(lines.join('\n')), meta)).toMatchObject({
      startLine: 1,
      text: 'package a;\n\nimport java.util.List;',
    });
    const broken = [...lines.slice(0, -1), '    void f() {', '}'].join('\n');
    expect(unparsedPieces('A.java', broken, 9, meta)[0]).toMatchObject({
      startLine: 1,
      text: 'package a;\n\nimport java.util.List;',
    });
  });

  it("a type's declaration piece ends at its opening brace, on the header's line or below it", () => {
    const kAndR = parsed(
      ['/** Orders. */', 'public class Orders extends Base {', '    void load() {', '    }', '}'].join('\n'),
    );
    expect(typeHeaderPiece('Orders.java', kAndR, kAndR.types[0]!, meta)?.text).toBe(
      '/** Orders. */\npublic class Orders extends Base {',
    );
    const allman = parsed(
      ['public class Orders', '    implements Runnable', '{', '    public void run() { }', '}'].join('\n'),
    );
    expect(typeHeaderPiece('Orders.java', allman, allman.types[0]!, meta)?.text).toBe(
      'public class Orders\n    implements Runnable\n{',
    );
  });
});
