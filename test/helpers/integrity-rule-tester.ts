/**
 * A table harness for integrity rules, on the model of ESLint's RuleTester: a row is a
 * change set (files before and after) and the tests that failed; it expects the rule's
 * findings (name, file, test, line, and what the message says) in order, or none. Each
 * row is one vitest `it`. The rule runs alone through the runner the integrity door uses
 * (`runIntegrityRules`), so a row sees exactly what the rule does in mvnx.
 */
import { expect, it } from 'vitest';
import type { FileChange } from '../../src/patch/types.js';
import {
  failingTestRef,
  runIntegrityRules,
  type IntegrityFinding,
  type IntegrityRule,
} from '../../src/repair/integrity/index.js';
import { testSideOf, type ModulePom, type TestSide } from '../../src/repair/integrity/test-side.js';

export interface ExpectedFinding {
  /** Default: the rule's id. */
  rule?: string;
  file: string;
  /** `com.acme.FooTest#method`: the finding is about that test. */
  test?: string;
  line?: number;
  /** A piece of the message that says precisely what was done. */
  says?: string;
  /** The whole message, when the row pins it. */
  message?: string;
  failingTestEdit?: boolean;
}

export interface IntegrityRuleRow {
  name: string;
  /** The candidate fix: each file as the original tree has it (`before`, null: added) and as the patch leaves it. */
  files: FileChange[];
  /** `com.acme.FooTest#method` or a class: the tests that failed (none: a compile-error repair). */
  failing?: string[];
  /** The reactor's poms the test side is read from (`dir` '' is the root); else the conventional folders only. */
  poms?: ModulePom[];
  compileErrorFiles?: string[];
  /** What the rules before this one found (a rule may leave their files to them). */
  earlier?: IntegrityFinding[];
  /** In order; `[]`: the rule finds nothing. */
  findings: ExpectedFinding[];
}

/** The rule's findings for one row, through the door's runner. */
export function runRule(rule: IntegrityRule, row: Omit<IntegrityRuleRow, 'name' | 'findings'>): IntegrityFinding[] {
  const testSide: TestSide = row.poms ? testSideOf(row.poms) : { roots: [] };
  const input = {
    changes: row.files,
    failingTests: (row.failing ?? []).map(failingTestRef),
    testSide,
    compileErrorFiles: new Set(row.compileErrorFiles ?? []),
  };
  if (!row.earlier) return runIntegrityRules([rule], input);
  // Earlier findings come from a stand-in rule that runs first, as mvnx's own rules run before a later one.
  const earlier: IntegrityRule = {
    id: 'earlier-rules',
    reports: [...new Set(row.earlier.map((finding) => finding.rule))],
    description: 'the rules before',
    check: () => row.earlier!,
  };
  return runIntegrityRules([earlier, rule], input).slice(row.earlier.length);
}

/** One vitest `it` per row. */
export function testIntegrityRule(rule: IntegrityRule, rows: readonly IntegrityRuleRow[]): void {
  for (const row of rows) {
    it(row.name, () => {
      const found = runRule(rule, row);
      // Side by side, so that a mismatch shows both lists; a line is compared where the row gives one.
      expect(found.map((finding, index) => shown(finding, row.findings[index]?.line !== undefined))).toEqual(
        row.findings.map((expected) => ({
          rule: expected.rule ?? rule.id,
          file: expected.file,
          test: expected.test,
          ...(expected.line !== undefined ? { line: expected.line } : {}),
          message: expected.message ?? expect.stringContaining(expected.says ?? ''),
          failingTestEdit: expected.failingTestEdit ?? expect.any(Boolean),
        })),
      );
    });
  }
}

function shown(finding: IntegrityFinding, withLine: boolean): Record<string, unknown> {
  return {
    rule: finding.rule,
    file: finding.file,
    test: finding.test,
    ...(withLine ? { line: finding.line } : {}),
    message: finding.message,
    failingTestEdit: finding.failingTestEdit,
  };
}
