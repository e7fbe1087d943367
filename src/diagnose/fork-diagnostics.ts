/**
 * A test JVM that died or hung -> a diagnostic that says what happened. When the class
 * that was running is known (Surefire's "Crashed tests:", the last `Running X` without a
 * result, or a dump file), a System.exit, a crash without a JVM error file, or a fork
 * timeout is a `test` failure of that class: code can cause each, and the failing-tests
 * stage can re-run exactly that class. Running out of memory, a kill by signal and a
 * JVM fatal error are not code failures: they keep the category `jvm-crash`, with a
 * reason that names the cause and the next step.
 */
import { diagnosticFingerprint } from './fingerprint.js';
import type { Diagnostic, ForkFailure } from './types.js';

export interface ForkInput {
  failures: ForkFailure[];
  /** Root-relative test source of a class in a module, when it exists. */
  testFile?(module: string | undefined, className: string): string | undefined;
  /** A class a dump file names, per module ('' when the module is unknown). */
  dumpClasses?: Record<string, string>;
}

function finish(d: Omit<Diagnostic, 'fingerprint'>): Diagnostic {
  const out = { ...d, fingerprint: '' };
  out.fingerprint = diagnosticFingerprint(out);
  return out;
}

const SIGNALS: Record<number, string> = { 134: 'SIGABRT', 137: 'SIGKILL', 139: 'SIGSEGV' };

export function forkDiagnostics(input: ForkInput): Diagnostic[] {
  return input.failures.map((failure) => {
    const className =
      failure.classes[0] ?? failure.lastRunning ?? input.dumpClasses?.[failure.module ?? ''] ?? input.dumpClasses?.[''];
    const where = className ? ` while running ${className}` : '';
    const module = failure.module ? { module: failure.module } : {};
    const signal = failure.exitCode !== undefined ? SIGNALS[failure.exitCode] : undefined;

    if (failure.kind === 'out-of-memory') {
      return finish({
        kind: 'other',
        category: 'jvm-crash',
        fixable: false,
        message: `the test JVM ran out of memory (${failure.detail ?? 'OutOfMemoryError'})${where}`,
        reason: `the test JVM ran out of memory${where}; raise -Xmx in Surefire's argLine (or MAVEN_OPTS for an unforked run), or make the test hold less`,
        ...module,
      });
    }
    if (failure.fatalErrorFile || signal) {
      const cause = failure.fatalErrorFile
        ? 'the JVM itself crashed (an hs_err_pid file was written)'
        : `it was killed by ${signal}${failure.exitCode === 137 ? ", usually the machine's out-of-memory killer" : ''}`;
      return finish({
        kind: 'other',
        category: 'jvm-crash',
        fixable: false,
        message: `the test JVM died${where} (exit code ${failure.exitCode ?? 'unknown'})`,
        reason: `the test JVM died${where}: ${cause}; give the build more memory or fewer forks (forkCount), or read the hs_err file`,
        ...module,
      });
    }
    const what =
      failure.kind === 'timeout'
        ? `the test JVM was stopped by Surefire's fork timeout (forkedProcessTimeoutInSeconds)${where}: a hang or an endless loop`
        : failure.kind === 'exit'
          ? `the test JVM exited${failure.exitCode !== undefined ? ` with code ${failure.exitCode}` : ''}${where} without reporting: System.exit in the code under test, or a crash`
          : `the test JVM failed${where}: ${failure.detail ?? 'an error in the forked process'}`;
    if (!className) {
      return finish({
        kind: 'test',
        category: 'test',
        fixable: false,
        message: what,
        reason: `${failure.kind === 'timeout' ? 'a test JVM hit the fork timeout' : 'a test JVM died'} and neither the log nor a dump file names the test that was running; re-run without -q, or keep target/surefire-reports/*.dump*`,
        ...module,
      });
    }
    const file = input.testFile?.(failure.module, className);
    return finish({
      kind: 'test',
      category: 'test',
      fixable: true,
      message: what,
      ...(file ? { file } : {}),
      ...module,
      test: className,
    });
  });
}

/** A test class named in a Surefire dump file: a running test's frame, or `Running X`. */
export function classFromDump(text: string): string | undefined {
  const running = /(?:^|\n)\s*Running ([\w$.]+)\s*(?:\n|$)/.exec(text)?.[1];
  if (running) return running;
  for (const line of text.split(/\r?\n/, 5_000)) {
    const frame = /^\s*at (?:[^\s(]*\/)?([\w$.]+)\.[\w$<>-]+\(/.exec(line);
    const name = frame?.[1]?.split('$')[0];
    if (name && /(?:Test|Tests|IT|ITCase|TestCase|Spec)$/.test(name.slice(name.lastIndexOf('.') + 1))) return name;
  }
  return undefined;
}
