// Fingerprints: stable under what should not matter, sensitive to what should.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnosisFingerprint, diagnosticFingerprint, type Diagnostic } from '../../src/diagnose/index.js';

const base: Omit<Diagnostic, 'fingerprint'> = {
  kind: 'compile',
  category: 'compile',
  fixable: true,
  message: 'cannot find symbol',
  file: 'src/main/java/com/acme/Cart.java',
  line: 16,
  column: 24,
  module: 'shop',
  details: ['symbol:   method priceInCents()', 'location: variable item of type com.acme.Item'],
};

function withFp(d: Omit<Diagnostic, 'fingerprint'>): Diagnostic {
  return { ...d, fingerprint: diagnosticFingerprint(d) };
}

describe('diagnosticFingerprint', () => {
  it('is a sha-256 hex digest', () => {
    expect(diagnosticFingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores line drift, absolute paths, timestamps and object hashes', () => {
    const fp = diagnosticFingerprint(base);
    expect(diagnosticFingerprint({ ...base, line: 40, column: 3 })).toBe(fp);
    const other = (message: string): string =>
      diagnosticFingerprint({ kind: 'other', category: 'unknown', fixable: false, message });
    expect(other('failed at /tmp/ws-123/project/pom.xml on 2026-12-02T14:36:37Z')).toBe(
      other('failed at /home/me/proj/pom.xml on 2025-01-01T00:00:00Z'),
    );
    expect(other('java.lang.Object@1b6d3586 broke after 12 ms')).toBe(
      other('java.lang.Object@7a81197d broke after 340 ms'),
    );
  });

  it('changes with the message, file, symbol, test or category', () => {
    const fp = diagnosticFingerprint(base);
    expect(diagnosticFingerprint({ ...base, message: 'incompatible types' })).not.toBe(fp);
    expect(diagnosticFingerprint({ ...base, file: 'src/main/java/com/acme/Item.java' })).not.toBe(fp);
    expect(diagnosticFingerprint({ ...base, details: ['symbol:   method total()'] })).not.toBe(fp);
    expect(diagnosticFingerprint({ ...base, test: 'a.B#c' })).not.toBe(fp);
    expect(diagnosticFingerprint({ ...base, category: 'unknown' })).not.toBe(fp);
  });
});

describe('diagnosisFingerprint', () => {
  it('does not depend on the order of diagnostics', () => {
    const ds = [withFp(base), withFp({ ...base, message: 'm2' }), withFp({ ...base, file: 'B.java' })];
    fc.assert(
      fc.property(fc.shuffledSubarray(ds, { minLength: ds.length, maxLength: ds.length }), (shuffled) => {
        expect(diagnosisFingerprint(shuffled)).toBe(diagnosisFingerprint(ds));
      }),
    );
  });

  it('counts duplicates and differs from the empty diagnosis', () => {
    const one = withFp(base);
    expect(diagnosisFingerprint([one, one])).not.toBe(diagnosisFingerprint([one]));
    expect(diagnosisFingerprint([])).not.toBe(diagnosisFingerprint([one]));
  });
});
