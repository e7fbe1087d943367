/**
 * The environment a verification build gets: empty, plus an allowlist. A candidate patch
 * runs arbitrary code, and a CI job's environment is full of tokens and cloud keys; the
 * build needs none of them. Pure.
 */

/** What Maven and the JVM need to start and behave as they do for the user. */
export const BASE_ENV_ALLOWLIST: readonly string[] = [
  'PATH',
  'HOME',
  'JAVA_HOME',
  'MAVEN_OPTS',
  'MAVEN_ARGS',
  'MAVEN_HOME',
  'M2_HOME',
  // mvnw finds its Maven distribution under MAVEN_USER_HOME (default ~/.m2).
  'MAVEN_USER_HOME',
  'LANG',
  'LC_*',
  'TZ',
  'TMPDIR',
];

/** Names that pass only when the team names them exactly in sandbox.env.pass. */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

function matches(name: string, pattern: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

export interface BuildEnvironment {
  env: NodeJS.ProcessEnv;
  /** Names that were set and did not pass, sorted: said in doctor, never their values. */
  dropped: string[];
}

/**
 * `pass` adds names (or `PREFIX_*` patterns) to the allowlist. A secret-looking name
 * passes only when written out in full: `AWS_*` does not let AWS_SECRET_ACCESS_KEY through.
 */
export function buildEnvironment(source: NodeJS.ProcessEnv, pass: readonly string[] = []): BuildEnvironment {
  const env: NodeJS.ProcessEnv = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const named = pass.includes(name);
    const allowed =
      named || (!isSecretName(name) && [...BASE_ENV_ALLOWLIST, ...pass].some((pattern) => matches(name, pattern)));
    if (allowed) env[name] = value;
    else dropped.push(name);
  }
  return { env, dropped: dropped.sort() };
}
