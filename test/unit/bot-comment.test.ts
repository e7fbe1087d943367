import { describe, expect, it } from 'vitest';
import { BOT_COMMENT_MARKER, botCommentBody } from '../../src/report/publish/bot-comment.js';
import type { RunRecord } from '../../src/report/run-record.js';

const patch = `--- a/src/main/java/demo/Text.java
+++ b/src/main/java/demo/Text.java
@@ -3 +3 @@
-    return CharMatcher.WHITESPACE.trimFrom(s);
+    return CharMatcher.whitespace().trimFrom(s);
`;

const difference = (site: string, dependency: string) => ({
  site,
  message: 'cannot find symbol',
  lines: ['- removed: static CharMatcher CharMatcher.WHITESPACE'],
  dependency,
});

const grouped = {
  runId: 'run-7',
  dependencyUpdate: {
    groupId: 'com.google.guava',
    artifactId: 'guava',
    from: '16.0.1',
    to: '33.0.0-jre',
    errors: ['Text.java:3: cannot find symbol'],
    comparedWith: 'HEAD~1',
    oldVersionLocal: true,
    differences: [
      difference('Text.java:3', 'com.google.guava:guava 16.0.1 -> 33.0.0-jre'),
      difference('Json.java:9', 'com.fasterxml.jackson.core:jackson-databind 2.9.0 -> 2.17.0'),
    ],
    updates: [
      { groupId: 'com.google.guava', artifactId: 'guava', from: '16.0.1', to: '33.0.0-jre', errors: ['Text.java:3'] },
      {
        groupId: 'com.fasterxml.jackson.core',
        artifactId: 'jackson-databind',
        from: '2.9.0',
        to: '2.17.0',
        via: 'bom com.fasterxml.jackson:jackson-bom 2.9.0 -> 2.17.0',
        errors: ['Json.java:9'],
      },
    ],
  },
} as unknown as RunRecord;

const input = { where: 'Pushed onto the branch.', bot: 'renovate' as const, email: 'mvnx@example.com' };

describe("the comment on a dependency bot's pull request", () => {
  it('a grouped update names every bump, and each difference says whose API it uses', () => {
    const body = botCommentBody(grouped, patch, input);
    expect(body.startsWith(BOT_COMMENT_MARKER)).toBe(true);
    expect(body).toContain(
      '**mvnx** repaired the build after 2 updates: `com.google.guava:guava` 16.0.1 -> 33.0.0-jre, ' +
        '`com.fasterxml.jackson.core:jackson-databind` 2.9.0 -> 2.17.0 (via bom com.fasterxml.jackson:jackson-bom 2.9.0 -> 2.17.0).',
    );
    expect(body).toContain(
      'Json.java:9: cannot find symbol [com.fasterxml.jackson.core:jackson-databind 2.9.0 -> 2.17.0]',
    );
    expect(body).toContain('`src/main/java/demo/Text.java` (+1 -1)');
  });

  it('a single bump is named alone, its differences without a dependency tag', () => {
    const single = {
      ...grouped,
      dependencyUpdate: {
        ...grouped.dependencyUpdate!,
        updates: undefined,
        differences: [grouped.dependencyUpdate!.differences[0]!],
      },
    } as RunRecord;
    const body = botCommentBody(single, patch, input);
    expect(body).toContain('**mvnx** repaired the build after `com.google.guava:guava` 16.0.1 -> 33.0.0-jre.');
    expect(body).toContain('Text.java:3: cannot find symbol\n');
    expect(body).not.toContain('[com.google.guava');
  });
});
