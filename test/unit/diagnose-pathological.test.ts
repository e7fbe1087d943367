// Pathological input stays linear: 5 MB single lines built from the text each pattern
// looks for. The quadratic `Tests run:` pattern of the old parser took minutes on the
// first one. Figures come from `npm run bench:diagnose` (its long-line section); this
// file only guards that each completes within the default test timeout.
import { describe, expect, it } from 'vitest';
import { parseMavenLog } from '../../src/diagnose/index.js';

const FIVE_MB = 5 * 1024 * 1024;
const repeat = (unit: string) => unit.repeat(Math.ceil(FIVE_MB / unit.length));

const bodies: Record<string, string> = {
  'Tests run:': repeat('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, '),
  'a failing Tests run: without <<<': repeat('Tests run: 3, Failures: 1, Errors: 0, Skipped: 0 '),
  'dotted names (console test rows, frames)': `  ${repeat('a.')}`,
  'path-like text': `/${repeat('a/')}`,
  'java paths without brackets': `/x/${repeat('A.java:')}`,
  'javadoc-like': repeat('A.java:1: error: '),
  'checkstyle-like': repeat('A.java:[1,1] (x) '),
  'spotbugs-like': `Medium: ${repeat('[a.B] At ')}`,
  'summary dots': `${repeat('x ... ')}SUCCESS`,
  quotes: repeat("'aaaa' for "),
  'CI prefixes': repeat('[2026-12-02T14:36:46.334Z] '),
};

describe('a 5 MB line of any of these finishes, whatever its level', () => {
  it.each(Object.entries(bodies))('%s', (_name, body) => {
    for (const prefix of ['[ERROR] ', '[WARNING] ', '[INFO] ', '']) {
      const result = parseMavenLog([prefix + body], { projectRoot: '/r' });
      expect(result.lineCount).toBe(1);
    }
  });
});
