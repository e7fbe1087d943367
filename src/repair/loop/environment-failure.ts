/**
 * A verification build that failed because of the machine, not the candidate: the disk or
 * the temp folder is full, the JVM could not get memory, a test fork was killed from
 * outside. Such a build says nothing about the fix, and every other candidate would fail
 * the same way, so the loop stops with this reason instead of trying the next one.
 */
import type { Diagnosis } from '../../diagnose/types.js';

const SIGNS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /No space left on device|ENOSPC/i, what: 'no space left on device' },
  { pattern: /Disk quota exceeded|EDQUOT/i, what: 'disk quota exceeded' },
  { pattern: /Read-only file system|EROFS/, what: 'a read-only file system' },
  {
    pattern: /Cannot allocate memory|insufficient memory for the Java Runtime|Could not reserve enough space/i,
    what: 'not enough memory to start a JVM',
  },
  { pattern: /Too many open files|EMFILE/, what: 'too many open files' },
  {
    // Surefire's own words, and the diagnosis's (diagnose/ reads surefire's "Process Exit Code" into "exit code").
    pattern:
      /Process Exit Code: 137|forked VM terminated.*(killed|signal 9)|JVM died\b.*\(exit code 137\)|killed by SIGKILL/i,
    what: 'a test JVM killed from outside',
  },
];

/** What of the machine failed the build, in words, with the line that shows it; undefined when nothing did. */
export function environmentFailure(diagnosis: Diagnosis | undefined, message?: string): string | undefined {
  const lines = [
    ...(message ? [message] : []),
    ...(diagnosis?.diagnostics ?? []).flatMap((d) => [d.message, ...(d.details ?? [])]),
  ];
  for (const { pattern, what } of SIGNS) {
    const line = lines.find((text) => pattern.test(text));
    if (line) return `${what} (${line.trim().slice(0, 200)})`;
  }
  return undefined;
}
