/** Gathers what `mvnx doctor` judges: each probe runs the real tool or request and reports, never throws. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { normaliseHost } from '../../../shared/host.js';
import { searchPath } from '../../../shared/path-search.js';
import type { OptionValues } from '../../../shared/options.js';
import { findMaven, MAVEN_SOURCE_LABELS, MavenNotFoundError } from '../../../maven/discover.js';
import { findProjectRootAbove } from '../../../maven/project.js';
import { describeWrapperFailure, wrapperDistribution } from '../../../maven/wrapper.js';
import { projectJavaRelease, resolveMavenUserState } from '../../../maven/settings.js';
import { parsePomProject, pomPlugins } from '../../../maven/pom.js';
import { buildEnvironment, detectSandbox, suggestedImage, type SandboxMode } from '../../../workspace/index.js';
import { loadPlugins } from '../../../app/plugin-loading.js';
import { splitCommandLine } from '../../../policy/command-line.js';
import { findProgram } from '../../../workspace/command.js';
import { loadEffectiveConfig } from '../../../policy/load.js';
import type { DoctorFacts, PluginPin, Probe } from './checks.js';
import { createProvider } from '../../../model/index.js';
import type { EffectiveConfig } from '../../../policy/schema.js';
import { modelSettings } from '../../../app/model-settings.js';

const DEFAULT_HOST = 'http://127.0.0.1:11434';
const DEFAULT_MODEL = 'qwen2.5-coder:7b';
const HTTP_TIMEOUT_MS = 2000;

function failure(error: unknown): { ok: false; error: string } {
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, error: message.split('\n')[0] ?? message };
}

/** `openjdk version "17.0.15" 2025-04-15` -> `17.0.15`. */
export function parseJavaVersion(output: string): string | undefined {
  return /version "([^"]+)"/.exec(output)?.[1];
}

/** `Apache Maven 3.8.7` -> `3.8.7`, ANSI codes and all. */
export function parseMavenVersion(output: string): string | undefined {
  return /Apache Maven (\d[\w.-]*)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''))?.[1];
}

async function probeJava(env: NodeJS.ProcessEnv): Promise<DoctorFacts['java']> {
  const command = env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', 'java') : (searchPath('java', env) ?? 'java');
  try {
    const result = await execa(command, ['-version'], { env, reject: false, timeout: 20_000, all: true });
    const version = parseJavaVersion(result.all ?? '');
    if (result.exitCode !== 0 || !version)
      return { ok: false, error: `${command} -version failed${result.all ? `: ${result.all.split('\n')[0]}` : ''}` };
    return { ok: true, value: { command, version } };
  } catch (error) {
    return failure(error);
  }
}

/** The Maven the build would run (`findMaven`: --mvnx-maven, MVNX_MAVEN, config, nearest mvnw, mvn on PATH). */
async function probeMaven(
  cwd: string,
  env: NodeJS.ProcessEnv,
  flags: OptionValues,
  configured: string | undefined,
): Promise<DoctorFacts['maven']> {
  try {
    const found = await findMaven({
      ...(typeof flags.maven === 'string' ? { flag: flags.maven } : {}),
      env,
      ...(configured ? { configured } : {}),
      cwd,
      mavenArgs: [],
    });
    return { ok: true, value: { path: found.executable, source: MAVEN_SOURCE_LABELS[found.source] } };
  } catch (error) {
    if (!(error instanceof MavenNotFoundError)) return failure(error);
    if (error.named)
      return { ok: false, error: `${error.named.label} names ${error.named.value}, which is not an executable file` };
    return {
      ok: false,
      error:
        'not found: searched --mvnx-maven, MVNX_MAVEN, config maven.executable, mvnw from the working folder up, mvn on PATH',
    };
  }
}

async function probeMavenVersion(
  maven: string,
  source: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Probe<string>> {
  try {
    const result = await execa(maven, ['-v', '-B'], { cwd, env, reject: false, timeout: 60_000, all: true });
    const version = parseMavenVersion(result.all ?? '');
    if (version && result.exitCode === 0) return { ok: true, value: version };
    // The project's wrapper that cannot fetch its Maven offline: the same line a failed build prints.
    const distribution = wrapperDistribution(maven);
    const wrapperLine =
      source === MAVEN_SOURCE_LABELS.mvnw
        ? describeWrapperFailure({
            wrapper: maven,
            cwd,
            exitCode: result.exitCode ?? 1,
            output: result.all ?? '',
            ...(distribution ? { distribution } : {}),
          })
        : undefined;
    return { ok: false, error: wrapperLine ?? `${maven} -v exited ${result.exitCode} without a version` };
  } catch (error) {
    return failure(error);
  }
}

/**
 * Plugins with a literal (or property-resolved) version in a pom's build and pluginManagement sections (maven/pom.ts).
 */
export function pinnedPlugins(pomXml: string): Omit<PluginPin, 'present'>[] {
  const project = parsePomProject(pomXml);
  const pins = new Map<string, Omit<PluginPin, 'present'>>();
  for (const { groupId, artifactId, version } of project ? pomPlugins(project) : []) {
    if (!version || version.includes('${')) continue;
    pins.set(`${groupId}:${artifactId}:${version}`, { groupId, artifactId, version });
  }
  return [...pins.values()];
}

async function probeOffline(projectRoot: string, env: NodeJS.ProcessEnv): Promise<DoctorFacts['offline']> {
  // The one resolver the build uses: settings.xml <localRepository>, -Dmaven.repo.local in MAVEN_OPTS or
  // .mvn/maven.config.
  const { localRepository } = resolveMavenUserState({ args: [], env, cwd: projectRoot, projectRoot });
  const pom = await readFile(path.join(projectRoot, 'pom.xml'), 'utf8').catch(() => undefined);
  const plugins = (pom ? pinnedPlugins(pom) : []).map((pin) => ({
    ...pin,
    present: existsSync(
      path.join(
        localRepository,
        ...pin.groupId.split('.'),
        pin.artifactId,
        pin.version,
        `${pin.artifactId}-${pin.version}.jar`,
      ),
    ),
  }));
  return { localRepository, repositoryExists: existsSync(localRepository), pomFound: pom !== undefined, plugins };
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
  return response.json();
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  if ((error as Error)?.name === 'TimeoutError') return `no answer within ${HTTP_TIMEOUT_MS / 1000} s`;
  return cause ?? (error as Error)?.message ?? String(error);
}

async function probeModel(host: string, name: string): Promise<DoctorFacts['model']> {
  const base = host.replace(/\/+$/, '');
  let version: Probe<string>;
  try {
    const body = (await getJson(`${base}/api/version`)) as { version?: unknown };
    version =
      typeof body?.version === 'string'
        ? { ok: true, value: body.version }
        : { ok: false, error: `${base}/api/version did not answer with a version` };
  } catch (error) {
    return { host, name, version: { ok: false, error: describeFetchError(error) } };
  }
  if (!version.ok) return { host, name, version };
  try {
    const body = (await getJson(`${base}/api/tags`)) as { models?: { name?: unknown }[] };
    if (!Array.isArray(body?.models))
      return { host, name, version, models: { ok: false, error: '/api/tags did not list models' } };
    return { host, name, version, models: { ok: true, value: body.models.map((m) => String(m?.name)) } };
  } catch (error) {
    return { host, name, version, models: { ok: false, error: describeFetchError(error) } };
  }
}

/** A provider that is not Ollama, checked by its own health check. */
async function probeProvider(config: EffectiveConfig, env: NodeJS.ProcessEnv): Promise<DoctorFacts['model']> {
  const settings = modelSettings(config, env);
  const base = { host: config.model.host, name: config.model.name, provider: settings.provider };
  try {
    await createProvider(settings).healthCheck();
    return { ...base, version: { ok: true, value: settings.provider }, models: { ok: true, value: [settings.name] } };
  } catch (error) {
    return { ...base, version: failure(error) as Probe<string> };
  }
}

/**
 * Exactly the probe a build runs (detectSandbox with the config's mode and image), and the environment it would pass.
 */
async function probeSandbox(input: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  projectRoot: string;
  mode: SandboxMode;
  modeSource: string;
  image?: string;
  pass: string[];
}): Promise<DoctorFacts['sandbox']> {
  const pom = await readFile(path.join(input.projectRoot, 'pom.xml'), 'utf8').catch(() => '');
  const image = input.image ?? suggestedImage(projectJavaRelease(pom));
  const { env, dropped } = buildEnvironment(input.env, input.pass);
  const localRepository = resolveMavenUserState({
    args: [],
    env: input.env,
    cwd: input.cwd,
    projectRoot: input.projectRoot,
  }).localRepository;
  let probe: DoctorFacts['sandbox']['probe'];
  try {
    const info = await detectSandbox(input.mode, { image, env: input.env });
    probe = {
      ok: true,
      value: {
        kind: info.kind,
        isolated: info.isolated,
        available: info.available,
        ...(info.reason ? { reason: info.reason } : {}),
        tried: info.tried,
      },
    };
  } catch (error) {
    probe = failure(error);
  }
  return {
    mode: input.mode,
    modeSource: input.modeSource,
    image,
    imageSuggested: input.image === undefined,
    probe,
    env: { passed: Object.keys(env).sort(), dropped },
    localRepository,
  };
}

async function probePlugins(specifiers: string[], projectRoot: string): Promise<NonNullable<DoctorFacts['plugins']>> {
  try {
    const loaded = await loadPlugins(specifiers, { projectRoot });
    const summaries = loaded.plugins.map(({ plugin }) => {
      const parts = [
        `${plugin.fixers?.length ?? 0} fixer(s)`,
        `${plugin.reporters?.length ?? 0} reporter(s)`,
        `${plugin.tools?.length ?? 0} tool(s)`,
        `${plugin.parsers?.length ?? 0} parser(s)`,
      ];
      return `${plugin.name}${plugin.version ? ` ${plugin.version}` : ''} (${parts.join(', ')})`;
    });
    return { ok: true, value: { summaries, notes: loaded.notes } };
  } catch (error) {
    return failure(error);
  }
}

const STARTUP_SAMPLES = 7;

/**
 * What NODE_EXTRA_CA_CERTS costs this node at start-up: the median difference of
 * interleaved `node -e 0` runs with and without it. Node 20 reads the file before any
 * JavaScript runs, so only a fresh process shows the cost.
 */
async function probeStartup(env: NodeJS.ProcessEnv): Promise<DoctorFacts['startup']> {
  const extraCaCerts = env.NODE_EXTRA_CA_CERTS;
  if (extraCaCerts === undefined) return {};
  const { NODE_EXTRA_CA_CERTS: _measured, ...without } = env;
  const timeNode = async (childEnv: NodeJS.ProcessEnv) => {
    const started = process.hrtime.bigint();
    const result = await execa(process.execPath, ['-e', '0'], {
      env: childEnv,
      extendEnv: false,
      reject: false,
      timeout: 10_000,
    });
    if (result.exitCode !== 0) throw new Error(`node -e 0 exited ${result.exitCode}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  try {
    const differences: number[] = [];
    for (let i = 0; i < STARTUP_SAMPLES; i++) differences.push((await timeNode(env)) - (await timeNode(without)));
    differences.sort((a, b) => a - b);
    return { extraCaCerts, extraCaCertsCostMs: { ok: true, value: differences[Math.floor(STARTUP_SAMPLES / 2)]! } };
  } catch (error) {
    return { extraCaCerts, extraCaCertsCostMs: failure(error) };
  }
}

export interface GatherOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  flags: OptionValues;
  configFile?: string;
}

export async function gatherFacts(options: GatherOptions): Promise<DoctorFacts> {
  const { cwd, env, flags } = options;
  const projectRoot = await findProjectRootAbove(cwd);
  let config: DoctorFacts['config'];
  let host = (typeof flags.host === 'string' && flags.host) || env.MVNX_HOST || env.OLLAMA_HOST || DEFAULT_HOST;
  let modelName = (typeof flags.model === 'string' && flags.model) || env.MVNX_MODEL || DEFAULT_MODEL;
  let configuredMaven: string | undefined;
  let providerCheck: (() => Promise<DoctorFacts['model']>) | undefined;
  let plugins: DoctorFacts['plugins'];
  let commandTools: DoctorFacts['commandTools'];
  let sandboxConfig: { mode: SandboxMode; modeSource: string; image?: string; pass: string[] } = {
    mode: 'auto',
    modeSource: 'default',
    pass: [],
  };
  try {
    const effective = await loadEffectiveConfig({
      projectRoot,
      ...(options.configFile ? { configFile: options.configFile } : {}),
      env,
      overrides: flags,
    });
    config = { ok: true, value: { tier: effective.tier, files: [...effective.files] } };
    host = effective.model.host;
    modelName = effective.model.name;
    // Not Ollama: the provider's own health check (GET /v1/models and the model in it), as a repair runs it.
    if (effective.model.provider !== 'ollama') providerCheck = () => probeProvider(effective, env);
    configuredMaven = effective.maven.executable;
    sandboxConfig = {
      mode: effective.sandbox.mode,
      modeSource: effective.sources['sandbox.mode'] ?? 'default',
      ...(effective.sandbox.image ? { image: effective.sandbox.image } : {}),
      pass: effective.sandbox.env.pass,
    };
    if (effective.plugins && effective.plugins.length > 0) plugins = await probePlugins(effective.plugins, projectRoot);
    // Command tools: is each program there? (A container backend has its own programs.)
    if (effective.tools.length > 0) {
      commandTools = effective.tools.map((tool) => {
        const program = splitCommandLine(tool.command)[0] ?? '';
        return { name: tool.name, program, found: findProgram(program, projectRoot, env.PATH ?? '') !== undefined };
      });
    }
  } catch (error) {
    config = failure(error);
  }
  // Without a config that loaded: the flag, MVNX_HOST or OLLAMA_HOST read as the config would.
  host = normaliseHost(host);
  const maven = await probeMaven(cwd, env, flags, configuredMaven);
  const [java, mavenVersion, offline, model, sandbox] = await Promise.all([
    probeJava(env),
    maven.ok ? probeMavenVersion(maven.value.path, maven.value.source, cwd, env) : Promise.resolve(undefined),
    probeOffline(projectRoot, env),
    providerCheck ? providerCheck() : probeModel(host, modelName),
    probeSandbox({ env, cwd, projectRoot, ...sandboxConfig }),
  ]);
  // After the others: timing node start-ups next to JVM start-ups would measure the contention.
  const startup = await probeStartup(env);
  return {
    java,
    maven,
    mavenVersion,
    offline,
    config,
    model,
    sandbox,
    startup,
    ...(plugins ? { plugins } : {}),
    ...(commandTools ? { commandTools } : {}),
  };
}
