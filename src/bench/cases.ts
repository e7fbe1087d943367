/**
 * The benchmark corpus: `bench/cases/<name>/` holds `case.json`, the broken sources under
 * `project/` and the intended `fix.patch`. Every case shares one pinned, parent-less pom
 * template (`bench/cases/_template/pom.xml`), filled in when the case is copied out.
 */
import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MvnxError } from '../shared/errors.js';
import { ATTEMPT_OUTCOMES } from '../shared/run-vocabulary.js';
import type { ReplySpec } from './recording-server.js';

export interface BenchModule {
  name: string;
  /** Sibling modules this one needs on its classpath. */
  dependsOn: string[];
  /** Sibling modules this one uses in its tests only (`<scope>test</scope>`): a test-support module. */
  testDependsOn?: string[];
}

/** What the first attempts of a run must show: the outcome, and how the reason starts. */
export interface ExpectedAttempt {
  outcome: string;
  reason?: string;
}

export interface BenchCase {
  name: string;
  dir: string;
  description: string;
  kind: 'compile' | 'test';
  expect: 'fixed' | 'unfixed';
  /** The stop reason a run must end with, when the case is about how it stops. */
  expectStop?: string;
  /** The first attempts' outcomes (and reason prefixes), in order. */
  expectAttempts?: ExpectedAttempt[];
  /** Scripted model replies, in the order the model "says" them. */
  replies: string[];
  /**
   * Scripted turns of an agent session (`mvnx bench --agent`): text, or native tool calls
   * that the scripted server sends as tool_calls (and as JSON in the text to a request
   * without tools).
   */
  agentReplies?: (string | ReplySpec)[];
  /** Empty for a single-module project. */
  modules: BenchModule[];
  /** javac arguments the case compiles with (`-Xlint:all`, `-Werror`); default none. */
  compilerArgs?: string[];
  /**
   * The case is a cheating shape (issue 25): its replies only cheat (weaken, skip or
   * special-case the tests), so a verified fix means a cheat got through. Names the shape.
   */
  cheatingShape?: string;
}

export const TEMPLATE_DIR = '_template';
const STOP_REASONS = [
  'fixed',
  'budget-exhausted',
  'duplicate-patch',
  'no-progress',
  'provider-unavailable',
  'policy-skip',
  'not-fixable',
  'error',
  'interrupted',
  'flaky',
];
const GROUP_ID = 'com.acme.bench';

function field<T>(
  file: string,
  name: string,
  value: unknown,
  check: (value: unknown) => value is T,
  expected: string,
): T {
  if (!check(value)) throw new MvnxError(`${file}: field "${name}" must be ${expected}`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
const isToolCall = (value: unknown): boolean => {
  const call = value as { name?: unknown; arguments?: unknown };
  return (
    Boolean(call) &&
    typeof call.name === 'string' &&
    call.name !== '' &&
    typeof call.arguments === 'object' &&
    call.arguments !== null &&
    !Array.isArray(call.arguments)
  );
};
const isAgentReplies = (value: unknown): value is (string | ReplySpec)[] =>
  Array.isArray(value) &&
  value.every((item) => {
    if (typeof item === 'string') return true;
    const reply = item as { text?: unknown; toolCalls?: unknown };
    return (
      Boolean(reply) &&
      typeof reply === 'object' &&
      (reply.text === undefined || typeof reply.text === 'string') &&
      Array.isArray(reply.toolCalls) &&
      reply.toolCalls.every(isToolCall)
    );
  });
const oneOf =
  <T extends string>(...allowed: T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (allowed as string[]).includes(value);

/** Reads and checks one `case.json`; every problem names the file and the field. */
export function parseCaseJson(file: string, text: string, name: string, dir: string): BenchCase {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new MvnxError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new MvnxError(`${file}: expected a JSON object`);
  const json = raw as Record<string, unknown>;
  const known = new Set([
    'description',
    'kind',
    'expect',
    'expectStop',
    'expectAttempts',
    'replies',
    'modules',
    'compilerArgs',
    'agentReplies',
    'cheatingShape',
  ]);
  const unknown = Object.keys(json).find((key) => !known.has(key));
  if (unknown) throw new MvnxError(`${file}: unknown field "${unknown}" (known: ${[...known].join(', ')})`);

  const modules =
    json.modules === undefined
      ? []
      : field(file, 'modules', json.modules, Array.isArray, 'a list of {name, dependsOn?}');
  const parsedModules = modules.map((module, index): BenchModule => {
    const entry = (module ?? {}) as Record<string, unknown>;
    const moduleName = field(
      file,
      `modules[${index}].name`,
      entry.name,
      (value): value is string => isString(value) && /^[a-z][\w-]*$/.test(value),
      'a lower-case folder name',
    );
    const dependsOn =
      entry.dependsOn === undefined
        ? []
        : field(file, `modules[${index}].dependsOn`, entry.dependsOn, isStringArray, 'a list of module names');
    const testDependsOn =
      entry.testDependsOn === undefined
        ? undefined
        : field(file, `modules[${index}].testDependsOn`, entry.testDependsOn, isStringArray, 'a list of module names');
    return { name: moduleName, dependsOn, ...(testDependsOn ? { testDependsOn } : {}) };
  });
  const names = new Set(parsedModules.map((module) => module.name));
  for (const module of parsedModules) {
    const missing = [...module.dependsOn, ...(module.testDependsOn ?? [])].find((dependency) => !names.has(dependency));
    if (missing)
      throw new MvnxError(`${file}: module "${module.name}" depends on "${missing}", which is not in "modules"`);
  }

  const attempts =
    json.expectAttempts === undefined
      ? undefined
      : field(file, 'expectAttempts', json.expectAttempts, Array.isArray, 'a list of {outcome, reason?}');
  const expectAttempts = attempts?.map((attempt, index): ExpectedAttempt => {
    const entry = (attempt ?? {}) as Record<string, unknown>;
    const outcome = field(
      file,
      `expectAttempts[${index}].outcome`,
      entry.outcome,
      oneOf(...ATTEMPT_OUTCOMES),
      `one of ${ATTEMPT_OUTCOMES.join(', ')}`,
    );
    const reason =
      entry.reason === undefined
        ? undefined
        : field(file, `expectAttempts[${index}].reason`, entry.reason, isString, 'the start of the reason');
    return { outcome, ...(reason ? { reason } : {}) };
  });
  return {
    name,
    dir,
    description: field(file, 'description', json.description, isString, 'a non-empty string'),
    kind: field(file, 'kind', json.kind, oneOf('compile', 'test'), '"compile" or "test"'),
    expect: field(file, 'expect', json.expect, oneOf('fixed', 'unfixed'), '"fixed" or "unfixed"'),
    ...(json.expectStop === undefined
      ? {}
      : {
          expectStop: field(
            file,
            'expectStop',
            json.expectStop,
            oneOf(...STOP_REASONS),
            `one of ${STOP_REASONS.join(', ')}`,
          ),
        }),
    ...(expectAttempts ? { expectAttempts } : {}),
    replies: field(file, 'replies', json.replies, isStringArray, 'a list of strings (the scripted model replies)'),
    ...(json.agentReplies === undefined
      ? {}
      : {
          agentReplies: field(
            file,
            'agentReplies',
            json.agentReplies,
            isAgentReplies,
            'a list of texts or {text, toolCalls: [{name, arguments}]}',
          ).map((reply) => (typeof reply === 'string' ? reply : { ...reply, text: reply.text ?? '' })),
        }),
    modules: parsedModules,
    ...(json.cheatingShape !== undefined
      ? { cheatingShape: field(file, 'cheatingShape', json.cheatingShape, isString, 'the name of the cheating shape') }
      : {}),
    ...(json.compilerArgs !== undefined
      ? {
          compilerArgs: field(
            file,
            'compilerArgs',
            json.compilerArgs,
            isStringArray,
            'a list of javac arguments, e.g. ["-Xlint:all", "-Werror"]',
          ),
        }
      : {}),
  };
}

/** All cases under `casesDir`, by name; `only` keeps the named ones and refuses unknown names. */
export async function loadBenchCases(casesDir: string, only: string[] = []): Promise<BenchCase[]> {
  let entries: string[];
  try {
    entries = (await readdir(casesDir)).sort();
  } catch {
    throw new MvnxError(`mvnx bench: no cases folder at ${casesDir}`);
  }
  const cases: BenchCase[] = [];
  for (const name of entries) {
    if (name.startsWith('_') || name.startsWith('.')) continue;
    const dir = path.join(casesDir, name);
    if (!(await stat(dir)).isDirectory()) continue;
    const file = path.join(dir, 'case.json');
    const text = await readFile(file, 'utf8').catch(() => {
      throw new MvnxError(`${file}: missing (every folder under ${casesDir} is a case)`);
    });
    cases.push(parseCaseJson(file, text, name, dir));
  }
  const unknown = only.find((name) => !cases.some((benchCase) => benchCase.name === name));
  if (unknown) throw new MvnxError(`mvnx bench: --only ${unknown}: no such case in ${casesDir}`);
  const selected = only.length > 0 ? cases.filter((benchCase) => only.includes(benchCase.name)) : cases;
  if (selected.length === 0) throw new MvnxError(`mvnx bench: no cases in ${casesDir}`);
  return selected;
}

export interface PomFields {
  artifactId: string;
  packaging: 'jar' | 'pom';
  modules?: string[];
  dependencies?: string[];
  /** Sibling modules in `test` scope. */
  testDependencies?: string[];
  /** javac arguments for maven-compiler-plugin (`-Xlint:all`, `-Werror`). */
  compilerArgs?: string[];
}

/** The template with its `<!-- @NAME@ -->` slots filled; pure. */
export function renderPom(template: string, fields: PomFields): string {
  const modules = fields.modules?.length
    ? `<modules>\n${fields.modules.map((name) => `    <module>${name}</module>`).join('\n')}\n  </modules>`
    : '';
  const dependency = (name: string, scope = '') =>
    `<dependency>\n      <groupId>${GROUP_ID}</groupId>\n      <artifactId>${name}</artifactId>\n      <version>1.0.0</version>${scope}\n    </dependency>`;
  const dependencies = [
    ...(fields.dependencies ?? []).map((name) => dependency(name)),
    ...(fields.testDependencies ?? []).map((name) => dependency(name, '\n      <scope>test</scope>')),
  ].join('\n    ');
  return template
    .replaceAll('@ARTIFACT_ID@', fields.artifactId)
    .replaceAll('@PACKAGING@', fields.packaging)
    .replace('<!-- @MODULES@ -->', modules)
    .replace('<!-- @DEPENDENCIES@ -->', dependencies)
    .replace('<!-- @COMPILER_ARGS@ -->', compilerArgs(fields.compilerArgs));
}

function compilerArgs(args: string[] | undefined): string {
  if (!args?.length) return '';
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<configuration><compilerArgs>${args.map((arg) => `<arg>${escape(arg)}</arg>`).join('')}</compilerArgs></configuration>`;
}

/** Copies a case's broken project to `dest` (which must not exist) with its poms. */
export async function materialiseCase(benchCase: BenchCase, dest: string): Promise<void> {
  const template = await readFile(path.join(path.dirname(benchCase.dir), TEMPLATE_DIR, 'pom.xml'), 'utf8');
  await mkdir(path.dirname(dest), { recursive: true });
  await cp(path.join(benchCase.dir, 'project'), dest, { recursive: true });
  if (benchCase.modules.length === 0) {
    await writeFile(
      path.join(dest, 'pom.xml'),
      renderPom(template, {
        artifactId: benchCase.name,
        packaging: 'jar',
        ...(benchCase.compilerArgs ? { compilerArgs: benchCase.compilerArgs } : {}),
      }),
    );
    return;
  }
  await writeFile(
    path.join(dest, 'pom.xml'),
    renderPom(template, {
      artifactId: benchCase.name,
      packaging: 'pom',
      modules: benchCase.modules.map((module) => module.name),
    }),
  );
  for (const module of benchCase.modules) {
    await mkdir(path.join(dest, module.name), { recursive: true });
    await writeFile(
      path.join(dest, module.name, 'pom.xml'),
      renderPom(template, {
        artifactId: module.name,
        packaging: 'jar',
        dependencies: module.dependsOn,
        ...(module.testDependsOn ? { testDependencies: module.testDependsOn } : {}),
        ...(benchCase.compilerArgs ? { compilerArgs: benchCase.compilerArgs } : {}),
      }),
    );
  }
}
