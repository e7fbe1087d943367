// `npm run bench:prompt -- --project DIR --log FILE [--runs N] [--no-cache]`: how long building the
// first prompt of a failed build takes in a fresh process, cold (no `.mvnx/cache/java-parse`)
// and warm (the same files parsed by an earlier run), broken down into loading mvnx's modules,
// loading java-parser (its grammar is built when it loads), listing the tree, reading files,
// parsing, and the rest (context pieces, rendering). The load average is printed beside each
// figure: the machine may be shared, and the prompt's CPU time (what a quiet machine would take,
// roughly; before the cache, java-parser's load is counted in wall time only). DIR is the project as the failed build left it; FILE is
// that build's log (`mvn -o -B ... > FILE`); the diagnosis is read from them once, untimed.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const load = () => os.loadavg()[0].toFixed(1);

function parseArgs(argv) {
  const options = { project: undefined, log: undefined, runs: 3, cache: true, child: false };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === '--project') options.project = path.resolve(argv[++i]);
    else if (flag === '--log') options.log = path.resolve(argv[++i]);
    else if (flag === '--runs') options.runs = Number(argv[++i]);
    else if (flag === '--no-cache') options.cache = false;
    else if (flag === '--child') options.child = true;
    else throw new Error(`unknown argument ${flag} (use --project DIR --log FILE [--runs N] [--no-cache])`);
  }
  if (!options.project || !options.log) throw new Error('--project DIR and --log FILE are required');
  return options;
}

/** One prompt build in this (fresh) process; prints one JSON line. */
async function child(options) {
  const started = performance.now();
  const { diagnoseBuild } = await import(`${dist}/diagnose/index.js`);
  const diagnosis = await diagnoseBuild({ projectRoot: options.project, logFile: options.log, exitCode: 1 });
  const diagnosedAt = performance.now();
  // Before the parse cache existed, java-parser loaded with src/java: time it apart, first.
  let parserLoadMs = 0;
  if (!existsSync(`${dist}/codebase/parse-store.js`)) {
    const at = performance.now();
    await import('java-parser');
    parserLoadMs = performance.now() - at;
  }
  const modulesStart = performance.now();
  const java = await import(`${dist}/java/index.js`);
  const { configSchema, toPatchPolicy } = await import(`${dist}/policy/index.js`);
  const { promptWindow } = await import(`${dist}/model/index.js`);
  const { createSourceView, createTypeIndex } = await import(`${dist}/codebase/index.js`);
  const { buildPromptFor, renderPromptText } = await import(`${dist}/repair/model-proposer.js`);
  const cache = options.cache && java.useJavaParseCache ? await import(`${dist}/codebase/index.js`) : undefined;
  const modulesAt = performance.now();
  const config = configSchema.parse({});
  const view = createSourceView(options.project);
  const io = { listMs: 0, lists: 0, readMs: 0, reads: 0 };
  const timedIo =
    (kind, work) =>
    async (...args) => {
      const at = performance.now();
      try {
        return await work(...args);
      } finally {
        io[`${kind}Ms`] += performance.now() - at;
        io[`${kind}s`] += 1;
      }
    };
  const read = timedIo('read', (file) => view.read(file));
  if (cache) java.useJavaParseCache(cache.createParseCache(options.project));
  const buildAt = performance.now();
  // CPU time says what a quiet machine would take better than wall time on a loaded one.
  const cpuAt = process.cpuUsage();
  const prompt = await buildPromptFor(diagnosis, { files: [] }, [], {
    read: () => read,
    list: timedIo('list', (glob) => view.list(glob)),
    types: createTypeIndex({ projectRoot: options.project }),
    checker: { root: options.project, policy: toPatchPolicy(config) },
    editFormat: config.model.editFormat,
    contextTokens: promptWindow(config.model),
  });
  const text = renderPromptText(prompt);
  const builtAt = performance.now();
  const cpu = process.cpuUsage(cpuAt);
  const stats = java.javaParseStats?.() ?? {
    parses: undefined,
    parseMs: undefined,
    parserLoadMs: 0,
    cacheHits: undefined,
  };
  process.stdout.write(
    `${JSON.stringify({
      load: load(),
      diagnoseMs: Math.round(diagnosedAt - started),
      modulesMs: Math.round(modulesAt - modulesStart),
      parserLoadMs: Math.round(parserLoadMs + stats.parserLoadMs),
      promptMs: Math.round(builtAt - buildAt + (java.javaParseStats ? 0 : parserLoadMs)),
      promptCpuMs: Math.round((cpu.user + cpu.system) / 1000 + (java.javaParseStats ? 0 : parserLoadMs)),
      listMs: Math.round(io.listMs),
      reads: io.reads,
      readMs: Math.round(io.readMs),
      parses: stats.parses,
      parseMs: stats.parseMs === undefined ? undefined : Math.round(stats.parseMs),
      cacheHits: stats.cacheHits,
      promptChars: text.length,
      // Equal hashes: the same prompt, byte for byte (a change that only makes it faster must keep it).
      promptSha1: createHash('sha1').update(text).digest('hex').slice(0, 12),
    })}\n`,
  );
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.child) return child(options);
  const script = fileURLToPath(import.meta.url);
  const run = async (label) => {
    const args = [
      script,
      '--child',
      '--project',
      options.project,
      '--log',
      options.log,
      ...(options.cache ? [] : ['--no-cache']),
    ];
    const at = performance.now();
    const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
    const figures = JSON.parse(stdout.trim().split('\n').at(-1));
    console.log(`${label}: process ${Math.round(performance.now() - at)} ms; ${JSON.stringify(figures)}`);
  };
  for (let round = 1; round <= options.runs; round += 1) {
    await rm(path.join(options.project, '.mvnx', 'cache'), { recursive: true, force: true });
    await run(`round ${round} cold (load ${load()})`);
    await run(`round ${round} warm (load ${load()})`);
  }
}

await main();
