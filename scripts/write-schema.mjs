// Writes schema.json from the zod schema in src/policy/schema.ts (via dist/). Run: npm run schema
import { writeFile } from 'node:fs/promises';
import { buildJsonSchema } from '../dist/policy/json-schema.js';

const target = new URL('../schema.json', import.meta.url);
await writeFile(target, `${JSON.stringify(buildJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
