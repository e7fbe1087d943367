/**
 * `mvnx doctor`'s judgements: pure functions from gathered facts to check results, so
 * every verdict and hint is testable without the machine being in that state.
 */

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
  hint?: string;
}

export type Probe<T> = { ok: true; value: T } | { ok: false; error: string };

export interface PluginPin {
  groupId: string;
  artifactId: string;
  version: string;
  present: boolean;
}

export interface DoctorFacts {
  java: Probe<{ command: string; version: string }>;
  maven: Probe<{ path: string; source: string }>;
  mavenVersion?: Probe<string>;
  offline: { localRepository: string; repositoryExists: boolean; pomFound: boolean; plugins: PluginPin[] };
  config: Probe<{ tier: string; files: string[] }>;
  model: {
    host: string;
    name: string;
    version: Probe<string>;
    models?: Probe<string[]>;
    provider?: 'ollama' | 'openai-compatible';
  };
  sandbox: SandboxFacts;
  /** The configured plugins, loaded; absent when the config names none (or did not load). */
  plugins?: Probe<{ summaries: string[]; notes: string[] }>;
  /** The config's command tools and whether each program is installed here; absent when none. */
  commandTools?: { name: string; program: string; found: boolean }[];
  /** Node's own start-up, measured when NODE_EXTRA_CA_CERTS is set (Node 20 parses that file before any code runs). */
  startup: { extraCaCerts?: string; extraCaCertsCostMs?: Probe<number> };
}

/** What the build's own sandbox probe (detectSandbox) found, and what the build's environment would be. */
export interface SandboxFacts {
  mode: string;
  /** Who set sandbox.mode: a config file, a flag, a variable, or `default`. */
  modeSource: string;
  /** The configured image, else the one suggested for the project's Java release. */
  image: string;
  imageSuggested: boolean;
  probe: Probe<{
    kind: string;
    isolated: boolean;
    available: boolean;
    reason?: string;
    tried: { kind: string; problem?: string }[];
  }>;
  /** Variable names a verification build gets, and the names it does not (never values). */
  env: { passed: string[]; dropped: string[] };
  /** The local repository the build reads, read-only. */
  localRepository: string;
}

export const MIN_MAVEN_VERSION = '3.6.3';
const NO_MODEL = 'quick-fixes still work without a model';

/** -1, 0 or 1 comparing dotted numeric versions (`3.8.7` vs `3.6.3`); qualifiers after `-` are ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split('-')[0]!
      .split('.')
      .map((n) => Number.parseInt(n, 10) || 0);
  const [left, right] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** `name` as Ollama lists it: a name without a tag means `:latest`. */
export function isModelPulled(name: string, models: string[]): boolean {
  const wanted = name.includes(':') ? name : `${name}:latest`;
  return models.some((model) => model === name || model === wanted);
}

function javaCheck(facts: DoctorFacts): CheckResult {
  if (!facts.java.ok)
    return {
      check: 'java',
      status: 'fail',
      detail: facts.java.error,
      hint: 'install a JDK (17 or later) and set JAVA_HOME or put java on PATH',
    };
  return { check: 'java', status: 'ok', detail: `${facts.java.value.version} (${facts.java.value.command})` };
}

function mavenChecks(facts: DoctorFacts): CheckResult[] {
  if (!facts.maven.ok)
    return [
      {
        check: 'maven',
        status: 'fail',
        detail: facts.maven.error,
        hint: 'install Maven, add a ./mvnw wrapper, or set MVNX_MAVEN / maven.executable',
      },
    ];
  const found: CheckResult = {
    check: 'maven',
    status: 'ok',
    detail: `${facts.maven.value.path} (${facts.maven.value.source})`,
  };
  const version = facts.mavenVersion;
  if (!version) return [found];
  if (!version.ok)
    return [
      found,
      {
        check: 'maven version',
        status: 'fail',
        detail: version.error,
        hint: `run ${facts.maven.value.path} -v to see why it does not start`,
      },
    ];
  if (compareVersions(version.value, MIN_MAVEN_VERSION) < 0) {
    return [
      found,
      {
        check: 'maven version',
        status: 'warn',
        detail: `Maven ${version.value} is older than ${MIN_MAVEN_VERSION}`,
        hint: `upgrade Maven or the wrapper to ${MIN_MAVEN_VERSION} or later`,
      },
    ];
  }
  return [found, { check: 'maven version', status: 'ok', detail: version.value }];
}

function offlineCheck(facts: DoctorFacts): CheckResult {
  const { localRepository, repositoryExists, pomFound, plugins } = facts.offline;
  if (!repositoryExists)
    return {
      check: 'offline',
      status: 'warn',
      detail: `no local repository at ${localRepository}`,
      hint: 'build once with network access so Maven can fill it',
    };
  if (!pomFound)
    return {
      check: 'offline',
      status: 'ok',
      detail: `local repository ${localRepository} (not in a Maven project: plugin pins not checked)`,
    };
  const missing = plugins.filter((plugin) => !plugin.present);
  if (missing.length > 0) {
    return {
      check: 'offline',
      status: 'warn',
      detail: `pinned plugins missing from ${localRepository}: ${missing.map((p) => `${p.groupId}:${p.artifactId}:${p.version}`).join(', ')}`,
      hint: 'run the build once online (or mvn dependency:go-offline) so verification builds can run offline',
    };
  }
  return { check: 'offline', status: 'ok', detail: `${plugins.length} pinned plugin(s) present in ${localRepository}` };
}

function configCheck(facts: DoctorFacts): CheckResult {
  if (!facts.config.ok)
    return {
      check: 'config',
      status: 'fail',
      detail: facts.config.error,
      hint: 'fix the named file or field; mvnx explain shows the effective config',
    };
  const from = facts.config.value.files.length > 0 ? facts.config.value.files.join(', ') : 'defaults only';
  return { check: 'config', status: 'ok', detail: `tier ${facts.config.value.tier} (${from})` };
}

function modelChecks(facts: DoctorFacts): CheckResult[] {
  const { host, name, version, models } = facts.model;
  if (facts.model.provider === 'openai-compatible') {
    if (!version.ok)
      return [
        {
          check: 'model server',
          status: 'warn',
          detail: `the OpenAI-compatible server at ${host} fails its health check: ${version.error}`,
          hint: `start the server with ${name} loaded, or fix model.host / model.apiKeyEnv; ${NO_MODEL}`,
        },
      ];
    return [
      { check: 'model server', status: 'ok', detail: `OpenAI-compatible server at ${host}` },
      { check: 'model', status: 'ok', detail: `${name} is served` },
    ];
  }
  if (!version.ok)
    return [
      {
        check: 'model server',
        status: 'warn',
        detail: `cannot reach ${host}: ${version.error}`,
        hint: `start Ollama (ollama serve) or set MVNX_HOST; ${NO_MODEL}`,
      },
    ];
  const server: CheckResult = { check: 'model server', status: 'ok', detail: `Ollama ${version.value} at ${host}` };
  if (!models) return [server];
  if (!models.ok)
    return [
      server,
      { check: 'model', status: 'warn', detail: `cannot list models at ${host}: ${models.error}`, hint: NO_MODEL },
    ];
  if (!isModelPulled(name, models.value))
    return [
      server,
      {
        check: 'model',
        status: 'warn',
        detail: `${name} is not pulled on ${host}`,
        hint: `run ollama pull ${name}; ${NO_MODEL}`,
      },
    ];
  return [server, { check: 'model', status: 'ok', detail: `${name} is pulled` }];
}

function sandboxCheck(facts: DoctorFacts): CheckResult {
  const { probe, mode, modeSource, image, imageSuggested } = facts.sandbox;
  const imageHint = `set sandbox.mode docker or podman with sandbox.image (${imageSuggested ? `suggested for this project: ${image}` : image}, pulled beforehand)`;
  if (!probe.ok)
    return {
      check: 'sandbox',
      status: 'warn',
      detail: `the probe failed: ${probe.error}`,
      hint: 'run mvnx doctor again; until the probe passes verification is not isolated',
    };
  const { kind, isolated, available, reason, tried } = probe.value;
  const passedOver = tried.filter((t) => t.problem).map((t) => `${t.kind}: ${t.problem}`);
  if (!available) {
    return {
      check: 'sandbox',
      status: 'fail',
      detail: `sandbox.mode ${mode} (${modeSource}) is required but unavailable: ${reason ?? 'unknown'}`,
      hint: `repairs stop before the first model call until it works; install bubblewrap or ${imageHint}`,
    };
  }
  if (isolated) {
    const via = kind === 'bwrap' ? 'bubblewrap' : `${kind}, image ${image}`;
    return {
      check: 'sandbox',
      status: 'ok',
      detail: `verification builds will run under ${via} (sandbox.mode ${mode})${passedOver.length > 0 ? `; passed over: ${passedOver.join('; ')}` : ''}`,
    };
  }
  return {
    check: 'sandbox',
    status: 'warn',
    detail: `verification builds will run WITHOUT isolation: ${reason ?? 'no sandbox'}`,
    hint:
      mode === 'none'
        ? 'sandbox.mode is none; written in a config file it means this environment is the sandbox'
        : `install bubblewrap (apt-get install bubblewrap) or ${imageHint}; until then auto does not apply fixes`,
  };
}

function isolationCheck(facts: DoctorFacts): CheckResult {
  const { probe, env, localRepository, modeSource, mode } = facts.sandbox;
  const environment = `environment: ${env.passed.length} variable(s) pass (${env.passed.join(', ') || 'none'}), ${env.dropped.length} withheld${env.dropped.length > 0 ? ` (${env.dropped.slice(0, 6).join(', ')}${env.dropped.length > 6 ? ', ...' : ''})` : ''}`;
  const always = `${environment}; install/deploy verified as verify; every process of a stage killed when it ends`;
  if (probe.ok && probe.value.isolated) {
    return {
      check: 'isolation',
      status: 'ok',
      detail: `isolated: network (none), writes (workspace only; ${localRepository} read-only), host sockets and $HOME (not visible), settings.xml passwords (removed), processes (own PID namespace); ${always}. Not isolated: CPU and memory (no limits), reads of system folders (/usr, needed /etc files)`,
    };
  }
  const optedOut =
    mode === 'none' && modeSource !== 'default' && !modeSource.startsWith('env ') && !modeSource.startsWith('flag ');
  return {
    check: 'isolation',
    status: 'warn',
    detail: `NOT isolated: network, your files, host sockets, other processes' environments and settings.xml passwords are reachable by a candidate's code (secrets found are redacted from every output); still done: ${always}`,
    hint: optedOut
      ? `${modeSource} says the environment is the sandbox: auto applies fixes anyway`
      : 'auto and assist.autoApplyLowRisk will not apply fixes verified like this',
  };
}

function pluginsCheck(facts: DoctorFacts): CheckResult {
  const plugins = facts.plugins;
  if (!plugins) return { check: 'plugins', status: 'ok', detail: 'none configured' };
  if (!plugins.ok)
    return {
      check: 'plugins',
      status: 'fail',
      detail: plugins.error,
      hint: 'install the plugin or fix the path in the config; until then failed builds are not repaired',
    };
  const notes = plugins.value.notes.length > 0 ? `; ${plugins.value.notes.join('; ')}` : '';
  return { check: 'plugins', status: 'ok', detail: `${plugins.value.summaries.join(', ')}${notes}` };
}

function commandToolsCheck(facts: DoctorFacts): CheckResult {
  const tools = facts.commandTools;
  if (!tools || tools.length === 0) return { check: 'command tools', status: 'ok', detail: 'none configured' };
  const missing = tools.filter((tool) => !tool.found);
  if (missing.length === 0)
    return {
      check: 'command tools',
      status: 'ok',
      detail: tools.map((tool) => `${tool.name} (${tool.program})`).join(', '),
    };
  return {
    check: 'command tools',
    status: 'warn',
    detail: `not installed here: ${missing.map((tool) => `${tool.name} needs ${tool.program}`).join(', ')}`,
    hint: 'install it (or fix the command with mvnx tool add --replace); until then the agent is told the tool is not installed, and the repair goes on',
  };
}

/** Below this a start-up cost is within run-to-run noise and not worth a warning. */
export const NOTABLE_STARTUP_COST_MS = 15;

function startupCheck(facts: DoctorFacts): CheckResult {
  const { extraCaCerts, extraCaCertsCostMs } = facts.startup;
  if (extraCaCerts === undefined) return { check: 'start-up', status: 'ok', detail: 'NODE_EXTRA_CA_CERTS is not set' };
  if (!extraCaCertsCostMs || !extraCaCertsCostMs.ok) {
    return {
      check: 'start-up',
      status: 'ok',
      detail: `NODE_EXTRA_CA_CERTS=${extraCaCerts} (its start-up cost could not be measured: ${extraCaCertsCostMs?.ok === false ? extraCaCertsCostMs.error : 'not measured'})`,
    };
  }
  const cost = Math.round(extraCaCertsCostMs.value);
  if (cost < NOTABLE_STARTUP_COST_MS)
    return {
      check: 'start-up',
      status: 'ok',
      detail: `NODE_EXTRA_CA_CERTS=${extraCaCerts} costs about ${cost} ms per start`,
    };
  return {
    check: 'start-up',
    status: 'warn',
    detail: `NODE_EXTRA_CA_CERTS=${extraCaCerts} adds about ${cost} ms to every mvnx run: node parses it before mvnx starts`,
    hint: 'mvnx itself needs it only for a model server behind a private CA; where only npm needs it, npm config set cafile instead',
  };
}

export function evaluateDoctor(facts: DoctorFacts): CheckResult[] {
  return [
    javaCheck(facts),
    ...mavenChecks(facts),
    offlineCheck(facts),
    configCheck(facts),
    ...modelChecks(facts),
    sandboxCheck(facts),
    isolationCheck(facts),
    pluginsCheck(facts),
    commandToolsCheck(facts),
    startupCheck(facts),
  ];
}

/** Checks without which mvnx cannot do its job at all. */
// A sandbox fails only when required by name and unavailable: repairs cannot run then.
const ESSENTIAL = new Set(['java', 'maven', 'maven version', 'config', 'plugins', 'sandbox']);

export function doctorExitCode(results: CheckResult[]): number {
  return results.some((result) => result.status === 'fail' && ESSENTIAL.has(result.check)) ? 1 : 0;
}

export function formatCheck(result: CheckResult): string {
  const label = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' }[result.status];
  return `${label} ${result.check}: ${result.detail}${result.hint && result.status !== 'ok' ? ` — ${result.hint}` : ''}`;
}
