/**
 * `mvnx init [--preset NAME] [--force]`: writes a commented starter `.mvnxrc.yaml` in the
 * project root. It never replaces an existing config without --force.
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findProjectRootAbove } from '../../maven/project.js';
import { projectJavaRelease } from '../../maven/settings.js';
import { suggestedImage } from '../../workspace/container.js';
import { SEARCH_PLACES } from '../../policy/config-discovery.js';
import { PRESET_NAMES } from '../../policy/extends.js';
import { closestMatch } from '../../shared/similar.js';
import { helpAsked, parseSubcommandArgs, type SubcommandOption, type SubcommandSpec } from '../subcommand-args.js';

export interface CommandIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const FILE_NAME = '.mvnxrc.yaml';

export async function run(args: string[], io: CommandIo): Promise<number> {
  if (helpAsked(ARGS, args)) {
    process.stdout.write(
      `${ARGS.usage}\nWrites a commented ${FILE_NAME} in the project root, starting from the preset (default assist).\n`,
    );
    return 0;
  }
  const parsed = parseArgs(args);
  if ('error' in parsed) return fail(parsed.error);
  const root = await findProjectRootAbove(io.cwd);
  const target = path.join(root, FILE_NAME);
  const existing = await existingConfigs(root);
  if (existing.length > 0 && !parsed.force) {
    return fail(`mvnx init: ${existing.join(', ')} already exists in ${root}; use --force to overwrite ${FILE_NAME}`);
  }
  const pom = await readFile(path.join(root, 'pom.xml'), 'utf8').catch(() => '');
  await writeFile(target, starterConfig(parsed.preset, suggestedImage(projectJavaRelease(pom))));
  process.stdout.write(`mvnx: wrote ${target} (preset ${parsed.preset})\n`);
  const shadowing = existing.filter((name) => SEARCH_PLACES.indexOf(name) < SEARCH_PLACES.indexOf(FILE_NAME));
  if (shadowing.length > 0)
    process.stderr.write(
      `mvnx: note: ${shadowing.join(', ')} is found first and still wins; remove it to use ${FILE_NAME}\n`,
    );
  return 0;
}

const ARGS = {
  command: 'mvnx init',
  usage: `usage: mvnx init [--preset ${PRESET_NAMES.join('|')}] [--force]`,
  options: {
    preset: { type: 'string', valueName: 'a name (--preset assist)' },
    force: { type: 'boolean', short: 'f' },
  },
} satisfies SubcommandSpec<Record<string, SubcommandOption>>;

function parseArgs(args: readonly string[]): { preset: string; force: boolean } | { error: string } {
  let values;
  try {
    ({ values } = parseSubcommandArgs(ARGS, args));
  } catch (error) {
    return { error: (error as Error).message };
  }
  const preset = values.preset ?? 'assist';
  const force = values.force === true;
  if (!(PRESET_NAMES as readonly string[]).includes(preset)) {
    const guess = closestMatch(preset, PRESET_NAMES);
    return {
      error: `mvnx init: unknown preset "${preset}"${guess ? ` (did you mean "${guess}"?)` : ''}; expected one of ${PRESET_NAMES.join(', ')}`,
    };
  }
  return { preset, force };
}

async function existingConfigs(root: string): Promise<string[]> {
  const found = await Promise.all(
    SEARCH_PLACES.map(async (place) => {
      try {
        await access(path.join(root, place));
        return place;
      } catch {
        return undefined;
      }
    }),
  );
  return found.filter((place): place is string => place !== undefined);
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}

/**
 * The schema the starter file names: the installed package's own copy, as the README says
 * (the npm name `mvnx` on a public CDN serves another package). A global install maps it in
 * the editor's settings instead (README, Configuration).
 */
export const STARTER_SCHEMA = './node_modules/mvnx/schema.json';

/** The starter file: the preset plus the settings teams change first, commented out. */
export function starterConfig(preset: string, image = suggestedImage(undefined)): string {
  return `# yaml-language-server: $schema=${STARTER_SCHEMA}
#
# mvnx configuration. Every field and its default: docs/config.md in the mvnx package, or \`mvnx explain\`
# to see the effective values and where each one comes from.
# Precedence, lowest first: defaults < extends < this file < MVNX_* env < --mvnx-* flags.

# Bases: a preset (monitor, assist, auto, enterprise-tiered), a relative file or an npm
# package. Rules append to the base's rules, other values override them.
extends: ${preset}

# What mvnx does with a verified fix: off | monitor (record) | assist (suggest) | auto (apply).
# tier: ${preset === 'enterprise-tiered' ? 'assist' : preset}

# Map parts of the code base to tiers. Later rules win for a path; when a patch touches
# several paths, the strictest tier wins.
# rules:
#   - paths: ['src/main/java/com/acme/payments/**']
#     tier: monitor
#   - paths: ['**/*Test.java']
#     tier: auto

# Files a patch may never touch (added to the defaults: pom.xml, .mvn/**, CI files, ...).
# protectedPaths:
#   - 'src/main/resources/application-prod.properties'

# Your team's coding rules, passed to the model (text, or {file: path}).
# guidelines:
#   file: docs/coding-guidelines.md

# model:
#   name: qwen2.5-coder:7b
#   host: http://127.0.0.1:11434

# budget:
#   maxAttempts: 3
#   maxWallSeconds: 300

# Isolation of verification builds (a candidate fix runs arbitrary code): auto uses
# bubblewrap, then podman, then docker; without any, builds run unisolated, mvnx says so
# on every run and auto does not apply fixes. Where bubblewrap cannot run (macOS, CI
# runners without user namespaces), a container image matching this project's JDK:
# sandbox:
#   mode: docker
#   image: ${image}
#   env:
#     pass: [DB_URL]   # variables the build needs; none else reaches it
`;
}
