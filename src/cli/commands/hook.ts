import { realpathSync } from 'node:fs';
import { installPrePushHook, uninstallPrePushHook, type InstallResult } from '../hook/install.js';
import { DEFAULT_HOOK_GOALS, splitGoals } from '../../report/hook-script.js';
import { MvnxError } from '../../shared/errors.js';
import {
  helpAsked,
  parseSubcommandArgs,
  usageError,
  type SubcommandOption,
  type SubcommandSpec,
} from '../subcommand-args.js';

const USAGE = 'usage: mvnx hook install [--goals "-o -q verify"] [--force] | mvnx hook uninstall';

const INSTALL_ARGS = {
  command: 'mvnx hook install',
  usage: USAGE,
  options: {
    goals: { type: 'string', valueName: 'the Maven arguments, e.g. --goals "-o -q verify"' },
    force: { type: 'boolean' },
  },
} satisfies SubcommandSpec<Record<string, SubcommandOption>>;

function parseInstallArgs(args: string[]): { goals: string[]; force: boolean } {
  const { values } = parseSubcommandArgs(INSTALL_ARGS, args);
  try {
    return { goals: splitGoals(values.goals ?? DEFAULT_HOOK_GOALS), force: values.force === true };
  } catch (error) {
    throw usageError(INSTALL_ARGS, `--goals: ${(error as Error).message}`);
  }
}

/** The node script that is running mvnx now, for the hook to start the same mvnx later. */
function currentMvnxScript(): string | undefined {
  const script = process.argv[1];
  if (!script) return undefined;
  try {
    return realpathSync(script);
  } catch {
    return undefined;
  }
}

function describeInstall(result: InstallResult): string {
  const where = result.location.file;
  const lines = {
    created: `mvnx: installed the pre-push hook ${where}`,
    updated: `mvnx: updated the pre-push hook ${where}`,
    appended: `mvnx: added the mvnx block to ${where} (its existing commands run first)`,
    chained: `mvnx: installed the pre-push hook ${where}; the hook that was there is now ${result.movedTo} and runs first`,
    replaced: `mvnx: replaced the pre-push hook ${where} (--force); the old one is kept, not run, as ${result.movedTo}`,
  };
  const notes = [
    lines[result.action],
    'mvnx: bypass it once with git push --no-verify; remove it with mvnx hook uninstall',
  ];
  if (result.location.huskyNotActive)
    notes.push('mvnx: husky is not active yet (git config core.hooksPath is unset); run husky to enable .husky hooks');
  return `${notes.join('\n')}\n`;
}

/** `mvnx hook install|uninstall`: guard pushes with the build. */
export async function run(args: string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  const [action, ...rest] = args;
  if (action === undefined) throw new MvnxError(`mvnx hook: say install or uninstall; ${USAGE}`);
  if (action === '--help' || action === '-h' || action === 'help' || helpAsked(INSTALL_ARGS, rest)) {
    process.stdout.write(`${USAGE}\nWrites a git pre-push hook that runs mvnx with the goals; see docs/rollout.md.\n`);
    return 0;
  }
  if (action === 'install') {
    const script = currentMvnxScript();
    const result = await installPrePushHook({
      cwd: io.cwd,
      ...parseInstallArgs(rest),
      ...(script ? { mvnxScript: script } : {}),
    });
    process.stderr.write(describeInstall(result));
    return 0;
  }
  if (action === 'uninstall') {
    parseSubcommandArgs({ command: 'mvnx hook uninstall', usage: USAGE, options: {} }, rest);
    const result = await uninstallPrePushHook(io.cwd);
    const message =
      result.action === 'restored'
        ? `mvnx: removed the mvnx pre-push hook and put back ${result.location.file} from ${result.restoredFrom}`
        : result.action === 'block-removed'
          ? `mvnx: removed the mvnx block from ${result.location.file}`
          : `mvnx: removed the pre-push hook ${result.location.file}`;
    process.stderr.write(`${message}\n`);
    return 0;
  }
  throw new MvnxError(`mvnx hook: unknown action ${JSON.stringify(action)}; ${USAGE}`);
}
