// `npm run bench:context [-- --cases a,b | --project DIR --bugs File.java:N,...] [--pieces] [--prompts DIR] [--out FILE]`:
// which context pieces the right fixes use. For every bench
// case with a known fix (fix.patch), the case's project is built as the user would (`mvn -o -B verify`, it fails),
// the failure is diagnosed, and the first prompt is built by the code the model proposer uses, with the default
// config. Each piece the packer took is judged against fix.patch (src/bench/context-use.ts): edited, referenced,
// the failing test's expectation, or unused. Prints a table per kind of piece, the prompt's tokens per case and
// whether the true fix's lines are in the prompt (src/bench/fix-coverage.ts); --out appends it as markdown. With
// --project, a real project's bugs (src/bench/project-bugs.ts, as bench:verify writes them) instead of the cases;
// --pieces lists every included piece with its use, --prompts writes each first prompt to DIR.
import { execa } from 'execa';
import { appendFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../dist');
const { loadBenchCases, materialiseCase } = await import(`${dist}/bench/cases.js`);
const { findProjectBugs } = await import(`${dist}/bench/project-bugs.js`);
const { sources } = await import('./verify-project.mjs');
const { fixShape, pieceKind, pieceUse, kindUse, formatKindUse } = await import(`${dist}/bench/context-use.js`);
const { fixCoverage } = await import(`${dist}/bench/fix-coverage.js`);
const { diagnoseBuild } = await import(`${dist}/diagnose/index.js`);
const { packContext } = await import(`${dist}/model/prompts/index.js`);
const { firstRepairPrompt } = await import(`${dist}/bench/rebuild-prompt.js`);
const { projectJavaIdentifiers } = await import(`${dist}/bench/harness.js`);
const { renderPromptText } = await import(`${dist}/repair/index.js`);

function parseArgs(argv) {
  const options = { cases: [], out: undefined, project: undefined, bugs: [], pieces: false, prompts: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === '--cases') options.cases = argv[++i].split(',').filter(Boolean);
    else if (flag === '--out') options.out = path.resolve(argv[++i]);
    else if (flag === '--pieces') options.pieces = true;
    else if (flag === '--prompts') options.prompts = path.resolve(argv[++i]);
    else if (flag === '--project') options.project = path.resolve(argv[++i]);
    else if (flag === '--bugs') options.bugs = argv[++i].split(',').filter(Boolean);
    else
      throw new Error(
        `unknown argument ${flag} (use [--cases a,b] [--project DIR --bugs File.java:N,...] [--pieces] [--prompts DIR] [--out FILE])`,
      );
  }
  return options;
}

/** Each included piece's marginal cost, as the packer counts it (lines already shown cost nothing again). */
function marginalTokens(included) {
  let before = 0;
  return included.map((_, index) => {
    const now = packContext(included.slice(0, index + 1), Number.MAX_SAFE_INTEGER).tokens;
    const cost = now - before;
    before = now;
    return cost;
  });
}

/** The failing build of the project at `root`, diagnosed; the first prompt built; each included piece judged. */
async function measurePrompt(name, root, patch, workDir) {
  const build = await execa('mvn', ['-o', '-B', 'verify'], {
    cwd: root,
    reject: false,
    stdin: 'ignore',
    all: true,
    env: { ...process.env, MAVEN_OPTS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' },
  });
  if (build.exitCode === 0) return { name, skipped: 'the build passes' };
  const logFile = path.join(workDir, 'build.log');
  await writeFile(logFile, build.all);
  const diagnosis = await diagnoseBuild({ projectRoot: root, logFile, exitCode: build.exitCode });
  if (!diagnosis.diagnostics.some((d) => d.fixable)) return { name, skipped: 'nothing fixable' };
  const prompt = await firstRepairPrompt(root, diagnosis.diagnostics);
  const shape = fixShape(patch);
  const costs = marginalTokens(prompt.pack.included);
  const pieces = prompt.pack.included.map((piece, index) => ({
    piece,
    use: pieceUse(piece, shape),
    tokens: costs[index],
  }));
  const text = renderPromptText(prompt);
  if (options.prompts) {
    await mkdir(options.prompts, { recursive: true });
    await writeFile(path.join(options.prompts, `${name.replace(/[^\w.-]+/g, '_')}.prompt.txt`), text);
  }
  const coverage = fixCoverage(patch, text, await projectJavaIdentifiers(root));
  return {
    name,
    pieces,
    promptTokens: prompt.tokens,
    contextTokens: prompt.pack.tokens,
    omitted: prompt.pack.omitted.length,
    fixInPrompt: coverage.complete,
    missing: coverage.items.filter((item) => !item.found).map((item) => `${item.kind}: ${item.text}`),
  };
}

async function measureCase(benchCase) {
  const patch = await readFile(path.join(benchCase.dir, 'fix.patch'), 'utf8').catch(() => undefined);
  if (patch === undefined) return undefined;
  const parent = await mkdtemp(path.join(os.tmpdir(), `mvnx-context-${benchCase.name}-`));
  try {
    const root = path.join(parent, benchCase.name);
    await materialiseCase(benchCase, root);
    return await measurePrompt(benchCase.name, root, patch, parent);
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

/** A real project's bug (src/bench/project-bugs.ts, as bench:verify writes it), named `File.java:line`; its right fix is the reply's diff. */
async function measureProjectBug(project, bug) {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'mvnx-context-project-'));
  try {
    const root = path.join(parent, path.basename(project));
    await cp(project, root, { recursive: true, filter: (src) => !/[\\/](target|\.mvnx)$/.test(src) });
    // `correct` and `broken` are the whole file's text.
    await writeFile(path.join(root, bug.file), bug.broken);
    const patch = /```diff\n([\s\S]*?)```/.exec(bug.replies.fix)?.[1];
    if (!patch) throw new Error(`${bug.file}:${bug.line}: the right fix's reply has no diff`);
    return await measurePrompt(`${bug.kind} (${bug.file.split('/').pop()}:${bug.line})`, root, patch, parent);
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
  const results = [];
  const work = [];
  if (options.project) {
    const bugs = findProjectBugs(await sources(options.project));
    for (const wanted of options.bugs) {
      const bug = bugs.find((b) => `${b.file.split('/').pop()}:${b.line}` === wanted);
      if (!bug)
        throw new Error(
          `--bugs: no bug at ${wanted} (there are: ${bugs.map((b) => `${b.file.split('/').pop()}:${b.line}`).join(', ')})`,
        );
      work.push(() => measureProjectBug(options.project, bug));
    }
  } else
    for (const benchCase of await loadBenchCases(path.join(here, 'cases'), options.cases))
      work.push(() => measureCase(benchCase));
  for (const measure of work) {
    const result = await measure();
    if (!result) continue;
    results.push(result);
    const line = result.skipped
      ? `${result.name}: skipped (${result.skipped})`
      : `${result.name}: prompt ~${result.promptTokens} tokens, code ${result.contextTokens}, ${result.pieces.length} pieces (${result.pieces.filter((p) => p.use === 'unused').length} unused, ${result.omitted} left out), fix in prompt: ${result.fixInPrompt ? 'yes' : `no (${result.missing.join('; ')})`}`;
    process.stderr.write(`${line}\n`);
    if (options.pieces && !result.skipped)
      for (const { piece, use, tokens } of result.pieces)
        process.stderr.write(
          `    ${use.padEnd(11)} ${String(tokens).padStart(5)}  ${pieceKind(piece)}  ${piece.label}${piece.path ? ` (${piece.path}:${piece.startLine})` : ''}\n`,
        );
  }
  const measured = results.filter((result) => !result.skipped);
  const table = formatKindUse(kindUse(measured));
  const sum = (values) => values.reduce((a, b) => a + b, 0);
  const totals = [
    `Cases measured: ${measured.length} (skipped: ${results.length - measured.length}).`,
    `Prompt tokens: ${sum(measured.map((r) => r.promptTokens))} in all, mean ${Math.round(sum(measured.map((r) => r.promptTokens)) / (measured.length || 1))}; code ${sum(measured.map((r) => r.contextTokens))}.`,
    `Code tokens in pieces the fix edited or referenced: ${sum(measured.flatMap((r) => r.pieces.filter((p) => p.use === 'edited' || p.use === 'referenced').map((p) => p.tokens)))}; the failing test's: ${sum(measured.flatMap((r) => r.pieces.filter((p) => p.use === 'expectation').map((p) => p.tokens)))}; unused: ${sum(measured.flatMap((r) => r.pieces.filter((p) => p.use === 'unused').map((p) => p.tokens)))}.`,
    `True fix in the first prompt: ${measured.filter((r) => r.fixInPrompt).length} of ${measured.length}${
      measured.some((r) => !r.fixInPrompt)
        ? ` (not: ${measured
            .filter((r) => !r.fixInPrompt)
            .map((r) => r.name)
            .join(', ')})`
        : ''
    }.`,
  ];
  process.stdout.write(`${totals.join('\n')}\n\n${table}\n`);
  if (options.out) {
    const perCase = [
      '| case | prompt tokens | code tokens | pieces | unused | fix in prompt |',
      '|---|---:|---:|---:|---:|---|',
      ...measured.map(
        (r) =>
          `| ${r.name} | ${r.promptTokens} | ${r.contextTokens} | ${r.pieces.length} | ${r.pieces.filter((p) => p.use === 'unused').length} | ${r.fixInPrompt ? 'yes' : 'no'} |`,
      ),
    ].join('\n');
    await appendFile(
      options.out,
      `\n## ${new Date().toISOString().slice(0, 16)}Z (load ${os.loadavg()[0].toFixed(1)})\n\n${totals.join('\n')}\n\n${table}\n\n${perCase}\n`,
    );
  }
} catch (error) {
  // A bad argument or an unknown bug is one line, not a stack.
  process.stderr.write(`bench:context: ${error.message}\n`);
  process.exitCode = 2;
}
