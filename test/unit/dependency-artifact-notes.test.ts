/**
 * What an artifact says of itself besides its class files: a member's Javadoc and @deprecated text in its sources, and
 * the part of its changelog between two versions (the behaviour-change prompt's notes). Pure readers over text.
 */
import { describe, expect, it } from 'vitest';
import { changelogSectionsBetween, compareVersions, javadocIn, memberNotesIn } from '../../src/maven/artifact-notes.js';

const source = `package m;

public final class Slugs {
  /**
   * A URL slug: words joined by '-',
   * the letters' case kept.
   *
   * @param title the title
   * @deprecated keeps the case since 2.0; use {@link #lowerSlug(String)}
   */
  @Deprecated
  public static String slug(String title) {
    return title;
  }

  public static String lowerSlug(String title) {
    return title;
  }

  /** The default separator. */
  public static final String SEPARATOR = "-";
}
`;

describe("a member's notes in the sources", () => {
  it('the Javadoc without its tags, and the @deprecated text, of the member named', () => {
    expect(memberNotesIn(source, 'slug')).toEqual({
      javadoc: "A URL slug: words joined by '-', the letters' case kept.",
      deprecated: 'keeps the case since 2.0; use {@link #lowerSlug(String)}',
    });
    expect(javadocIn(source, 'SEPARATOR')).toBe('The default separator.');
  });

  it('a member with no Javadoc, or none of that name, has no notes', () => {
    expect(memberNotesIn(source, 'lowerSlug')).toEqual({});
    expect(memberNotesIn(source, 'slugify')).toEqual({});
  });
});

describe('the changelog between two versions', () => {
  const changelog = [
    '# Changes',
    '',
    '## [3.0] - 2026-01-01',
    '- three',
    '## [2.1]',
    '- two one',
    '',
    '## 2.0',
    '- two',
    '### Fixed',
    '- a fix in two',
    '## 1.0',
    '- first',
  ].join('\n');

  it('keeps the sections after the old version up to the new one, sub-headings included', () => {
    expect(changelogSectionsBetween(changelog, '1.0', '2.1')).toEqual([
      '## [2.1]',
      '- two one',
      '## 2.0',
      '- two',
      '### Fixed',
      '- a fix in two',
    ]);
  });

  it('reads "Version x" and "vX" headings and versions with qualifiers', () => {
    const text = 'Version 33.0.0\n* new\nv32.1.3\n* older\nVersion 16.0.1\n* old';
    expect(changelogSectionsBetween(text, '16.0.1', '33.0.0-jre')).toEqual([
      'Version 33.0.0',
      '* new',
      'v32.1.3',
      '* older',
    ]);
  });

  it('nothing when no heading falls in between', () => {
    expect(changelogSectionsBetween(changelog, '3.0', '3.0')).toEqual([]);
    expect(changelogSectionsBetween('just prose, no versions', '1.0', '2.0')).toEqual([]);
  });

  it('orders versions by their numbers, not as text', () => {
    expect(compareVersions('10.0', '9.1')).toBeGreaterThan(0);
    expect(compareVersions('33.0.0-jre', '33.0.0')).toBe(0);
    expect(compareVersions('2', '2.0.1')).toBeLessThan(0);
  });
});
