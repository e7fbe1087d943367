import { describe, expect, it } from 'vitest';
import { MvnxError } from '../../src/shared/errors.js';
import { parseInvocation, SUBCOMMANDS } from '../../src/cli/flags.js';
import {
  cliOptions,
  closestOption as closestFlag,
  configOptions,
  OPTIONS as FLAGS,
  switchOn,
} from '../../src/shared/options.js';

function errorOf(run: () => unknown): MvnxError {
  try {
    run();
  } catch (error) {
    if (error instanceof MvnxError) return error;
    throw error;
  }
  throw new Error('expected an MvnxError');
}

describe('parseInvocation', () => {
  it('passes Maven arguments through verbatim and in order, mvnx flags removed', () => {
    const argv = [
      '-o',
      '--mvnx-tier=assist',
      '-Dkey=value with spaces',
      '-pl',
      'a,b',
      '--mvnx-no-fix',
      '-f',
      'sub dir/pom.xml',
      '--settings',
      'x',
      '-T',
      '1C',
      '-rf',
      ':module',
      'verify',
    ];
    const invocation = parseInvocation(argv);
    expect(invocation.mavenArgs).toEqual([
      '-o',
      '-Dkey=value with spaces',
      '-pl',
      'a,b',
      '-f',
      'sub dir/pom.xml',
      '--settings',
      'x',
      '-T',
      '1C',
      '-rf',
      ':module',
      'verify',
    ]);
    expect(invocation.flags).toEqual({ tier: 'assist', 'no-fix': true });
    expect(invocation.subcommand).toBeUndefined();
  });

  it('keeps quotes, empty strings and = inside values as they are', () => {
    const argv = ['-Dmsg="quoted"', "-Dq='single'", '', '-Dx=a=b', '--mvnx-config=conf=weird.json'];
    const invocation = parseInvocation(argv);
    expect(invocation.mavenArgs).toEqual(['-Dmsg="quoted"', "-Dq='single'", '', '-Dx=a=b']);
    expect(invocation.flags).toEqual({ config: 'conf=weird.json' });
  });

  it('routes a subcommand only in first position', () => {
    expect(parseInvocation(['version'])).toEqual({
      subcommand: 'version',
      subcommandArgs: [],
      flags: {},
      mavenArgs: [],
    });
    expect(parseInvocation(['explain', '--json', '--mvnx-tier=auto']).subcommandArgs).toEqual([
      '--json',
      '--mvnx-tier=auto',
    ]);
    // "help" after a phase is an argument for Maven (e.g. a plugin prefix), not mvnx's command.
    expect(parseInvocation(['-o', 'help', 'init'])).toEqual({
      subcommandArgs: [],
      flags: {},
      mavenArgs: ['-o', 'help', 'init'],
    });
  });

  it('passes everything after -- to Maven, even subcommand words and mvnx flags', () => {
    expect(parseInvocation(['--', 'help', '--mvnx-tier=auto', '--help'])).toEqual({
      subcommandArgs: [],
      flags: {},
      mavenArgs: ['help', '--mvnx-tier=auto', '--help'],
    });
    expect(parseInvocation(['--mvnx-json', '--', '-o', '--', 'verify'])).toEqual({
      subcommandArgs: [],
      flags: { json: true },
      mavenArgs: ['-o', '--', 'verify'],
    });
  });

  it('treats --help and -h as mvnx help, and leaves -v and --version to Maven', () => {
    expect(parseInvocation(['--help']).subcommand).toBe('help');
    expect(parseInvocation(['-o', '-h']).subcommand).toBe('help');
    expect(parseInvocation(['-v'])).toEqual({ subcommandArgs: [], flags: {}, mavenArgs: ['-v'] });
    expect(parseInvocation(['--version']).mavenArgs).toEqual(['--version']);
  });

  it('lets the last of a repeated flag win', () => {
    expect(parseInvocation(['--mvnx-tier=auto', '--mvnx-tier=off']).flags).toEqual({ tier: 'off' });
  });

  it('rejects an unknown flag with exit 2 and a did-you-mean', () => {
    const error = errorOf(() => parseInvocation(['--mvnx-tierr=auto', 'verify']));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('unknown flag --mvnx-tierr; did you mean --mvnx-tier? (see mvnx --help)');
    expect(errorOf(() => parseInvocation(['--mvnx-qqqqqqqq'])).message).toBe(
      'unknown flag --mvnx-qqqqqqqq (see mvnx --help)',
    );
    expect(errorOf(() => parseInvocation(['--mvnx'])).exitCode).toBe(2);
  });

  it('rejects a value flag without a value and a switch with a non-boolean value', () => {
    expect(errorOf(() => parseInvocation(['--mvnx-tier'])).message).toBe(
      'flag --mvnx-tier needs a value: --mvnx-tier=off|monitor|assist|auto',
    );
    expect(errorOf(() => parseInvocation(['--mvnx-config='])).message).toBe(
      'flag --mvnx-config needs a value: --mvnx-config=FILE',
    );
    expect(errorOf(() => parseInvocation(['--mvnx-json=maybe'])).message).toBe(
      'flag --mvnx-json is a switch: use --mvnx-json or --mvnx-json=true|false, not "maybe"',
    );
    expect(parseInvocation(['--mvnx-json=false']).flags).toEqual({ json: 'false' });
  });
});

describe('the flag table', () => {
  it('knows every flag that the config loader reads, so none is refused as unknown', () => {
    const names = FLAGS.map((flag) => flag.name);
    for (const override of configOptions()) expect(names).toContain(override.name);
  });

  it('has the contract flags and a description for each', () => {
    for (const name of [
      'tier',
      'no-fix',
      'config',
      'json',
      'model',
      'host',
      'maven',
      'verbose',
      'agent',
      'edit-format',
      'sarif',
    ]) {
      expect(FLAGS.find((flag) => flag.name === name)?.help).toBeTruthy();
    }
    expect(new Set(FLAGS.map((flag) => flag.name)).size).toBe(FLAGS.length);
    expect(SUBCOMMANDS).toEqual([
      'init',
      'doctor',
      'apply',
      'runs',
      'hook',
      'bench',
      'explain',
      'diagnose',
      'help',
      'version',
      'report',
      'tool',
      'publish',
    ]);
  });

  it('suggests the nearest flag, or a flag the name begins', () => {
    expect(closestFlag('modle')).toBe('model');
    expect(closestFlag('edit')).toBe('edit-format');
    expect(closestFlag('nofix')).toBe('no-fix');
    expect(closestFlag('zzzzzzzzzz')).toBeUndefined();
  });
});

describe('environment switches', () => {
  it('reads MVNX_JSON, MVNX_VERBOSE and MVNX_SARIF below the flags, normalised once', () => {
    expect(cliOptions({}, { MVNX_JSON: '1', MVNX_AGENT: 'no', MVNX_VERBOSE: '' })).toEqual({
      json: true,
      verbose: false,
    });
    expect(cliOptions({ json: 'false', tier: 'auto' }, { MVNX_JSON: '1' })).toEqual({ json: false, verbose: false });
    expect(cliOptions({ verbose: true }, {})).toEqual({ json: false, verbose: true });
    expect(cliOptions({}, { MVNX_DEBUG: '1' }).verbose).toBe(true);
    expect(cliOptions({}, { MVNX_SARIF: 'out.sarif' }).sarif).toBe('out.sarif');
    expect(cliOptions({ sarif: 'flag.sarif' }, { MVNX_SARIF: 'env.sarif' }).sarif).toBe('flag.sarif');
  });

  it('reads switch values', () => {
    expect(([true, 'true', 'YES', '1', 'on'] as const).map((value) => switchOn(value))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([undefined, 'false', '0', 'off', 'banana'].map((value) => switchOn(value))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
