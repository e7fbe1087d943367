// `npm run bench [-- ARGS]`: the same as `mvnx bench ARGS`, from the built package.
import { run } from '../dist/cli/commands/bench.js';

try {
  process.exitCode = await run(process.argv.slice(2), { cwd: process.cwd(), env: process.env });
} catch (error) {
  process.stderr.write(`${error.name === 'MvnxError' ? '' : 'mvnx bench: '}${error.message}\n`);
  process.exitCode = error.exitCode ?? 2;
}
