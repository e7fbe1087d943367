/**
 * test-side-changed, as a table: while tests fail, every change on the test side is a
 * finding named by what happened to the file. The places inside a file, the poms' roots,
 * the compile-error exception and the reason's read-only sentence are in
 * test/unit/integrity-test-side-rule.test.ts and its -edges file.
 */
import { describe, expect, it } from 'vitest';
import { testSideChanged } from '../../../../../src/repair/integrity/rules/test-side-changed.js';
import { runRule, testIntegrityRule } from '../../../../helpers/integrity-rule-tester.js';

const FAILING = ['com.acme.PriceTest#discount'];
const RESOURCE = 'src/test/resources/expected/receipt.txt';
const lines = (...texts: string[]) => `${texts.join('\n')}\n`;

describe('test-side-changed: what a test-side change is called', () => {
  testIntegrityRule(testSideChanged, [
    {
      name: 'an added file',
      failing: FAILING,
      files: [{ path: RESOURCE, before: null, after: 'total 9.90\n' }],
      findings: [{ file: RESOURCE, failingTestEdit: true, message: `added ${RESOURCE} (test sources and resources)` }],
    },
    {
      name: 'a deleted file',
      failing: FAILING,
      files: [{ path: RESOURCE, before: 'total 9.00\n', after: null }],
      findings: [{ file: RESOURCE, message: `deleted ${RESOURCE} (test sources and resources)` }],
    },
    {
      name: 'a binary file',
      failing: FAILING,
      files: [{ path: 'src/test/resources/logo.png', before: 'a', after: 'b', binary: true }],
      findings: [
        {
          file: 'src/test/resources/logo.png',
          message: 'changed src/test/resources/logo.png (test sources and resources)',
        },
      ],
    },
    {
      name: 'a file moved on the test side',
      failing: FAILING,
      files: [
        {
          path: 'src/test/resources/expected/tea.txt',
          oldPath: RESOURCE,
          before: 'total 9.00\n',
          after: 'total 9.00\n',
        },
      ],
      findings: [
        {
          file: 'src/test/resources/expected/tea.txt',
          message: `changed src/test/resources/expected/tea.txt (test sources and resources) (moved from ${RESOURCE}) (white space only)`,
        },
      ],
    },
    {
      // The old path is on it, so the move is refused all the same.
      name: 'a file moved off the test side',
      failing: FAILING,
      files: [{ path: 'docs/receipt.txt', oldPath: RESOURCE, before: 'total 9.00\n', after: 'total 9.90\n' }],
      findings: [
        {
          file: 'docs/receipt.txt',
          message: `changed docs/receipt.txt (test sources and resources) (moved from ${RESOURCE}): line 1: \`total 9.00\` became \`total 9.90\``,
        },
      ],
    },
    {
      name: 'white space only',
      failing: FAILING,
      files: [{ path: RESOURCE, before: 'total  9.00\n', after: 'total 9.00\n' }],
      findings: [{ file: RESOURCE, message: `changed ${RESOURCE} (test sources and resources) (white space only)` }],
    },
    {
      name: 'the mode only',
      failing: FAILING,
      files: [
        {
          path: 'src/test/resources/run.sh',
          before: 'exit 0\n',
          after: 'exit 0\n',
          oldMode: '100644',
          newMode: '100755',
        },
      ],
      findings: [
        {
          file: 'src/test/resources/run.sh',
          message: 'changed src/test/resources/run.sh (test sources and resources) (its mode)',
        },
      ],
    },
    {
      name: 'the line of the first change is recorded with the finding',
      failing: FAILING,
      files: [{ path: RESOURCE, before: lines('a', 'b', 'c'), after: lines('a', 'b', 'C') }],
      findings: [{ file: RESOURCE, line: 3, failingTestEdit: true }],
    },
    {
      name: 'no test failing: the test side is not read-only',
      failing: [],
      files: [{ path: RESOURCE, before: 'total 9.00\n', after: 'total 9.90\n' }],
      findings: [],
    },
  ]);

  it('an added file has no line', () => {
    expect(
      runRule(testSideChanged, { failing: FAILING, files: [{ path: RESOURCE, before: null, after: 'x\n' }] })[0]!.line,
    ).toBeUndefined();
  });
});
