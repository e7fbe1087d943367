/**
 * Maven facts, declared once: the options of Maven's command line (which take a value,
 * and what each is for) and the lifecycle phases. The command-line reader
 * (maven/args.ts), the policy's goal triggers, verification's rewrite of the user's
 * command and the diagnosis's phase hints all read these tables.
 */

export type OptionRole =
  /** Reactor selection: replaced when verification picks its own modules. */
  | 'selection'
  /** A file the option names: rebased into the workspace. */
  | 'path'
  | 'property'
  /** Redirects Maven's output away from the capture verification reads. */
  | 'log-file'
  | 'other';

export interface MavenOptionSpec {
  short?: string;
  long: string;
  takesValue: boolean;
  role: OptionRole;
}

/** Maven 3.8/3.9 options (`mvn --help`). */
export const MAVEN_OPTIONS: readonly MavenOptionSpec[] = [
  { short: 'am', long: 'also-make', takesValue: false, role: 'selection' },
  { short: 'amd', long: 'also-make-dependents', takesValue: false, role: 'selection' },
  { short: 'pl', long: 'projects', takesValue: true, role: 'selection' },
  { short: 'rf', long: 'resume-from', takesValue: true, role: 'selection' },
  { short: 'N', long: 'non-recursive', takesValue: false, role: 'other' },
  { short: 'f', long: 'file', takesValue: true, role: 'path' },
  { short: 's', long: 'settings', takesValue: true, role: 'path' },
  { short: 'gs', long: 'global-settings', takesValue: true, role: 'path' },
  { short: 't', long: 'toolchains', takesValue: true, role: 'path' },
  { short: 'gt', long: 'global-toolchains', takesValue: true, role: 'path' },
  { short: 'l', long: 'log-file', takesValue: true, role: 'log-file' },
  { short: 'D', long: 'define', takesValue: true, role: 'property' },
  { short: 'P', long: 'activate-profiles', takesValue: true, role: 'other' },
  { short: 'T', long: 'threads', takesValue: true, role: 'other' },
  { short: 'b', long: 'builder', takesValue: true, role: 'other' },
  { long: 'color', takesValue: true, role: 'other' },
  { short: 'emp', long: 'encrypt-master-password', takesValue: true, role: 'other' },
  { short: 'ep', long: 'encrypt-password', takesValue: true, role: 'other' },
  { short: 'B', long: 'batch-mode', takesValue: false, role: 'other' },
  { short: 'C', long: 'strict-checksums', takesValue: false, role: 'other' },
  { short: 'c', long: 'lax-checksums', takesValue: false, role: 'other' },
  { short: 'cpu', long: 'check-plugin-updates', takesValue: false, role: 'other' },
  { short: 'e', long: 'errors', takesValue: false, role: 'other' },
  { short: 'fae', long: 'fail-at-end', takesValue: false, role: 'other' },
  { short: 'ff', long: 'fail-fast', takesValue: false, role: 'other' },
  { short: 'fn', long: 'fail-never', takesValue: false, role: 'other' },
  { short: 'h', long: 'help', takesValue: false, role: 'other' },
  { short: 'llr', long: 'legacy-local-repository', takesValue: false, role: 'other' },
  { short: 'npr', long: 'no-plugin-registry', takesValue: false, role: 'other' },
  { short: 'npu', long: 'no-plugin-updates', takesValue: false, role: 'other' },
  { short: 'nsu', long: 'no-snapshot-updates', takesValue: false, role: 'other' },
  { short: 'ntp', long: 'no-transfer-progress', takesValue: false, role: 'other' },
  { short: 'o', long: 'offline', takesValue: false, role: 'other' },
  { short: 'q', long: 'quiet', takesValue: false, role: 'other' },
  { short: 'U', long: 'update-snapshots', takesValue: false, role: 'other' },
  { short: 'up', long: 'update-plugins', takesValue: false, role: 'other' },
  { short: 'v', long: 'version', takesValue: false, role: 'other' },
  { short: 'V', long: 'show-version', takesValue: false, role: 'other' },
  { short: 'X', long: 'debug', takesValue: false, role: 'other' },
];

/** The default lifecycle, in order (Maven 3.8/3.9). */
export const DEFAULT_LIFECYCLE = [
  'validate',
  'initialize',
  'generate-sources',
  'process-sources',
  'generate-resources',
  'process-resources',
  'compile',
  'process-classes',
  'generate-test-sources',
  'process-test-sources',
  'generate-test-resources',
  'process-test-resources',
  'test-compile',
  'process-test-classes',
  'test',
  'prepare-package',
  'package',
  'pre-integration-test',
  'integration-test',
  'post-integration-test',
  'verify',
  'install',
  'deploy',
] as const;

export const CLEAN_LIFECYCLE = ['pre-clean', 'clean', 'post-clean'] as const;
export const SITE_LIFECYCLE = ['pre-site', 'site', 'post-site', 'site-deploy'] as const;

/** Every phase of the three built-in lifecycles. */
export const LIFECYCLE_PHASES: readonly string[] = [...DEFAULT_LIFECYCLE, ...CLEAN_LIFECYCLE, ...SITE_LIFECYCLE];

/** A phase's position in the default lifecycle, -1 when it is not one of its phases. */
export function defaultPhaseIndex(phase: string): number {
  return (DEFAULT_LIFECYCLE as readonly string[]).indexOf(phase);
}
