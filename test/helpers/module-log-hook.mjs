// Registered with `node --import`: appends every resolved module URL that names
// @opentelemetry (or contains MVNX_TEST_MODULE_MATCH, when set: '' logs every module) to the
// file in MVNX_TEST_MODULE_LOG, so a test can see what loaded.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.MVNX_TEST_MODULE_LOG && result.url.includes(process.env.MVNX_TEST_MODULE_MATCH ?? '@opentelemetry')) appendFileSync(process.env.MVNX_TEST_MODULE_LOG, result.url + '\\n');
  return result;
}`),
);
