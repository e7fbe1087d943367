/**
 * Where a Maven build keeps its user-level state, read the way Maven reads it: the user
 * home (Java's `user.home`, which comes from the password database unless MAVEN_OPTS says
 * `-Duser.home`), the user settings file, the local repository, and the secrets a
 * settings file holds. The sandbox binds these (the settings without their secrets) and
 * redaction learns the secret values from them.
 *
 * settings.xml is read as XML (fast-xml-parser, as maven/pom.ts reads POMs): no DOCTYPE
 * entity expansion, comments ignored, CDATA read as text, and an element is only the
 * element at its place (`<localRepository>` is the child of `<settings>`, not a word in a
 * comment or a profile).
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  childText,
  decodeEntities,
  isNode,
  MAVEN_XML_OPTIONS,
  parsePomProject,
  rootElement,
  pomInterpolator,
  pomProperties,
  type PomNode,
} from './pom.js';

export interface MavenUserState {
  /** Java's user.home for the Maven JVM. */
  userHome: string;
  /** The user settings file (`-s FILE`, else `<user.home>/.m2/settings.xml`); it may not exist. */
  userSettings: string;
  /** `-gs FILE` when given. */
  globalSettings?: string;
  /** The local repository the build reads (and `install` would write). */
  localRepository: string;
  /** Where the local repository setting came from, for doctor and the run record. */
  localRepositorySource: string;
}

export interface MavenStateInput {
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Where relative paths on the command line start. */
  cwd: string;
  /** The project root, for `.mvn/maven.config`. */
  projectRoot?: string;
}

/** The value of `-Dname=value` among tokens (the last one wins, as in Maven). */
export function definedProperty(tokens: readonly string[], name: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const body = token.startsWith('-D')
      ? token.slice(2)
      : token === '--define'
        ? tokens[++i]
        : token.startsWith('--define=')
          ? token.slice(9)
          : undefined;
    const text = body === '' && token === '-D' ? tokens[++i] : body;
    if (text === undefined) continue;
    const eq = text.indexOf('=');
    const key = eq < 0 ? text : text.slice(0, eq);
    if (key === name) found = eq < 0 ? 'true' : text.slice(eq + 1);
  }
  return found;
}

function optionValue(tokens: readonly string[], short: string, long: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === `-${short}` || token === `--${long}`) found = tokens[++i];
    else if (token.startsWith(`--${long}=`)) found = token.slice(long.length + 3);
  }
  return found;
}

/** MAVEN_OPTS split the way the mvn script's unquoted expansion splits it. */
function mavenOpts(env: NodeJS.ProcessEnv): string[] {
  return (env.MAVEN_OPTS ?? '').split(/\s+/).filter(Boolean);
}

function mavenConfig(projectRoot: string | undefined): string[] {
  if (!projectRoot) return [];
  try {
    return readFileSync(path.join(projectRoot, '.mvn', 'maven.config'), 'utf8')
      .split(/\s+/)
      .filter(Boolean);
  } catch {
    return [];
  }
}

export function mavenUserHome(env: NodeJS.ProcessEnv): string {
  const fromOpts = definedProperty(mavenOpts(env), 'user.home');
  if (fromOpts) return path.resolve(fromOpts);
  try {
    return os.userInfo().homedir;
  } catch {
    return env.HOME ?? os.homedir();
  }
}

/** `${user.home}` and `${env.NAME}` as Maven expands them in settings.xml. */
function expand(value: string, userHome: string, env: NodeJS.ProcessEnv): string {
  return value
    .replace(/\$\{user\.home\}/g, userHome)
    .replace(/\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => env[name] ?? '');
}

/** A text file's content, or undefined when it cannot be read. */
export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

export function resolveMavenUserState(input: MavenStateInput): MavenUserState {
  const userHome = mavenUserHome(input.env);
  const tokens = [...mavenConfig(input.projectRoot), ...input.args];
  const settingsArg = optionValue(tokens, 's', 'settings');
  const globalArg = optionValue(tokens, 'gs', 'global-settings');
  const userSettings = settingsArg ? path.resolve(input.cwd, settingsArg) : path.join(userHome, '.m2', 'settings.xml');

  let localRepository = path.join(userHome, '.m2', 'repository');
  let localRepositorySource = 'default (<user.home>/.m2/repository)';
  const settings = parseSettings(readText(userSettings) ?? '');
  const configured = settings ? childText(settings, 'localRepository') : undefined;
  if (configured) {
    localRepository = path.resolve(input.cwd, expand(configured, userHome, input.env));
    localRepositorySource = `<localRepository> in ${userSettings}`;
  }
  const fromOpts = definedProperty(mavenOpts(input.env), 'maven.repo.local');
  if (fromOpts) {
    localRepository = path.resolve(input.cwd, fromOpts);
    localRepositorySource = '-Dmaven.repo.local in MAVEN_OPTS';
  }
  const fromArgs = definedProperty(tokens, 'maven.repo.local');
  if (fromArgs) {
    localRepository = path.resolve(input.cwd, fromArgs);
    localRepositorySource = '-Dmaven.repo.local on the command line';
  }
  return {
    userHome,
    userSettings,
    ...(globalArg ? { globalSettings: path.resolve(input.cwd, globalArg) } : {}),
    localRepository,
    localRepositorySource,
  };
}

// `<s:settings xmlns:s=...>` is the same file to Maven.
const settingsParser = new XMLParser({ ...MAVEN_XML_OPTIONS, removeNSPrefix: true });

/** The `<settings>` element of a well-formed settings file, or undefined. */
export function parseSettings(xml: string): PomNode | undefined {
  return xml.includes('<') ? rootElement(settingsParser, xml, 'settings') : undefined;
}

/** Elements of settings.xml whose text is a secret. */
const SECRET_ELEMENTS = new Set(['password', 'passphrase']);

/** The literal `<password>`/`<passphrase>` values of a settings file (encrypted `{...}` ones included). */
export function settingsSecrets(xml: string): string[] {
  const values = new Set<string>();
  const add = (value: string) => {
    // ${env.X} is a reference, not a value; the variable's value is redacted by its name.
    if (value && !/^\$\{[^}]+\}$/.test(value)) values.add(value);
  };
  const settings = parseSettings(xml);
  if (settings) {
    const walk = (node: unknown, name: string): void => {
      if (Array.isArray(node)) for (const item of node) walk(item, name);
      else if (isNode(node)) for (const [child, value] of Object.entries(node)) walk(value, child);
      else if (typeof node === 'string' && SECRET_ELEMENTS.has(name)) add(node);
    };
    walk(settings, 'settings');
  } else {
    // A file that is not well-formed XML breaks Maven, which may echo it: its secrets are
    // still found, by the lenient scan (comments skipped), so that redaction knows them.
    for (const element of SECRET_ELEMENTS) {
      for (const match of xml
        .replace(/<!--[\s\S]*?-->/g, '')
        .matchAll(
          new RegExp(`<${element}\\b[^>]*>\\s*(?:<!\\[CDATA\\[([\\s\\S]*?)\\]\\]>|([^<]*?))\\s*</${element}\\s*>`, 'g'),
        )) {
        add(match[1] ?? decodeEntities(match[2] ?? ''));
      }
    }
  }
  return [...values];
}

/** Order-keeping reader and writer: the sanitized copy is the same file, secrets and comments out. */
const ROUND_TRIP = {
  preserveOrder: true,
  ignoreAttributes: false,
  cdataPropName: '#cdata',
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
} as const;
const roundTripParser = new XMLParser(ROUND_TRIP);
const roundTripBuilder = new XMLBuilder({ ...ROUND_TRIP, suppressEmptyNode: false });

/**
 * The settings file with every secret emptied and its comments dropped (a commented-out
 * password is still a password): mirrors, profiles, attributes and the repository path stay.
 * A file that is not well-formed XML becomes an empty `<settings/>` (Maven refuses it anyway).
 */
export function sanitizeSettings(xml: string): string {
  if (XMLValidator.validate(xml) !== true) return '<settings/>\n';
  const empty = (nodes: unknown): void => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes) {
      if (!isNode(node)) continue;
      for (const [name, children] of Object.entries(node)) {
        if (name === ':@') continue;
        if (SECRET_ELEMENTS.has(name.replace(/^[\w.-]+:/, ''))) node[name] = [];
        else empty(children);
      }
    }
  };
  const tree: unknown = roundTripParser.parse(xml);
  empty(tree);
  return String(roundTripBuilder.build(tree));
}

/** Secret values of the settings files this build reads (user and `-gs`), for value-based redaction. */
export function readSettingsSecrets(state: Pick<MavenUserState, 'userSettings' | 'globalSettings'>): string[] {
  const files = [state.userSettings, ...(state.globalSettings ? [state.globalSettings] : [])];
  return files.flatMap((file) => (existsSync(file) ? settingsSecrets(readText(file) ?? '') : []));
}

/**
 * The Java release a project builds for, from its top pom's properties
 * (`maven.compiler.release`, else `.target`, `.source`, `java.version`): `17`, `21`, `8`.
 */
export function projectJavaRelease(pomXml: string): string | undefined {
  const project = parsePomProject(pomXml);
  if (!project) return undefined;
  const properties = pomProperties(project);
  const resolve = pomInterpolator(project);
  for (const name of ['maven.compiler.release', 'maven.compiler.target', 'maven.compiler.source', 'java.version']) {
    const written = properties.get(name);
    const value = written === undefined ? undefined : resolve(written);
    if (value && /^(1\.)?\d+$/.test(value)) return value.replace(/^1\./, '');
  }
  return undefined;
}
