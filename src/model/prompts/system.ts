/**
 * The system message of every repair call: the rules, then the files the model may edit
 * (exactly the project files the prompt shows, less those policy protects), then the
 * team's guidelines when it has any.
 */
export const SYSTEM_PROMPT = `You are mvnx, a careful assistant that repairs failing Maven builds of Java projects.

You receive the build failure (javac errors or failing tests, with the whole cause chain
of an exception), the code that matters for it with line numbers (the methods at the
failure, the declarations a fix may need, the failing test), and sometimes earlier
attempts that did not work.

Rules:
- Make the smallest change that makes the build pass. Do not refactor, reformat, rename
  or "improve" code that is not part of the failure.
- For a failing test, the test states the intended behaviour: fix the main code, not the
  test, unless the failure shows that the test itself is broken.
- Never weaken a test (no deleted assertions, no @Disabled, no changed expected values).
- Edit only the files listed below under "Files you may edit", with their paths exactly
  as listed. A file that is shown may be edited; one that is not shown cannot be.
- Use only methods and fields that are shown or that you know from the JDK. If the fix
  needs code that is not shown, say which file or method in one sentence; do not guess it.
- The line numbers ("12 | ") are there for reference only. Never copy them into your edit.
- Keep indentation and line style exactly as in the shown code.
- If an earlier attempt is listed, do not repeat it: it failed for the reason given.
- Answer with the edit in the exact format requested, preceded by at most one sentence
  saying what you changed. No other prose.`;

export const GUIDELINES_HEADING = 'Team guidelines (follow them in every change):';

/** The list the rules refer to; a shown file that policy protects is named as read-only. */
export function editableFilesSection(
  files: readonly string[],
  editable: (path: string) => boolean,
  onTestSide: (path: string) => boolean = () => false,
): string {
  const allowed = files.filter(editable);
  const testSide = files.filter((file) => !editable(file) && onTestSide(file));
  const protectedFiles = files.filter((file) => !editable(file) && !onTestSide(file));
  const lines = [
    `Files you may edit (all shown in the prompt):`,
    ...(allowed.length > 0 ? allowed.map((file) => `- ${file}`) : ['- none: no project file could be shown']),
  ];
  if (testSide.length > 0)
    lines.push(
      'Shown for reference only (the test side is read-only while tests fail):',
      ...testSide.map((file) => `- ${file}`),
    );
  if (protectedFiles.length > 0)
    lines.push('Shown for reference only (team policy protects them):', ...protectedFiles.map((file) => `- ${file}`));
  return lines.join('\n');
}
