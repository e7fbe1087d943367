import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(repoRoot, 'dist/vendor/java-parser.mjs');

// Current syntax the prompt's files may hold: records, sealed types, pattern switches,
// text blocks, lambdas and method references, generics, annotations, a module-less unit.
const SOURCES = [
  `package com.acme;\n\nimport java.util.*;\nimport static java.util.Objects.requireNonNull;\n\n@SuppressWarnings("unchecked")\npublic sealed interface Shape permits Circle, Square {\n  double area();\n  static <T extends Comparable<? super T>> T max(List<T> items) { return items.stream().max(Comparator.naturalOrder()).orElseThrow(); }\n}\nrecord Circle(double r) implements Shape { public double area() { return Math.PI * r * r; } }\nrecord Square(double side) implements Shape {\n  Square { if (side < 0) throw new IllegalArgumentException("side " + side); }\n  public double area() { return side * side; }\n}\n`,
  `class Text {\n  String describe(Object o) {\n    return switch (o) {\n      case Integer i when i > 10 -> "big " + i;\n      case String s -> """\n          text: %s\n          """.formatted(s);\n      default -> { yield o == null ? "null" : o.toString(); }\n    };\n  }\n  Runnable later(int[] xs) { return () -> { for (int x : xs) { if (x % 2 == 0) continue; System.out.println(x); } }; }\n  java.util.function.Function<String, Integer> len = String::length;\n}\n`,
  // A file that does not parse: the same error either way.
  'class Broken {\n  void run( {\n}\n',
];

/** The tree's shape and every token: equal digests, the same parse. */
function digest(result: { cst: unknown; tokens: unknown[] }): string {
  const hash = createHash('sha1');
  const visit = (node: {
    image?: string;
    startOffset?: number;
    name?: string;
    children?: Record<string, unknown[]>;
  }) => {
    if (node.image !== undefined) {
      hash.update(`T${node.image}@${node.startOffset};`);
      return;
    }
    hash.update(`N${node.name}[`);
    for (const key of Object.keys(node.children ?? {}).sort()) {
      hash.update(`${key}:`);
      for (const child of node.children![key]!) visit(child as typeof node);
    }
    hash.update(']');
  };
  visit(result.cst as Parameters<typeof visit>[0]);
  hash.update(String(result.tokens.length));
  return hash.digest('hex');
}

function outcome(lexAndParse: (text: string) => { cst: unknown; tokens: unknown[] }, text: string): string {
  try {
    return digest(lexAndParse(text));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

it('the build bundles java-parser into one file that parses exactly as the package does', async () => {
  expect(existsSync(bundle), 'run npm run build first').toBe(true);
  type Parser = { lexAndParse: (text: string) => { cst: unknown; tokens: unknown[] } };
  const bundled = (await import(pathToFileURL(bundle).href)) as Parser;
  const packaged = (await import('java-parser')) as unknown as Parser;
  // Every Java file of this repository too (the fixtures), whatever they hold.
  const fixtures = (await promisify(execFile)('git', ['ls-files', '*.java'], { cwd: repoRoot })).stdout
    .split('\n')
    .filter(Boolean);
  const texts = [
    ...SOURCES,
    ...(await Promise.all(fixtures.map((file) => readFile(path.join(repoRoot, file), 'utf8')))),
  ];
  expect(texts.length).toBeGreaterThan(20);
  for (const text of texts) expect(outcome(bundled.lexAndParse, text)).toBe(outcome(packaged.lexAndParse, text));
  expect(outcome(bundled.lexAndParse, SOURCES[2]!)).toMatch(/^error: /);
});

it("mvnx's built parser loads the bundle, not the package's few hundred modules", async () => {
  // A fresh process: this test file's own imports must not have loaded java-parser already.
  const script = `const m = await import(${JSON.stringify(pathToFileURL(path.join(repoRoot, 'dist/java/parse.js')).href)}); m.loadJavaParser(); const parsed = m.parseJava('class A { int one() { return 1; } }'); process.stdout.write(JSON.stringify({ ok: parsed.ok, ...m.parseStats() }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: repoRoot,
  });
  expect(JSON.parse(stdout)).toMatchObject({ ok: true, parses: 1, parserFrom: 'bundle' });
});
