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
