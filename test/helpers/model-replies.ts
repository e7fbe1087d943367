/**
 * Access to test/fixtures/model-replies: scripted model answers and the sources they were
 * written against. See that folder's README for what each reply does.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MODEL_REPLIES_DIR = fileURLToPath(new URL('../fixtures/model-replies/', import.meta.url));

export type ReplyExpectation =
  'fixes' | 'applies-without-fixing' | 'regresses' | 'weakens-test' | 'no-edits' | 'rejected' | 'protected-file';

export interface ModelReplyInfo {
  target: 'missing-semicolon' | 'compile-error' | 'failing-test';
  format: 'diff' | 'search-replace' | 'json';
  flaws: string[];
  expect: ReplyExpectation;
  files: string[];
  fixedLine?: string;
}

export function modelReplyIndex(): Record<string, ModelReplyInfo> {
  return JSON.parse(readFileSync(`${MODEL_REPLIES_DIR}index.json`, 'utf8')) as Record<string, ModelReplyInfo>;
}

/** The reply's exact text (CRLF kept where the fixture has it). */
export function loadModelReply(name: string): string {
  if (!(name in modelReplyIndex()))
    throw new Error(`no model reply fixture named ${JSON.stringify(name)}; see ${MODEL_REPLIES_DIR}README.md`);
  return readFileSync(`${MODEL_REPLIES_DIR}${name}.txt`, 'utf8');
}

/** Folder holding the sources a target's replies were written against. */
export function replyTargetDir(target: ModelReplyInfo['target']): string {
  return `${MODEL_REPLIES_DIR}targets/${target}`;
}

/** A whole one-fence diff answer (the off-by-one loop), for the tests of stopping a stream at a complete answer. */
export const SERIES_DIFF_ANSWER = [
  'The loop stops one early.',
  '',
  '```diff',
  '--- a/src/main/java/com/acme/Series.java',
  '+++ b/src/main/java/com/acme/Series.java',
  '@@ -3,3 +3,3 @@',
  '     int sum = 0;',
  '-    for (int i = 1; i < n; i++) {',
  '+    for (int i = 1; i <= n; i++) {',
  '         sum += i;',
  '```',
  '',
].join('\n');
