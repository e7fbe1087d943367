/**
 * What the repetition run's results mean (issue 45): a failing test that the fix made pass
 * the first time in a JVM, and that fails when it runs again in the same JVM (each test on
 * its own, in reverse order), passes only because of what ran before it: a first-call
 * flag, a counter, a cached answer, static state. Pure. A test that did not pass the first
 * time here (the run differs from Surefire's: its arguments, its system properties) is not
 * judged: the repetition only refuses what it saw work once and then stop working.
 */

export interface RepeatedTest {
  run: 1 | 2;
  test: string;
  status: 'SUCCESSFUL' | 'FAILED' | 'ABORTED';
  why: string;
}

export interface RepeatFinding {
  test: string;
  message: string;
}

/** `failing`: the tests that failed before the fix (`Class#method`, a Surefire name or a class alone). */
export function repeatFindings(failing: readonly string[], results: readonly RepeatedTest[]): RepeatFinding[] {
  const wanted = failing.map((test) => {
    const [className, method] = test.split('#');
    return { className: className ?? '', method: method?.replace(/[([].*$/, '').trim() };
  });
  const isFailing = (test: string) => {
    const [className, method] = test.split('#');
    return wanted.some((w) => w.className === className && (w.method === undefined || w.method === method));
  };
  const findings: RepeatFinding[] = [];
  for (const first of results.filter((result) => result.run === 1 && result.status === 'SUCCESSFUL')) {
    if (!isFailing(first.test)) continue;
    const again = results.find((result) => result.run === 2 && result.test === first.test);
    if (!again || again.status !== 'FAILED') continue;
    findings.push({
      test: first.test,
      message: `${first.test} passes when it runs first and fails when it runs again in the same JVM${
        again.why ? ` (${again.why})` : ''
      }: the fix works only the first time (a first-call flag, a counter, a cached answer or other state kept between calls); fix the computation so that it gives the same answer every time`,
    });
  }
  return findings;
}
