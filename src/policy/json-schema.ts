/** schema.json, generated from the zod schema (scripts/write-schema.mjs writes it). */
import { z } from 'zod';
import { configSchema } from './schema.js';

export const SCHEMA_ID = 'https://unpkg.com/mvnx/schema.json';

export function buildJsonSchema(): Record<string, unknown> {
  // io "input": editors check what people write, where every defaulted field is optional.
  const generated = z.toJSONSchema(configSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: SCHEMA_ID, title: 'mvnx configuration', ...rest };
}
