/**
 * Issue 25 part 4: a failure raised inside a test helper or a shared assertion points the
 * model at the failing test's own line (the helper's frames stay as context), and a
 * Surefire message reaches the prompt decoded. The report is the one Surefire 3.2.5 wrote
 * for test/fixtures/repair/trust-shapes (its machine properties left out).
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSurefireReport } from '../../src/diagnose/surefire.js';
import { sourceResolver, testCaseDiagnostic } from '../../src/diagnose/test-reports.js';
import { renderDiagnostic } from '../../src/model/prompts/repair-request.js';
import { repairFixtures, repoRoot } from '../helpers/repair-project.js';

const SHAPES = path.join(repairFixtures, 'trust-shapes');
const REPORT = path.join(repoRoot, 'test/fixtures/integrity/TEST-com.acme.pricing.PricingTest.xml');

async function diagnostics() {
  const { cases, warnings } = parseSurefireReport(
    await readFile(REPORT, 'utf8'),
    'pricing/target/surefire-reports/TEST-com.acme.pricing.PricingTest.xml',
  );
  expect(warnings).toEqual([]);
  const resolve = sourceResolver(SHAPES, 'pricing', new Map(), ['testkit']);
  const failed = cases.filter((c) => c.status === 'failed');
  return new Map(
    failed.map((c) => [c.method, testCaseDiagnostic({ ...c, moduleDir: 'pricing', reportFile: 'r.xml' }, resolve)]),
  );
}

describe('a failure raised in a helper points at the failing test', () => {
  it('a helper method of the test class: the test line, the helper frame kept as context', async () => {
    const d = (await diagnostics()).get('tenPercentOff')!;
    expect([d.file, d.line]).toEqual(['pricing/src/test/java/com/acme/pricing/PricingTest.java', 15]);
    expect(d.testFailure?.frames?.map((f) => `${f.method}:${f.line}`)).toEqual(['assertPrice:39', 'tenPercentOff:15']);
  });

  it('a shared utility in the test sources, and a custom assertion of a test-support module under src/main', async () => {
    const all = await diagnostics();
    expect([all.get('quarterOff')!.file, all.get('quarterOff')!.line]).toEqual([
      'pricing/src/test/java/com/acme/pricing/PricingTest.java',
      20,
    ]);
    const bulk = all.get('bulkOrder')!;
    expect([bulk.file, bulk.line]).toEqual(['pricing/src/test/java/com/acme/pricing/PricingTest.java', 25]);
    expect(bulk.testFailure?.frames?.[0]).toMatchObject({
      file: 'testkit/src/main/java/com/acme/testkit/MoneyAssert.java',
      method: 'assertCents',
      line: 12,
    });
  });

  it('an exception thrown by main code keeps its own place', () => {
    const resolve = (frame: { className: string }) =>
      frame.className.startsWith('com.acme.')
        ? `src/${frame.className.endsWith('Test') ? 'test' : 'main'}/java/${frame.className.replace(/\./g, '/')}.java`
        : undefined;
    const d = testCaseDiagnostic(
      {
        className: 'com.acme.PricingTest',
        method: 'rounds',
        reportedName: 'rounds',
        status: 'error',
        failure: {
          outcome: 'error',
          type: 'java.lang.ArithmeticException',
          message: '/ by zero',
          stackTrace:
            'java.lang.ArithmeticException: / by zero\n\tat com.acme.Pricing.rate(Pricing.java:9)\n\tat com.acme.PricingTest.check(PricingTest.java:30)\n\tat com.acme.PricingTest.rounds(PricingTest.java:12)',
        },
        moduleDir: '',
        reportFile: 'r.xml',
      },
      resolve,
    );
    expect([d.file, d.line]).toEqual(['src/main/java/com/acme/Pricing.java', 9]);
  });
});

describe('Surefire messages are decoded fully', () => {
  it('numeric character references (&#10;) and the named ones, in the message and the trace', async () => {
    const receipt = (await diagnostics()).get('receiptShowsTheDiscountedTotal')!;
    const prompt = renderDiagnostic(receipt, 0);
    expect(prompt).not.toMatch(/&#\d+;|&lt;|&gt;/);
    expect(prompt).toContain('expected: <tea 10.00');
    expect(prompt).toContain('total 9.00');
    expect((await diagnostics()).get('bulkOrder')!.message).toBe(
      'expected 45.00 but was 49.50 ==> expected: <4500> but was: <4950>',
    );
  });

  it('decodes in one pass: an escaped ampersand stays a reference, hexadecimal ones are read', () => {
    const xml =
      '<testsuite name="S"><testcase name="t" classname="C"><failure message="a&#x3C;b &amp;#10; c&#9;d" type="T">T: x</failure></testcase></testsuite>';
    expect(parseSurefireReport(xml, 'r.xml').cases[0]!.failure!.message).toBe('a<b &#10; c\td');
  });
});
