import { describe, expect, it } from 'vitest';
import {
  failingFirstSample,
  planVerification,
  repositoryGoalNote,
  VerificationPlanError,
  type VerificationPlanInput,
} from '../../src/workspace/verify-plan.js';

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

  it('clean install -pl a -am with a failing test: our selection replaces the user’s, the failing-tests stage compiles and runs them alone', () => {
    expect(
      asText({
        mavenArgs: ['clean', 'install', '-pl', 'a', '-am'],
        failingModules: ['a'],
        failingTests: ['com.acme.FooTest#adds', 'com.acme.FooTest#subtracts'],
        kinds: ['test'],
      }),
    ).toEqual([
      'failing-tests: -pl a -am -Dtest=com.acme.FooTest#adds,com.acme.FooTest#subtracts -Dsurefire.failIfNoSpecifiedTests=false test',
      'full: clean verify -pl a -am',
    ]);
  });

  it('-Dtest=X test: the user’s test selection is replaced by the failing tests', () => {
    expect(asText({ mavenArgs: ['-Dtest=X', 'test'], failingTests: ['com.acme.XTest#one'], kinds: ['test'] })).toEqual([
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
      mavenArgs: [
        '-DskipTests',
        '-Dmaven.test.failure.ignore=true',
        '-D',
        'surefire.failIfNoSpecifiedTests=true',
        'verify',
      ],
      failingTests: ['a.BTest#c'],
      kinds: ['test'],
    });
    expect(stages.find((s) => s.name === 'failing-tests')?.args).toEqual([
      '-Dtest=a.BTest#c',
      '-Dsurefire.failIfNoSpecifiedTests=false',
      'test',
    ]);
    expect(stages.find((s) => s.name === 'compile')).toBeUndefined();
    expect(stages.find((s) => s.name === 'full')?.args[0]).toBe('-DskipTests');
  });

  it('the root module is selected as "." beside others', () => {
    expect(plan({ mavenArgs: ['verify'], failingModules: ['', 'core', 'core'] })[0]!.args).toEqual([
      '-pl',
      '.,core',
      '-am',
      'test-compile',
    ]);
  });

  it('a single-module build gets no -pl', () => {
    expect(plan({ mavenArgs: ['verify'], failingModules: [''] })[0]!.args).toEqual(['test-compile']);
  });

  it('-N stays and gets no -pl; -rf is dropped when we select modules', () => {
    expect(plan({ mavenArgs: ['-N', 'verify'], failingModules: ['core'] })[0]!.args).toEqual(['-N', 'test-compile']);
    expect(plan({ mavenArgs: ['-rf', ':core', 'verify'], failingModules: ['core'] })[0]!.args).toEqual([
      '-pl',
      'core',
      '-am',
      'test-compile',
    ]);
  });

  it('without known modules the user’s own selection stays', () => {
    expect(plan({ mavenArgs: ['-pl', 'app', '-am', 'verify'] })[0]!.args).toEqual([
      '-pl',
      'app',
      '-am',
      'test-compile',
    ]);
  });

  it('mvn compile: the compile stage stops at compile and equals the full build, so only full remains', () => {
    expect(asText({ mavenArgs: ['compile'] })).toEqual(['full: compile']);
    expect(asText({ mavenArgs: ['compile'], failingModules: ['a'] })).toEqual([
      'compile: -pl a -am compile',
      'full: compile',
    ]);
  });

  it('mvn test-compile with tests "failing": no failing-tests stage, the user never ran tests', () => {
    expect(asText({ mavenArgs: ['test-compile'], failingTests: ['a.BTest#c'], kinds: ['test'] })).toEqual([
      'full: test-compile',
    ]);
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
    expect(asText({ mavenArgs: ['install', 'install:install-file', '-Dfile=x.jar'], kinds: [] })).toEqual([
      'full: verify -Dfile=x.jar',
    ]);
    expect(repositoryGoalNote(['clean', 'install'])).toBe(
      'verification ran `verify` in place of `install`: a candidate fix never writes your local repository or publishes anything',
    );
    expect(repositoryGoalNote(['-o', 'verify'])).toBeUndefined();
    expect(plan({ mavenArgs: ['--log-file=b.log', 'verify'] })[0]!.args).toEqual(['test-compile']);
  });

  it('is pure: the same input gives the same plan, and the input is not changed', () => {
    const input: VerificationPlanInput = {
      mavenArgs: ['-o', 'verify'],
      failingModules: ['a'],
      failingTests: ['x.YTest#z'],
      kinds: ['test'],
    };
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
    expect(() =>
      planVerification({ mavenArgs: ['verify'], failingModules: [], failingTests: [], kinds: ['test'], ...bad }),
    ).toThrow(message);
  });

  it('bad input throws VerificationPlanError', () => {
    expect(() => plan({ mavenArgs: ['verify'], failingModules: ['..'] })).toThrow(VerificationPlanError);
  });
});

describe('planVerification with oneRun (the failing tests first inside the full stage)', () => {
  const failing = {
    failingModules: ['core'],
    failingTests: ['com.acme.FooTest#adds', 'com.acme.FooTest#adds'],
    kinds: ['test'] as ('compile' | 'test')[],
    oneRun: true,
  };

  it('a failing test: one stage, the user’s command, naming the tests to run first and where', () => {
    const stages = plan({ mavenArgs: ['-o', '-q', 'clean', 'verify'], ...failing });
    expect(stages).toEqual([
      {
        name: 'full',
        args: ['-o', 'clean', 'verify'],
        failingFirst: { modules: ['core'], tests: ['com.acme.FooTest#adds'] },
      },
    ]);
  });

  it('many failing tests: ten of the class with the most failures run first, the rest are named as not run first (the verdict still needs them all)', () => {
    const foo = Array.from({ length: 12 }, (_, i) => `com.acme.FooTest#case${i + 1}`);
    const bar = ['com.acme.BarTest#one', 'com.acme.BarTest#two'];
    const [stage] = plan({ mavenArgs: ['verify'], ...failing, failingTests: [...bar, ...foo, foo[0]!] });
    expect(stage!.failingFirst).toEqual({
      modules: ['core'],
      tests: foo.slice(0, 10),
      notFirst: [...bar, 'com.acme.FooTest#case11', 'com.acme.FooTest#case12'],
    });
    // Ten or fewer: all of them, in any classes.
    const few = [...bar, ...foo.slice(0, 8)];
    expect(plan({ mavenArgs: ['verify'], ...failing, failingTests: few })[0]!.failingFirst).toEqual({
      modules: ['core'],
      tests: few,
    });
    // A tie: the first class with that many.
    const tie = [
      ...bar,
      'com.acme.BazTest#a',
      'com.acme.BazTest#b',
      ...Array.from({ length: 8 }, (_, i) => `com.acme.Q${i}Test#t`),
    ];
    expect(failingFirstSample(tie)).toEqual(bar);
  });

  it('a compile error: the full stage alone (it compiles first and stops there as early)', () => {
    expect(plan({ mavenArgs: ['verify'], failingModules: ['core'], kinds: ['compile'], oneRun: true })).toEqual([
      { name: 'full', args: ['verify'] },
    ]);
  });

  it('the affected-scope form keeps its excludes file and selection', () => {
    const stages = plan({
      mavenArgs: ['clean', 'verify'],
      ...failing,
      final: { dropClean: true, excludesFile: 'target/x.txt', modules: ['core'] },
    });
    expect(stages.map((s) => [s.name, s.args.join(' '), s.failingFirst?.modules])).toEqual([
      ['full', '-pl core -am -Dsurefire.excludesFile=target/x.txt verify', ['core']],
    ]);
  });

  it.each([
    ['-Dtest=X', 'the user selects tests'],
    ['-DskipTests', 'the user skips tests'],
    ['-Dmaven.test.failure.ignore=true', 'failures would not stop the build'],
    ['-Dsurefire.failIfNoSpecifiedTests=true', 'the user sets how a selection that matches nothing ends'],
  ])('%s (%s): the staged plan, as without oneRun', (option) => {
    const staged = plan({ mavenArgs: [option, 'verify'], ...failing, oneRun: false });
    expect(plan({ mavenArgs: [option, 'verify'], ...failing })).toEqual(staged);
    expect(staged.map((s) => s.name)).toEqual(['failing-tests', 'full']);
  });

  it('no known failing module: the staged plan (there is no pom to put the tests in)', () => {
    expect(plan({ mavenArgs: ['verify'], ...failing, failingModules: [] }).map((s) => s.name)).toEqual([
      'failing-tests',
      'full',
    ]);
  });

  it('a command that runs no tests (test-compile), or no fixable kind: the plan is the same as without oneRun', () => {
    expect(plan({ mavenArgs: ['test-compile'], ...failing })).toEqual([{ name: 'full', args: ['test-compile'] }]);
    expect(plan({ mavenArgs: ['verify'], ...failing, kinds: [] })).toEqual([{ name: 'full', args: ['verify'] }]);
  });
});
