import { describe, expect, it } from 'vitest';
import { helpAsked, parseSubcommandArgs } from '../../src/cli/subcommand-args.js';
import { MvnxError, EXIT } from '../../src/shared/errors.js';

const SPEC = {
  command: 'mvnx thing',
  usage: 'usage: mvnx thing FILE [--json] [--reports DIR] [--force|-f]',
  options: {
    json: { type: 'boolean' },
    force: { type: 'boolean', short: 'f' },
    reports: { type: 'string', valueName: 'a folder' },
    goals: { type: 'string', short: 'g' },
  },
  maxPositionals: 1,
  tooMany: (files: string[]) => `one file at a time, got ${files[0]} and ${files[1]}`,
} as const;

const errorOf = (args: string[]): MvnxError => {
  try {
    parseSubcommandArgs(SPEC, args);
  } catch (error) {
    return error as MvnxError;
  }
  throw new Error(`no error for ${JSON.stringify(args)}`);
};

describe('subcommand arguments (node:util parseArgs behind one shape)', () => {
  it('reads options in every spelling and positionals, stdin dash included', () => {
    expect(parseSubcommandArgs(SPEC, ['--reports=out', 'a.log', '-f', '--json'])).toEqual({
      values: { reports: 'out', force: true, json: true },
      positionals: ['a.log'],
    });
    expect(parseSubcommandArgs(SPEC, ['--reports', 'out', '-'])).toEqual({
      values: { reports: 'out' },
      positionals: ['-'],
    });
    expect(parseSubcommandArgs(SPEC, ['-g', 'verify', '--goals=-o verify']).values.goals).toBe('-o verify');
  });

  it('reports every bad argument one way: the command, what is wrong, the usage, exit 2', () => {
    const unknown = errorOf(['a.log', '--frobnicate']);
    expect(unknown).toBeInstanceOf(MvnxError);
    expect(unknown.exitCode).toBe(EXIT.usage);
    expect(unknown.message).toBe(`mvnx thing: unknown argument --frobnicate; ${SPEC.usage}`);
    expect(errorOf(['a.log', '--reports']).message).toBe(`mvnx thing: --reports needs a folder; ${SPEC.usage}`);
    expect(errorOf(['--reports=', 'a.log']).message).toBe(`mvnx thing: --reports needs a folder; ${SPEC.usage}`);
    expect(errorOf(['--reports', '--json']).message).toBe(`mvnx thing: --reports needs a folder; ${SPEC.usage}`);
    expect(errorOf(['-g']).message).toBe(`mvnx thing: --goals needs a value; ${SPEC.usage}`);
    expect(errorOf(['--json=yes']).message).toBe(`mvnx thing: --json takes no value; ${SPEC.usage}`);
    expect(errorOf(['a.log', 'b.log']).message).toBe(
      `mvnx thing: one file at a time, got a.log and b.log; ${SPEC.usage}`,
    );
    expect(errorOf(['-x']).message).toBe(`mvnx thing: unknown argument -x; ${SPEC.usage}`);
  });

  it('takes a separate value that starts with a dash (strict parseArgs alone refuses it)', () => {
    expect(parseSubcommandArgs(SPEC, ['--goals', '-o -q verify']).values.goals).toBe('-o -q verify');
    expect(parseSubcommandArgs(SPEC, ['-g', '-q']).values.goals).toBe('-q');
    expect(parseSubcommandArgs(SPEC, ['--goals', '--mvnx-tier=off verify', '-f']).values).toEqual({
      goals: '--mvnx-tier=off verify',
      force: true,
    });
    // One of the command's own options is not a value: the value is missing.
    expect(errorOf(['--goals', '-f']).message).toBe(`mvnx thing: --goals needs a value; ${SPEC.usage}`);
    expect(errorOf(['--goals', '--reports=out']).message).toBe(`mvnx thing: --goals needs a value; ${SPEC.usage}`);
    // After `--` nothing is joined or read as an option.
    expect(parseSubcommandArgs(SPEC, ['--', '--goals']).positionals).toEqual(['--goals']);
  });

  it('reads --mvnx-NAME flags with the option table when the command takes them', () => {
    const spec = {
      command: 'mvnx look',
      usage: 'usage: mvnx look [--json] [--mvnx-NAME=VALUE ...]',
      options: { json: { type: 'boolean' } },
      mvnxFlags: true,
    } as const;
    expect(parseSubcommandArgs(spec, ['--mvnx-tier=auto', '--json', '--mvnx-agent'])).toEqual({
      values: { json: true },
      positionals: [],
      flags: { tier: 'auto', agent: true },
    });
    expect(() => parseSubcommandArgs(spec, ['--mvnx-tire=auto'])).toThrow(
      `mvnx look: unknown flag --mvnx-tire; did you mean --mvnx-tier? (see mvnx --help); ${spec.usage}`,
    );
    expect(() => parseSubcommandArgs(spec, ['--mvnx-config'])).toThrow(
      `mvnx look: flag --mvnx-config needs a value: --mvnx-config=FILE; ${spec.usage}`,
    );
    // Without mvnxFlags a --mvnx flag is an unknown argument like any other.
    expect(errorOf(['--mvnx-tier=auto']).message).toBe(`mvnx thing: unknown argument --mvnx-tier; ${SPEC.usage}`);
  });

  it('sees --help only where it is not a value', () => {
    expect(helpAsked(SPEC, ['a.log', '--help'])).toBe(true);
    expect(helpAsked(SPEC, ['-h'])).toBe(true);
    expect(helpAsked(SPEC, ['--goals', '-h'])).toBe(false);
    expect(helpAsked(SPEC, ['--', '--help'])).toBe(false);
  });
});
