/**
 * The SARIF schema helper checks the schema's formats instead of warning that it ignores
 * them (issue 48: 76 lines of `unknown format "uri" ignored` in the test log).
 */
import { describe, expect, it, vi } from 'vitest';
import { sarifSchemaErrors } from '../helpers/sarif-schema.js';

const log = (informationUri: string, uri = 'src/main/java/A.java', startTimeUtc = '2026-12-05T20:00:00Z') => ({
  version: '2.1.0',
  runs: [
    {
      tool: { driver: { name: 'mvnx', informationUri } },
      invocations: [{ executionSuccessful: true, startTimeUtc }],
      artifacts: [{ location: { uri } }],
    },
  ],
});

describe('the SARIF schema helper', () => {
  it('checks uri, uri-reference and date-time, and warns about none of them', () => {
    const warn = vi.spyOn(console, 'warn');
    expect(sarifSchemaErrors(log('https://example.org/mvnx'))).toEqual([]);
    expect(sarifSchemaErrors(log('not a uri')).join('\n')).toMatch(/informationUri must match format "uri"/);
    expect(sarifSchemaErrors(log('https://x', 'a b.java')).join('\n')).toMatch(/must match format "uri-reference"/);
    expect(sarifSchemaErrors(log('https://x', 'A.java', 'yesterday')).join('\n')).toMatch(
      /must match format "date-time"/,
    );
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
