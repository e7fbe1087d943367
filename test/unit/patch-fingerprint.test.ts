import { describe, expect, it } from 'vitest';
import {
  extractEdits,
  fingerprintChangeSet,
  fingerprintProposedEdits,
  fingerprintText,
} from '../../src/patch/index.js';

const diff = (context: string, start: number, eol = '\n') =>
  [
    '```diff',
    '--- a/src/main/java/A.java',
    '+++ b/src/main/java/A.java',
    `@@ -${start},3 +${start},3 @@`,
    ` ${context}`,
    '-    int x = 1',
    '+    int x = 1;  ',
    ' }',
    '```',
  ].join(eol);

const fingerprint = (reply: string) => fingerprintProposedEdits(extractEdits(reply).edits);

describe('fingerprintProposedEdits: what a reply proposed, applied or not', () => {
  it('is the same for the same removal and replacement, whatever the context, start line, line endings or trailing blanks', () => {
    const reference = fingerprint(diff('class A {', 1));
    expect(fingerprint(diff('class B {', 7))).toBe(reference);
    expect(fingerprint(diff('class A {', 1, '\r\n').replace('int x = 1;  ', 'int x = 1;'))).toBe(reference);
    expect(reference).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs for another replacement or another file', () => {
    const reference = fingerprint(diff('class A {', 1));
    expect(fingerprint(diff('class A {', 1).replace('int x = 1;  ', 'int x = 2;'))).not.toBe(reference);
    expect(fingerprint(diff('class A {', 1).replaceAll('A.java', 'B.java'))).not.toBe(reference);
  });

  it('covers SEARCH/REPLACE blocks', () => {
    const block = (replace: string) =>
      [
        'src/main/java/A.java',
        '```java',
        '<<<<<<< SEARCH',
        '    int x = 1',
        '=======',
        replace,
        '>>>>>>> REPLACE',
        '```',
      ].join('\n');
    expect(fingerprint(block('    int x = 1;'))).toBe(fingerprint(block('    int x = 1;   ')));
    expect(fingerprint(block('    int x = 1;'))).not.toBe(fingerprint(block('    int x = 2;')));
  });

  it('is not the fingerprint of any change set, and a reply without edits is fingerprinted by its text', () => {
    expect(fingerprint(diff('class A {', 1))).not.toBe(fingerprintChangeSet({ files: [] }));
    expect(fingerprintText('The build  fails\nbecause of the network.')).toBe(
      fingerprintText('The build fails because of the network.'),
    );
    expect(fingerprintText('The build fails.')).not.toBe(fingerprintText('The test is flaky.'));
  });
});
