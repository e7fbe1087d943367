/**
 * The bench of breaking dependency updates (`mvnx bench --dep-updates`): each case under
 * `bench/dep-updates/<name>/` is a small client compiled against the old version of a
 * library, committed in git, then bumped in its POM (a literal version, a property or
 * dependencyManagement). The library is a real one of ~/.m2 (guava) or the synthetic
 * `mvnxbench:shapes` (`bench/dep-updates/_lib/<version>/`, compiled here and installed in a
 * private local repository that links everything else from ~/.m2). mvnx runs once against
 * the scripted server with the case's replies, and once against a server with no replies
 * when the first run asked the model (a run that asked none is the no-model run already).
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { MvnxError } from '../shared/errors.js';
import type { RunRecord } from '../report/run-record.js';
import { parseRunRecordFromStdout } from './harness.js';
import { SCRIPTED_MODEL, startScriptedOllama } from './scripted-ollama.js';
import { dependencyUpdatePiece } from '../repair/index.js';

export interface DepUpdateCase {
  name: string;
  dir: string;
  description: string;
  dependency: { groupId: string; artifactId: string; from: string; to: string };
  versionStyle: 'literal' | 'property' | 'managed';
  shape: string;
  source: 'real' | 'synthetic';
  /** Whether a quick-fix (no model) is expected to fix it. */
  quickFix: boolean;
  /** Text the true fix writes: the replacement the first prompt must name. */
  fix: string;
  replies: string[];
  junit: boolean;
  /** Several bumps at once (grouped, BOM): each with the files whose errors must be attributed to it. */
  updates?: { groupId: string; artifactId: string; from: string; to: string; files: string[] }[];
  /** The BOM or parent bump the record must name (`bom g:a 1.0 -> 2.0`). */
  via?: string;
  /** `own`: the client ships `pom.old.xml`/`pom.new.xml` (any folder) instead of the rendered POM. */
  poms?: 'own';
  /** Text the first prompt must hold besides the fix (a changelog line, an @deprecated text). */
  promptHas?: string[];
}

export interface DepUpdateRun {
  diagnosed: boolean;
  coordinatesRight: boolean;
  fixed: boolean;
  modelCalls: number;
  status?: string;
  fixers: string[];
  patternSites: number;
  /** Files the verified fix changed. */
  filesChanged: number;
  /** Wall time of the mvnx run (build, repair, verification). */
  seconds: number;
}

export interface DepUpdateResult {
  name: string;
  source: DepUpdateCase['source'];
  shape: string;
  /** API-difference lines in the first prompt (rebuilt from the record when no model was asked). */
  diffLines: number;
  /** The replacement the true fix uses appears in that prompt. */
  fixInPrompt: boolean;
  scripted: DepUpdateRun;
  noModel: DepUpdateRun;
  error?: string;
}

const SYNTHETIC_GROUP = 'mvnxbench';
const SYNTHETIC_ARTIFACT = 'shapes';

export async function loadDepUpdateCases(dir: string, only: string[] = []): Promise<DepUpdateCase[]> {
  if (!existsSync(dir)) throw new MvnxError(`mvnx bench: no dependency-update cases at ${dir}`);
  const names = (await readdir(dir))
    .filter((name) => !name.startsWith('_') && existsSync(path.join(dir, name, 'case.json')))
    .sort();
  const cases: DepUpdateCase[] = [];
  for (const name of names) {
    if (only.length > 0 && !only.includes(name)) continue;
    const raw = JSON.parse(await readFile(path.join(dir, name, 'case.json'), 'utf8')) as Omit<
      DepUpdateCase,
      'name' | 'dir'
    >;
    if (!raw.dependency?.from || !raw.dependency.to || !raw.fix)
      throw new MvnxError(`${path.join(dir, name, 'case.json')}: needs dependency.from, dependency.to and fix`);
    cases.push({ ...raw, replies: raw.replies ?? [], name, dir: path.join(dir, name) });
  }
  return cases;
}

/** A private local repository: every entry of ~/.m2 linked, plus the synthetic library built from `_lib`. */
export async function prepareRepository(
  casesDir: string,
  into: string,
  userRepository = path.join(homedir(), '.m2', 'repository'),
): Promise<string> {
  const repository = path.join(into, 'repository');
  await mkdir(repository, { recursive: true });
  for (const entry of await readdir(userRepository))
    if (entry !== SYNTHETIC_GROUP) await symlink(path.join(userRepository, entry), path.join(repository, entry));
  // BOMs and parents of the cases: `_boms/*.pom`, installed at their own coordinates.
  const bomDir = path.join(casesDir, '_boms');
  for (const file of existsSync(bomDir) ? await readdir(bomDir) : []) {
    if (!file.endsWith('.pom')) continue;
    const text = await readFile(path.join(bomDir, file), 'utf8');
    const field = (name: string) => new RegExp(`^  <${name}>([^<]+)</${name}>`, 'm').exec(text)?.[1];
    const [groupId, artifactId, version] = [field('groupId'), field('artifactId'), field('version')];
    if (!groupId || !artifactId || !version) throw new MvnxError(`${path.join(bomDir, file)}: no coordinates`);
    const target = path.join(repository, ...groupId.split('.'), artifactId, version);
    await mkdir(target, { recursive: true });
    await writeFile(path.join(target, `${artifactId}-${version}.pom`), text);
  }
  const libDir = path.join(casesDir, '_lib');
  for (const version of existsSync(libDir) ? await readdir(libDir) : []) {
    const sources = path.join(libDir, version);
    const classes = path.join(into, 'build', version);
    const files = (await readdir(sources, { recursive: true }))
      .filter((file) => file.endsWith('.java'))
      .map((file) => path.join(sources, file));
    await execa('javac', ['--release', '17', '-d', classes, ...files]);
    const target = path.join(repository, SYNTHETIC_GROUP, SYNTHETIC_ARTIFACT, version);
    await mkdir(target, { recursive: true });
    const base = path.join(target, `${SYNTHETIC_ARTIFACT}-${version}`);
    await execa('jar', ['cf', `${base}.jar`, '-C', classes, '.']);
    await execa('jar', ['cf', `${base}-sources.jar`, '-C', sources, '.']);
    await writeFile(
      `${base}.pom`,
      `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>${SYNTHETIC_GROUP}</groupId>\n  <artifactId>${SYNTHETIC_ARTIFACT}</artifactId>\n  <version>${version}</version>\n</project>\n`,
    );
  }
  return repository;
}

/** The client's POM at one version of the library, in the case's version style. */
export function renderClientPom(benchCase: DepUpdateCase, version: string): string {
  const { groupId, artifactId } = benchCase.dependency;
  const property = `${artifactId}.version`;
  const written =
    benchCase.versionStyle === 'literal'
      ? `\n      <version>${version}</version>`
      : benchCase.versionStyle === 'property'
        ? `\n      <version>\${${property}}</version>`
        : '';
  const managed =
    benchCase.versionStyle === 'managed'
      ? `\n  <dependencyManagement>\n    <dependencies>\n      <dependency>\n        <groupId>${groupId}</groupId>\n        <artifactId>${artifactId}</artifactId>\n        <version>${version}</version>\n      </dependency>\n    </dependencies>\n  </dependencyManagement>\n`
      : '';
  const junit = benchCase.junit
    ? `\n    <dependency>\n      <groupId>org.junit.jupiter</groupId>\n      <artifactId>junit-jupiter</artifactId>\n      <version>5.10.2</version>\n      <scope>test</scope>\n    </dependency>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId>
  <artifactId>${benchCase.name}</artifactId>
  <version>1.0.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>${benchCase.versionStyle === 'property' ? `\n    <${property}>${version}</${property}>` : ''}
  </properties>${managed}
  <dependencies>
    <dependency>
      <groupId>${groupId}</groupId>
      <artifactId>${artifactId}</artifactId>${written}
    </dependency>${junit}
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin><artifactId>maven-clean-plugin</artifactId><version>3.3.2</version></plugin>
        <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
        <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
        <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
        <plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin>
        <plugin><artifactId>maven-install-plugin</artifactId><version>3.1.2</version></plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
`;
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.invalid',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.invalid',
};

/** The client at the old version, committed, then bumped: the tree a Dependabot pull request leaves. */
export async function materialiseDepUpdateCase(benchCase: DepUpdateCase, root: string): Promise<void> {
  await cp(path.join(benchCase.dir, 'client'), root, { recursive: true });
  const own =
    benchCase.poms === 'own'
      ? (await readdir(root, { recursive: true })).filter((file) => path.basename(file) === 'pom.old.xml')
      : [];
  const bumped = new Map<string, string>();
  for (const file of own) {
    const folder = path.join(root, path.dirname(file));
    await writeFile(path.join(folder, 'pom.xml'), await readFile(path.join(folder, 'pom.old.xml')));
    bumped.set(path.join(folder, 'pom.xml'), await readFile(path.join(folder, 'pom.new.xml'), 'utf8'));
    await rm(path.join(folder, 'pom.old.xml'));
    await rm(path.join(folder, 'pom.new.xml'));
  }
  if (benchCase.poms !== 'own')
    await writeFile(path.join(root, 'pom.xml'), renderClientPom(benchCase, benchCase.dependency.from));
  const git = (...args: string[]) => execa('git', args, { cwd: root, env: GIT_ENV });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'client at the old version');
  if (benchCase.poms !== 'own')
    await writeFile(path.join(root, 'pom.xml'), renderClientPom(benchCase, benchCase.dependency.to));
  for (const [file, text] of bumped) await writeFile(file, text);
}

/** Every expected bump is in the record with its versions, and every error of its files is attributed to it. */
export function attributionRight(update: RunRecord['dependencyUpdate'], benchCase: DepUpdateCase): boolean {
  if (!update) return false;
  if (benchCase.via !== undefined && update.via !== benchCase.via) return false;
  if (!benchCase.updates) return true;
  return benchCase.updates.every((expected) => {
    const label = `${expected.groupId}:${expected.artifactId} ${expected.from} -> ${expected.to}`;
    const entry = update.updates?.find((u) => u.groupId === expected.groupId && u.artifactId === expected.artifactId);
    const sites = update.differences.filter((d) => expected.files.some((file) => d.site.startsWith(`${file}:`)));
    return (
      entry !== undefined &&
      entry.from === expected.from &&
      entry.to === expected.to &&
      sites.length > 0 &&
      sites.every((d) => d.dependency === label)
    );
  });
}

function runOf(record: RunRecord | undefined, benchCase: DepUpdateCase, seconds: number): DepUpdateRun {
  const update = record?.dependencyUpdate;
  const { groupId, artifactId, from, to } = benchCase.dependency;
  return {
    diagnosed: update !== undefined,
    coordinatesRight:
      update !== undefined &&
      update.groupId === groupId &&
      update.artifactId === artifactId &&
      update.from === from &&
      update.to === to &&
      attributionRight(update, benchCase),
    fixed: record?.status === 'fixed',
    modelCalls: record?.modelCalls ?? 0,
    ...(record?.status ? { status: record.status } : {}),
    fixers: (record?.attempts ?? [])
      .filter((attempt) => attempt.outcome === 'verified' || attempt.outcome === 'build-failed')
      .map((attempt) => attempt.fixer ?? attempt.source),
    patternSites: (update?.patterns ?? []).reduce((sum, pattern) => sum + pattern.sites.length, 0),
    filesChanged: record?.attempts.find((attempt) => attempt.outcome === 'verified')?.filesChanged.length ?? 0,
    seconds,
  };
}

export async function runDepUpdateCase(
  benchCase: DepUpdateCase,
  mvnxBin: string,
  repository: string,
  replies: string[],
): Promise<{ record?: RunRecord; prompt?: string; seconds: number }> {
  const parent = await mkdtemp(path.join(tmpdir(), `mvnx-dep-${benchCase.name}-`));
  const root = path.join(parent, benchCase.name);
  const server = await startScriptedOllama(replies);
  try {
    await materialiseDepUpdateCase(benchCase, root);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CI: 'true',
      MAVEN_OPTS: process.env.MAVEN_OPTS ?? '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC',
    };
    delete env.MVNX_HOST;
    delete env.OLLAMA_HOST;
    // The private repository links into ~/.m2 from a temp folder a bwrap sandbox does not bind: the bench's own cases
    // verify unsandboxed.
    const args = [
      mvnxBin,
      '-o',
      '-q',
      'verify',
      `-Dmaven.repo.local=${repository}`,
      '--mvnx-sandbox=none',
      '--mvnx-tier=monitor',
      '--mvnx-json',
      `--mvnx-host=${server.url}`,
      `--mvnx-model=${SCRIPTED_MODEL}`,
    ];
    const started = performance.now();
    const result = await execa('node', args, { cwd: root, env, reject: false, timeout: 15 * 60_000, stdin: 'ignore' });
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const record = parseRunRecordFromStdout(result.stdout);
    const promptFile = record ? path.join(root, '.mvnx', 'runs', record.runId, 'attempt-1.prompt.txt') : undefined;
    const prompt =
      promptFile && existsSync(promptFile)
        ? await readFile(promptFile, 'utf8')
        : record?.dependencyUpdate
          ? dependencyUpdatePiece(record.dependencyUpdate).text
          : undefined;
    return { ...(record ? { record } : {}), ...(prompt ? { prompt } : {}), seconds };
  } finally {
    await server.close();
    await rm(parent, { recursive: true, force: true });
  }
}

/** `- `, `+ `, `~ `, `? ` lines of the dependency section: the API difference the model read. */
export function diffLinesIn(prompt: string | undefined): number {
  return (prompt ?? '')
    .split('\n')
    .filter((line) =>
      /^(?:- removed|\+ added|~ |\? candidate| {2}kept:|- no class|\S+: no change| {2}[-+~] )/.test(line),
    ).length;
}

export async function runDepUpdateBench(options: {
  casesDir: string;
  cases: DepUpdateCase[];
  mvnxBin: string;
  onProgress?(line: string): void;
}): Promise<DepUpdateResult[]> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-dep-repo-'));
  try {
    const repository = await prepareRepository(options.casesDir, scratch);
    const results: DepUpdateResult[] = [];
    for (const benchCase of options.cases) {
      options.onProgress?.(`${benchCase.name}: scripted`);
      const scripted = await runDepUpdateCase(benchCase, options.mvnxBin, repository, benchCase.replies);
      const scriptedRun = runOf(scripted.record, benchCase, scripted.seconds);
      let noModelRun = scriptedRun;
      if (scriptedRun.modelCalls > 0 || !scriptedRun.fixed) {
        options.onProgress?.(`${benchCase.name}: no model (a server with no replies)`);
        const bare = await runDepUpdateCase(benchCase, options.mvnxBin, repository, []);
        noModelRun = runOf(bare.record, benchCase, bare.seconds);
      }
      results.push({
        name: benchCase.name,
        source: benchCase.source,
        shape: benchCase.shape,
        diffLines: diffLinesIn(scripted.prompt),
        fixInPrompt: [benchCase.fix, ...(benchCase.promptHas ?? [])].every((text) =>
          (scripted.prompt ?? '').includes(text),
        ),
        scripted: scriptedRun,
        noModel: { ...noModelRun, fixed: noModelRun.fixed && noModelRun.modelCalls === 0 },
        ...(scripted.record ? {} : { error: 'no run record on stdout' }),
      });
    }
    return results;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export function formatDepUpdateTable(results: DepUpdateResult[]): string {
  const yes = (value: boolean) => (value ? 'yes' : 'no');
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.source} | ${r.shape} | ${yes(r.scripted.diagnosed)}${r.scripted.diagnosed && !r.scripted.coordinatesRight ? ' (wrong coordinates)' : ''} | ${r.diffLines} | ${yes(r.fixInPrompt)} | ${yes(r.noModel.fixed)} | ${yes(r.scripted.fixed)} | ${r.scripted.modelCalls} | ${r.scripted.fixers.join(', ') || '-'} | ${r.scripted.patternSites} | ${r.scripted.filesChanged} | ${r.scripted.seconds}${r.noModel === r.scripted || r.noModel.seconds === r.scripted.seconds ? '' : ` / ${r.noModel.seconds}`} |`,
  );
  const count = (pick: (r: DepUpdateResult) => boolean) => results.filter(pick).length;
  return [
    '| case | library | shape | diagnosed as dep update | API-diff lines in prompt | fix in prompt | fixed, no model | fixed, scripted | model calls | fixed by | pattern sites | files changed | seconds (scripted / no model) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    `| **total ${results.length}** | | | ${count((r) => r.scripted.coordinatesRight)} | | ${count((r) => r.fixInPrompt)} | ${count((r) => r.noModel.fixed)} | ${count((r) => r.scripted.fixed)} | ${results.reduce((s, r) => s + r.scripted.modelCalls, 0)} | | | | |`,
  ].join('\n');
}
