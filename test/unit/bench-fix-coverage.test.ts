import { describe, expect, it } from 'vitest';
import { fixCoverage, javaIdentifiers, parseFixHunks } from '../../src/bench/fix-coverage.js';

const PATCH = [
  'diff --git a/src/main/java/com/acme/json/OptionalIntReader.java b/src/main/java/com/acme/json/OptionalIntReader.java',
  '--- a/src/main/java/com/acme/json/OptionalIntReader.java',
  '+++ b/src/main/java/com/acme/json/OptionalIntReader.java',
  '@@ -11,7 +11,7 @@ public class OptionalIntReader extends BaseOptionalReader<OptionalInt> {',
  '         if (trimmed.isEmpty()) {',
  '-            return (OptionalInt) _fromEmptyValue(ctxt);',
  '+            return (OptionalInt) _fromEmptyString(ctxt);',
  '         }',
  '@@ -30,4 +30,5 @@',
  '         } else if (score >= 75) {',
  '             return "B";',
  '         }',
  '+        return Integer.parseInt("C");',
  '     }',
].join('\n');

describe('fixCoverage', () => {
  it('needs the removed lines, the line an insertion follows and the project identifiers the fix introduces', () => {
    const project = new Set(['_fromEmptyString', 'OptionalInt', 'ctxt']);
    const prompt =
      '  14 |             return (OptionalInt) _fromEmptyValue(ctxt);\n  31 |             return "B";\n  32 |         }\n  17 |     protected Object _fromEmptyString(ReadContext ctxt) {';
    expect(fixCoverage(PATCH, prompt, project)).toEqual({
      items: [
        { kind: 'line', text: 'return (OptionalInt) _fromEmptyValue(ctxt);', found: true },
        { kind: 'anchor', text: 'return "B";', found: true },
        { kind: 'identifier', text: '_fromEmptyString', found: true },
      ],
      complete: true,
    });
  });

  it('reports what the prompt lacks; a `}` anchor or a JDK name is not asked for', () => {
    const coverage = fixCoverage(PATCH, '```\nnothing relevant\n```', new Set(['_fromEmptyString']));
    expect(coverage.complete).toBe(false);
    expect(coverage.items.filter((item) => !item.found).map((item) => item.text)).toEqual([
      'return (OptionalInt) _fromEmptyValue(ctxt);',
      'return "B";',
      '_fromEmptyString',
    ]);
  });

  it('asks for the anchor of a pure insertion when it says something', () => {
    const insertion =
      '--- a/A.java\n+++ b/A.java\n@@ -1,2 +1,3 @@\n     int total = 0;\n+    total++;\n     return total;\n';
    expect(fixCoverage(insertion, '5 |     int total = 0;', new Set(['total'])).items).toEqual([
      { kind: 'anchor', text: 'int total = 0;', found: true },
      { kind: 'identifier', text: 'total', found: true },
    ]);
    expect(parseFixHunks(insertion)).toEqual([{ removed: [], added: ['    total++;'], anchor: '    int total = 0;' }]);
    // Past a closing brace to the line that places it.
    const afterBrace = '@@ -7,5 +7,6 @@\n             return "B";\n         }\n+        return "C";\n     }\n';
    expect(parseFixHunks(afterBrace)[0]!.anchor).toBe('            return "B";');
  });

  it('takes identifiers from code, not from strings, comments, keywords or package names', () => {
    expect([...javaIdentifiers('return "a b" + x; // note\n/* y */ int z = \'q\';')]).toEqual(['x', 'z']);
    expect([
      ...javaIdentifiers(
        'import java.time.LocalDate;\nimport static org.junit.Assert.*;\nvar d = java.time.LocalDate.of(2024, 1, 2);\nmoney.total();',
      ),
    ]).toEqual(['LocalDate', 'd', 'of', 'money', 'total']);
  });
});
