import { describe, expect, it } from 'vitest';
import { planVerification, repositoryGoalNote, VerificationPlanError, type VerificationPlanInput } from '../../src/workspace/verify-plan.js';

const plan = (input: Partial<VerificationPlanInput> & { mavenArgs: string[] }) =>
  planVerification({ failingModules: [], failingTests: [], kinds: ['compile'], ...input });
const asText = (input: Partial<VerificationPlanInput> & { mavenArgs: string[] }) =>
  plan(input).map((stage) => `${stage.name}: ${stage.args.join(' ')}`);

describe('planVerification', () => {
  it('-o -q verify with a compile error in a module: compile that module first, then the full build, neither quiet', () => {
    expect(asText({ mavenArgs: ['-o', '-q', 'verify'], failingModules: ['core'] })).toEqual([
      'compile: -o -pl core -am test-compile',
      'full: -o verify',
    ]);
    expect(asText({ mavenArgs: ['--quiet', '-B', 'verify'] })).toEqual(['compile: -B test-compile', 'full: -B verify']);
  });

  it('clean install -pl a -am with a failing test: our selection replaces the user’s, tests run alone', () => {
    expect(
      asText({
        mavenArgs: ['clean', 'install', '-pl', 'a', '-am'],
        failingModules: ['a'],
        failingTests: ['com.acme.FooTest#adds', 'com.acme.FooTest#subtracts'],
        kinds: ['test'],
      }),
    ).toEqual([
      'compile: -pl a -am test-compile',
      'failing-tests: -pl a -am -Dtest=com.acme.FooTest#adds,com.acme.FooTest#subtracts -Dsurefire.failIfNoSpecifiedTests=false test',
      'full: clean verify -pl a -am',
    ]);
  });

  it('-Dtest=X test: the user’s test selection is replaced by the failing tests', () => {
    expect(asText({ mavenArgs: ['-Dtest=X', 'test'], failingTests: ['com.acme.XTest#one'], kinds: ['test'] })).toEqual([
      'compile: -Dtest=X test-compile',
      'failing-tests: -Dtest=com.acme.XTest#one -Dsurefire.failIfNoSpecifiedTests=false test',
      'full: -Dtest=X test',
    ]);
  });

  it('-f sub/pom.xml verify keeps -f in every stage (rebasing happens at run time)', () => {
    expect(asText({ mavenArgs: ['-f', 'sub/pom.xml', 'verify'], failingModules: ['m'] })).toEqual([
      'compile: -f sub/pom.xml -pl m -am test-compile',
      'full: -f sub/pom.xml verify',
    ]);
  });

  it('-T 1C, -s settings, -P and -D user properties are kept as given', () => {
    expect(asText({ mavenArgs: ['-T', '1C', '-s', 'settings.xml', '-Pci', '-Denv=x', '-B', 'verify'] })).toEqual([
      'compile: -T 1C -s settings.xml -Pci -Denv=x -B test-compile',
      'full: -T 1C -s settings.xml -Pci -Denv=x -B verify',
    ]);
  });

  it('-DskipTests and -Dmaven.test.failure.ignore do not reach the failing-tests stage', () => {
    const stages = plan({
      mavenArgs: ['-DskipTests', '-Dmaven.test.failure.ignore=true', '-D', 'surefire.failIfNoSpecifiedTests=true', 'verify'],
      failingTests: ['a.BTest#c'],
      kinds: ['test'],
    });
    expect(stages.find((s) => s.name === 'failing-tests')?.args).toEqual(['-Dtest=a.BTest#c', '-Dsurefire.failIfNoSpecifiedTests=false', 'test']);
    expect(stages.find((s) => s.name === 'compile')?.args[0]).toBe('-DskipTests');
  });

  it('the root module is selected as "." beside others', () => {
    expect(plan({ mavenArgs: ['verify'], failingModules: ['', 'core', 'core'] })[0]!.args).toEqual(['-pl', '.,core', '-am', 'test-compile']);
  });

  it('a single-module build gets no -pl', () => {
    expect(plan({ mavenArgs: ['verify'], failingModules: [''] })[0]!.args).toEqual(['test-compile']);
  });

  it('-N stays and gets no -pl; -rf is dropped when we select modules', () => {
    expect(plan({ mavenArgs: ['-N', 'verify'], failingModules: ['core'] })[0]!.args).toEqual(['-N', 'test-compile']);
    expect(plan({ mavenArgs: ['-rf', ':core', 'verify'], failingModules: ['core'] })[0]!.args).toEqual(['-pl', 'core', '-am', 'test-compile']);
  });

  it('without known modules the user’s own selection stays', () => {
    expect(plan({ mavenArgs: ['-pl', 'app', '-am', 'verify'] })[0]!.args).toEqual(['-pl', 'app', '-am', 'test-compile']);
  });

  it('mvn compile: the compile stage stops at compile and equals the full build, so only full remains', () => {
    expect(asText({ mavenArgs: ['compile'] })).toEqual(['full: compile']);
    expect(asText({ mavenArgs: ['compile'], failingModules: ['a'] })).toEqual(['compile: -pl a -am compile', 'full: compile']);
  });

  it('mvn test-compile with tests "failing": no failing-tests stage, the user never ran tests', () => {
    expect(asText({ mavenArgs: ['test-compile'], failingTests: ['a.BTest#c'], kinds: ['test'] })).toEqual(['full: test-compile']);
  });

  it('plugin goals only, or the pom’s default goal: nothing faster can be formed', () => {
    expect(asText({ mavenArgs: ['dependency:tree'] })).toEqual(['full: dependency:tree']);
    expect(asText({ mavenArgs: [], failingTests: ['a.BTest#c'], kinds: ['test'] })).toEqual(['full: ']);
  });

  it('no fixable kinds: only the full build', () => {
    expect(asText({ mavenArgs: ['verify'], kinds: [] })).toEqual(['full: verify']);
  });

  it('the full stage never writes the local repository, never deploys and never redirects the log', () => {
    expect(asText({ mavenArgs: ['-l', 'build.log', 'clean', 'deploy'], kinds: [] })).toEqual(['full: clean verify']);
    expect(asText({ mavenArgs: ['install', 'install:install-file', '-Dfile=x.jar'], kinds: [] })).toEqual(['full: verify -Dfile=x.jar']);
    expect(repositoryGoalNote(['clean', 'install'])).toBe('verification ran `verify` in place of `install`: a candidate fix never writes your local repository or publishes anything');
    expect(repositoryGoalNote(['-o', 'verify'])).toBeUndefined();
    expect(plan({ mavenArgs: ['--log-file=b.log', 'verify'] })[0]!.args).toEqual(['test-compile']);
  });

  it('is pure: the same input gives the same plan, and the input is not changed', () => {
    const input: VerificationPlanInput = { mavenArgs: ['-o', 'verify'], failingModules: ['a'], failingTests: ['x.YTest#z'], kinds: ['test'] };
    const copy = structuredClone(input);
    expect(planVerification(input)).toEqual(planVerification(input));
    expect(input).toEqual(copy);
  });

  it.each([
    [{ failingModules: ['/abs'] }, /failing module "\/abs" must be a folder relative/],
    [{ failingModules: ['../up'] }, /failing module "..\/up"/],
    [{ failingModules: ['a,b'] }, /failing module "a,b"/],
    [{ failingTests: ['not a test'] }, /failing test "not a test" is not of the form/],
    [{ failingTests: ['a.B#c,d.E#f'] }, /failing test/],
    [{ failingTests: [''] }, /failing test ""/],
    [{ kinds: ['other'] as unknown as ('compile' | 'test')[] }, /unknown failure kind "other"/],
    [{ mavenArgs: 'verify' as unknown as string[] }, /as arrays/],
    [{ mavenArgs: ['-pl'] }, /needs a value/],
  ])('bad input %j is a clear error', (bad, message) => {
    expect(() => planVerification({ mavenArgs: ['verify'], failingModules: [], failingTests: [], kinds: ['test'], ...bad })).toThrow(message);
  });

  it('bad input throws VerificationPlanError', () => {
    expect(() => plan({ mavenArgs: ['verify'], failingModules: ['..'] })).toThrow(VerificationPlanError);
  });
});
