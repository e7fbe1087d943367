/**
 * The pre-push hook that `mvnx hook install` writes: pure text generation, so that the
 * script's every branch can be read in a test, and the installer only moves files.
 *
 * The script is POSIX sh and must also work under `sh -e` (husky runs hooks that way),
 * so no command whose failure is expected may stand on its own line.
 */

/** Recognises our own hook file; a pre-push file without it is someone else's. */
export const HOOK_MARKER = '# mvnx-managed-hook: written by `mvnx hook install`, removed by `mvnx hook uninstall`';
/** Brackets our lines inside a husky hook file, which other tools share. */
export const HUSKY_BLOCK_BEGIN =
  '# >>> mvnx pre-push >>> (managed by `mvnx hook install`; remove with `mvnx hook uninstall`)';
export const HUSKY_BLOCK_END = '# <<< mvnx pre-push <<<';
/** A foreign hook found at install is moved here and run first by ours. */
export const CHAINED_HOOK_NAME = 'pre-push.local';
export const DEFAULT_HOOK_GOALS = '-o -q verify';

export interface HookScriptOptions {
  /** Maven and mvnx arguments, e.g. ['-o', '-q', 'verify']. */
  goals: string[];
  /** The project root relative to the top of the working tree (where git runs hooks), '.' for the top. */
  projectDir: string;
  /** How to start mvnx when MVNX_BIN is not set: node and the mvnx script found at install. */
  node: string;
  script?: string;
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `--goals` text to words: whitespace separates, single or double quotes group. */
export function splitGoals(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote) throw new Error(`unbalanced ${quote} in ${JSON.stringify(text)}`);
  if (word !== undefined) words.push(word);
  return words;
}

function mvnxLauncher(options: HookScriptOptions): string[] {
  const fallback = options.script
    ? [
        `  elif [ -f ${shellQuote(options.script)} ]; then`,
        `    ${shellQuote(options.node)} ${shellQuote(options.script)} "$@"`,
      ]
    : [];
  return [
    'mvnx_run() {',
    '  if [ -n "${MVNX_BIN:-}" ]; then',
    '    # MVNX_BIN may be a command with arguments ("node /opt/mvnx/dist/cli/mvnx.cjs"): split on purpose.',
    '    $MVNX_BIN "$@"',
    ...fallback,
    '  else',
    '    npx --no-install mvnx "$@"',
    '  fi',
    '}',
  ];
}

/** The lines that run the build and decide; shared by the standalone hook and the husky block. */
export function renderHookBody(options: HookScriptOptions): string {
  const goals = options.goals.map(shellQuote).join(' ');
  const shown = options.goals.join(' ');
  return [
    ...mvnxLauncher(options),
    `mvnx_dir=${shellQuote(options.projectDir)}`,
    '# mvnx writes the id of its own run here (MVNX_RUN_ID_FILE): "latest" may name another run that finished later.',
    'mvnx_id_file=$(mktemp 2>/dev/null || true)',
    'if [ -z "$mvnx_id_file" ]; then',
    '  mkdir -p "$mvnx_dir/.mvnx" 2>/dev/null || true',
    '  mvnx_id_file="$(pwd)/$mvnx_dir/.mvnx/pre-push-run-id.$$"',
    '  : >"$mvnx_id_file" 2>/dev/null || true',
    'fi',
    `echo "mvnx pre-push: mvnx ${shown.replace(/["`$\\]/g, '\\$&')}" >&2`,
    'mvnx_status=0',
    '# git feeds the hook its ref list on stdin; mvnx must not read it as an answer to a prompt.',
    `(cd "$mvnx_dir" && MVNX_RUN_ID_FILE="$mvnx_id_file" && export MVNX_RUN_ID_FILE && mvnx_run ${goals} </dev/null) || mvnx_status=$?`,
    'mvnx_after=$(cat "$mvnx_id_file" 2>/dev/null || true)',
    'rm -f "$mvnx_id_file"',
    'mvnx_record=',
    "# Only this push's own run counts (none when the build passed untouched).",
    'if [ -n "$mvnx_after" ]; then',
    '  mvnx_record="$mvnx_dir/.mvnx/runs/$mvnx_after/run.json"',
    'fi',
    'if [ -n "$mvnx_record" ] && grep -Eq \'"applied"[[:space:]]*:[[:space:]]*true\' "$mvnx_record" 2>/dev/null; then',
    '  # The build passed only because mvnx changed the working tree: the commits being pushed are still broken.',
    '  echo "mvnx: push blocked: mvnx applied a verified fix to your working tree (run $mvnx_after)." >&2',
    '  echo "mvnx:   review it with git diff, commit it, and push again." >&2',
    '  echo "mvnx:   to push the commits as they are: git push --no-verify" >&2',
    '  exit 1',
    'fi',
    'if [ "$mvnx_status" -ne 0 ]; then',
    '  if [ -n "$mvnx_record" ] && grep -Eq \'"status"[[:space:]]*:[[:space:]]*"fixed"\' "$mvnx_record" 2>/dev/null; then',
    '    echo "mvnx: push blocked: the build failed, and mvnx has a verified fix (run $mvnx_after)." >&2',
    '    echo "mvnx:   review it:  cat $mvnx_dir/.mvnx/runs/$mvnx_after/fix.patch" >&2',
    '    echo "mvnx:   apply it:   mvnx apply $mvnx_after   then commit and push again" >&2',
    '  else',
    '    echo "mvnx: push blocked: the build failed (exit $mvnx_status)." >&2',
    '  fi',
    '  echo "mvnx:   to push anyway: git push --no-verify" >&2',
    '  exit "$mvnx_status"',
    'fi',
  ].join('\n');
}

/** A whole `.git/hooks/pre-push`: runs a chained foreign hook first, then the build. */
export function renderPrePushHook(options: HookScriptOptions): string {
  return [
    '#!/bin/sh',
    HOOK_MARKER,
    '# Runs the build through mvnx before a push; bypass with: git push --no-verify',
    `# A pre-push hook that was here before is kept as ${CHAINED_HOOK_NAME} and runs first, with git's arguments and stdin.`,
    'mvnx_hook_dir=$(dirname -- "$0")',
    `if [ -x "$mvnx_hook_dir/${CHAINED_HOOK_NAME}" ]; then`,
    `  "$mvnx_hook_dir/${CHAINED_HOOK_NAME}" "$@" || exit $?`,
    'fi',
    renderHookBody(options),
    '',
  ].join('\n');
}

export function isMvnxHook(text: string): boolean {
  return text.includes(HOOK_MARKER);
}

export function hasHuskyBlock(text: string): boolean {
  return text.includes(HUSKY_BLOCK_BEGIN) && text.includes(HUSKY_BLOCK_END);
}

/** Removes our block (and the blank line before it); the rest of the file is left as it was. */
export function removeHuskyBlock(text: string): string {
  const begin = text.indexOf(HUSKY_BLOCK_BEGIN);
  const end = text.indexOf(HUSKY_BLOCK_END, begin);
  if (begin < 0 || end < 0) return text;
  const before = text.slice(0, begin).replace(/\n\n$/, '\n');
  const after = text.slice(end + HUSKY_BLOCK_END.length).replace(/^\n/, '');
  return before + after;
}

/**
 * `.husky/pre-push` with our block appended after the commands already there (husky
 * runs them in order, so theirs come first), or replacing our block of an earlier install.
 * `newFileHeader` starts a file that did not exist.
 */
export function withHuskyBlock(
  existing: string | undefined,
  options: HookScriptOptions,
  newFileHeader: string,
): string {
  const block = `${HUSKY_BLOCK_BEGIN}\n${renderHookBody(options)}\n${HUSKY_BLOCK_END}\n`;
  if (existing === undefined) return `${newFileHeader}${block}`;
  const kept = removeHuskyBlock(existing);
  const separator = kept.length === 0 || kept.endsWith('\n\n') ? '' : kept.endsWith('\n') ? '\n' : '\n\n';
  return `${kept}${separator}${block}`;
}

/** What is left of a husky file once our block is gone is only boilerplate: delete the file. */
export function isOnlyHuskyBoilerplate(text: string): boolean {
  return text
    .split('\n')
    .map((line) => line.trim())
    .every((line) => line === '' || line.startsWith('#!') || /^\.\s+"?\$\(dirname\b.*husky\.sh"?$/.test(line));
}
