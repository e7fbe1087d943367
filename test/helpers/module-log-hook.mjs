// Registered with `node --import`: appends every resolved module URL that names
// @opentelemetry to the file in MVNX_TEST_MODULE_LOG, so a test can see what loaded.
import { register } from 'node:module';

register('data:text/javascript,' + encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.MVNX_TEST_MODULE_LOG && result.url.includes('@opentelemetry')) appendFileSync(process.env.MVNX_TEST_MODULE_LOG, result.url + '\\n');
  return result;
}`));
