/**
 * The failing tests first without a second test JVM: JUnit Jupiter (5.8 and later) orders
 * test classes with the `ClassOrderer` that the configuration parameter
 * `junit.jupiter.testclass.order.default` names. In the workspace copy only, mvnx places
 * its own orderer among the failing module's compiled test classes and names it with -D
 * (Surefire hands the build's user properties to the test JVM as system properties, where
 * JUnit reads configuration parameters it was not given otherwise). The failing classes
 * then run first inside `default-test`, and the rest keep the order they had; mvnx watches
 * their reports (failing-first-watch.ts) and stops a build whose failing tests still fail.
 * One JVM, and the failing tests run once instead of twice.
 *
 * Where this cannot work, or is measured not to pay, the Surefire execution of
 * failing-first.ts stays: a command that cleans (the orderer would be deleted), forks per
 * class (Surefire then orders the classes itself), a project that orders its classes, a
 * failing test that is not a Jupiter test (JUnit 4 through Vintage), no Jupiter 5.8+ on the
 * test class path, failing classes with many other tests, or a large module (JUnit
 * discovers all its tests before the first class runs). Pure.
 */
import path from 'node:path';
import { goalsOf, parseMavenArgs, propertyValue } from './maven-args.js';

/**
 * Binary name of the orderer: outside every project package, and no Surefire include pattern (`*Test`, `Test*`,
 * `*Tests`, `*TestCase`) matches it.
 */
export const CLASS_ORDER_NAME = 'mvnx.FailingFirstOrder';
/** The system property the orderer reads: the failing test classes, comma-separated. */
export const FAILING_CLASSES_PROPERTY = 'mvnx.failingFirst';

/** Compiled with `--release 8` against the project's own junit-jupiter-api, once per jar (class-order-compile.ts). */
export const CLASS_ORDER_SOURCE = `package mvnx;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/** Written by mvnx into its workspace copy only: the failing test classes first, the others in the order they had. */
public final class FailingFirstOrder implements ClassOrderer {
    @Override
    public void orderClasses(ClassOrdererContext context) {
        final Set<String> first = new HashSet<String>(Arrays.asList(System.getProperty("${FAILING_CLASSES_PROPERTY}", "").split(",")));
        // List.sort is stable: only the failing classes move.
        context.getClassDescriptors().sort((ClassDescriptor a, ClassDescriptor b) -> Boolean.compare(!first.contains(a.getTestClass().getName()), !first.contains(b.getTestClass().getName())));
    }
}
`;

export interface ClassOrderInput {
  /** The verdict build's arguments. */
  args: readonly string[];
  /** The failing modules' poms (and any parent the project holds), as text. */
  poms: readonly string[];
  /** The failing modules' `junit-platform.properties` (test resources), where present. */
  platformProperties: readonly string[];
  /** Each failing test class's source, undefined where it was not found. */
  testSources: readonly (string | undefined)[];
  /** `surefire.test.class.path` of the user's build, from a failing class's report. */
  testClassPath?: string;
  /** Seconds the failing classes' other tests took in the user's build (their reports' testcase times). */
  otherTestsSeconds?: number;
  /** Tests the failing modules ran in the user's build. */
  moduleTests?: number;
}

export type ClassOrderDecision = { order: true; jupiterApiJar: string } | { order: false; why: string };

const ORDER_SETTING = /junit\.jupiter\.testclass\.order/;
/**
 * Above this, running the failing classes whole costs a wrong candidate more than the separate JVM saves a right one.
 */
export const OTHER_TESTS_LIMIT_SECONDS = 1;
/**
 * Above this many tests in the failing modules, the execution rejects sooner (measured: jsoup, 1,834; the generated
 * single module, about 200).
 */
export const MODULE_TESTS_LIMIT = 500;

export function decideClassOrder(input: ClassOrderInput): ClassOrderDecision {
  const parsed = parseMavenArgs([...input.args], { lenient: true });
  if (goalsOf(parsed).some((goal) => goal === 'clean' || goal.endsWith(':clean')))
    return { order: false, why: 'the command cleans first, which would delete the orderer' };
  const property = (name: string) =>
    [propertyValue(parsed, name)].filter((value): value is string => value !== undefined);
  const fromPoms = (element: string) =>
    input.poms.flatMap((pom) =>
      [...pom.matchAll(new RegExp(`<${element}>\\s*([^<]*?)\\s*</${element}>`, 'g'))].map((m) => m[1]!),
    );
  if ([...fromPoms('reuseForks'), ...property('reuseForks')].includes('false'))
    return { order: false, why: 'Surefire starts a JVM per test class (reuseForks false)' };
  const forkCounts = [...fromPoms('forkCount'), ...property('forkCount')].filter(
    (count) => count !== '1' && count !== '0',
  );
  if (forkCounts.length > 0)
    return { order: false, why: `Surefire runs test classes in several JVMs (forkCount ${forkCounts.join(', ')})` };
  if ([...input.poms, ...input.args, ...input.platformProperties].some((text) => ORDER_SETTING.test(text)))
    return { order: false, why: 'the project orders its test classes itself' };
  if (
    input.testSources.some(
      (source) => source === undefined || !/\bimport\s+(static\s+)?org\.junit\.jupiter\./.test(source),
    )
  ) {
    return { order: false, why: 'a failing test is not a JUnit Jupiter test (or its source was not found)' };
  }
  // A wrong candidate pays for the whole failing classes before it is stopped; the execution
  // runs the failing methods alone, in a JVM of its own (about a second to start).
  if ((input.otherTestsSeconds ?? 0) > OTHER_TESTS_LIMIT_SECONDS) {
    return {
      order: false,
      why: `the failing classes' other tests took ${input.otherTestsSeconds!.toFixed(1)} s in your build, more than a test JVM of the failing tests' own`,
    };
  }
  // JUnit discovers every test of the module before it runs the first class: on jsoup (1,834 tests)
  // that and the stop made a wrong candidate 1.3 s dearer than the execution, while the generated
  // single module (about 200) rejected as fast either way and verified 0.5 s sooner.
  if ((input.moduleTests ?? 0) > MODULE_TESTS_LIMIT) {
    return {
      order: false,
      why: `the failing modules ran ${input.moduleTests} tests in your build: discovering them all before the failing classes costs a wrong candidate more than a test JVM of the failing tests' own`,
    };
  }
  const jupiterApiJar = jupiterApiOf(input.testClassPath);
  if (!jupiterApiJar) return { order: false, why: 'the test class path has no junit-jupiter-api 5.8 or later' };
  return { order: true, jupiterApiJar };
}

/** The -D arguments that make the test JVM run `classes` first (with the orderer placed among the test classes). */
export function classOrderArgs(classes: readonly string[]): string[] {
  return [
    `-Djunit.jupiter.testclass.order.default=${CLASS_ORDER_NAME}`,
    `-D${FAILING_CLASSES_PROPERTY}=${[...new Set(classes)].join(',')}`,
  ];
}

/** The top-level classes of `Class#method` names (a nested class runs inside its enclosing class's report). */
export function failingClasses(tests: readonly string[]): string[] {
  return [...new Set(tests.map((test) => test.split('#')[0]!.split('$')[0]!))];
}

/** `surefire.test.class.path` from a Surefire XML report's properties. */
export function testClassPathOf(reportXml: string): string | undefined {
  const value = /<property\s+name="surefire\.test\.class\.path"\s+value="([^"]*)"/.exec(reportXml)?.[1];
  return value
    ?.replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Each testcase of a Surefire XML report: `Class#method` and its seconds. */
export function testCaseTimes(reportXml: string): { test: string; seconds: number }[] {
  return [...reportXml.matchAll(/<testcase\b([^>]*)>/g)].flatMap((match) => {
    const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(match[1]!)?.[1];
    const name = attribute('name');
    const className = attribute('classname');
    const seconds = Number(attribute('time') ?? '0');
    return name === undefined || className === undefined
      ? []
      : [{ test: `${className}#${name}`, seconds: Number.isFinite(seconds) ? seconds : 0 }];
  });
}

function jupiterApiOf(classPath: string | undefined): string | undefined {
  for (const entry of (classPath ?? '').split(path.delimiter)) {
    const version = /junit-jupiter-api-(\d+)\.(\d+)[^/\\]*\.jar$/.exec(entry);
    if (version && (Number(version[1]) > 5 || (Number(version[1]) === 5 && Number(version[2]) >= 8))) return entry;
  }
  return undefined;
}
