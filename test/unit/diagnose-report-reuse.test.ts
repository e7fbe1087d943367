import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { collectTestResults, diagnoseBuild } from '../../src/diagnose/index.js';
import { tempDir } from '../helpers/temp-dir.js';

const report = (status: 'passed' | 'failed') => `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="demo.CalcTest" time="0.01" tests="2" errors="0" skipped="0" failures="${status === 'failed' ? 1 : 0}">
  <testcase name="adds" classname="demo.CalcTest" time="0.001"/>
  <testcase name="divides" classname="demo.CalcTest" time="0.002">${status === 'failed' ? '<failure message="expected: &lt;2&gt; but was: &lt;3&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;2&gt; but was: &lt;3&gt;\n\tat demo.CalcTest.divides(CalcTest.java:9)\n</failure>' : ''}</testcase>
</testsuite>
`;

it('reads a report again when its content changed, and gives the same answer for the same content', async () => {
  const root = await tempDir('mvnx-report-reuse-');
  await writeFile(
    path.join(root, 'pom.xml'),
    '<project><modelVersion>4.0.0</modelVersion><groupId>demo</groupId><artifactId>calc</artifactId><version>1</version></project>\n',
  );
  const reports = path.join(root, 'target/surefire-reports');
  await mkdir(reports, { recursive: true });
  const file = path.join(reports, 'TEST-demo.CalcTest.xml');
  await writeFile(file, report('failed'));
  const log = path.join(root, 'build.log');
  await writeFile(
    log,
    '[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0 <<< FAILURE! -- in demo.CalcTest\n[INFO] BUILD FAILURE\n',
  );

  // The diagnosis and the repair's baseline read the same report.
  const diagnosis = await diagnoseBuild({ projectRoot: root, logFile: log, exitCode: 1 });
  expect(diagnosis.diagnostics.map((d) => d.test)).toEqual(['demo.CalcTest#divides']);
  const first = await collectTestResults({ projectRoot: root });
  expect(first.map((t) => `${t.method} ${t.status}`)).toEqual(['adds passed', 'divides failed']);
  expect(await collectTestResults({ projectRoot: root })).toEqual(first);

  // The same file rewritten (the next build): its new content, not the first answer.
  await writeFile(file, report('passed'));
  expect((await collectTestResults({ projectRoot: root })).map((t) => `${t.method} ${t.status}`)).toEqual([
    'adds passed',
    'divides passed',
  ]);
});
