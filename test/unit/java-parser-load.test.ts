import { expect, it } from 'vitest';
import { loadJavaParser, parseJava } from '../../src/java/index.js';
import { parseStats } from '../../src/java/parse.js';

it('loads java-parser ahead of the first parse, once: the parse then pays no load', () => {
  loadJavaParser();
  const loaded = parseStats().parserLoadMs;
  loadJavaParser();
  expect(parseStats().parserLoadMs).toBe(loaded);

  const parsed = parseJava('class A { int one() { return 1; } }\n');
  expect(parsed.ok).toBe(true);
  expect(parseStats()).toMatchObject({ parses: 1, parserLoadMs: loaded });
});
