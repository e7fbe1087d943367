import { describe, expect, it } from 'vitest';
import {
  answerCompleteFor,
  diffAnswerComplete,
  searchReplaceAnswerComplete,
} from '../../src/repair/proposers/answer-complete.js';
import { SERIES_DIFF_ANSWER } from '../helpers/model-replies.js';

const DIFF = SERIES_DIFF_ANSWER;

const BLOCKS = [
  'src/main/java/com/acme/Series.java',
  '```java',
  '<<<<<<< SEARCH',
  '    for (int i = 1; i < n; i++) {',
  '=======',
  '    for (int i = 1; i <= n; i++) {',
  '>>>>>>> REPLACE',
  '```',
  '',
].join('\n');

/** Every prefix of `text` the stream could have delivered, ending at each character. */
const firstCompletePrefix = (text: string, complete: (text: string) => boolean) => {
  for (let end = 1; end <= text.length; end++) if (complete(text.slice(0, end))) return text.slice(0, end);
  return undefined;
};

describe('a diff answer is whole at its closing fence', () => {
  it('stops at the first line of prose after the fence that closes a clean diff, before the rest of the chatter', () => {
    const reply = `${DIFF}\nIncluding n makes the sum 10.\nThat is all.\n`;
    expect(firstCompletePrefix(reply, diffAnswerComplete)).toBe(`${DIFF}\nIncluding n makes the sum 10.\n`);
  });

  it('keeps reading when another fence follows: a fence per file is a small model habit', () => {
    const second = DIFF.replace(/Series/g, 'Other').replace('The loop stops one early.\n', '');
    const reply = `${DIFF}\n${second}\nBoth loops now include n.\nMore.\n`;
    expect(firstCompletePrefix(reply, diffAnswerComplete)).toBe(`${DIFF}\n${second}\nBoth loops now include n.\n`);
  });

  it('is not whole while the fence is open or its closing line is unfinished', () => {
    expect(diffAnswerComplete(DIFF.slice(0, DIFF.lastIndexOf('```')))).toBe(false);
    expect(diffAnswerComplete(DIFF.slice(0, -1))).toBe(false);
  });

  it('does not stop at a fence of quoted code before the diff', () => {
    const quoted = ['The method reads:', '```java', 'for (int i = 1; i < n; i++) {', '```', ''].join('\n');
    const reply = `${quoted}\n${DIFF}Done with it.\n`;
    expect(firstCompletePrefix(reply, diffAnswerComplete)).toBe(reply);
  });

  it('never stops on a diff that does not extract cleanly (read to the end, as before)', () => {
    const broken = DIFF.replace('@@ -3,3 +3,3 @@', '@@ @@').replace('--- a/', '--- /etc/');
    expect(firstCompletePrefix(`${broken}More text.\n`, diffAnswerComplete)).toBeUndefined();
    expect(firstCompletePrefix('I cannot fix this.\n', diffAnswerComplete)).toBeUndefined();
  });
});

describe('a search-replace answer is whole once prose follows its last block', () => {
  it('waits for a line of prose after the fence, then stops', () => {
    const reply = `${BLOCKS}\nThis includes n.\nMore chatter here.\n`;
    expect(firstCompletePrefix(reply, searchReplaceAnswerComplete)).toBe(`${BLOCKS}\nThis includes n.\n`);
  });

  it('keeps reading when the next line names another file or opens another block', () => {
    const second = BLOCKS.replace(/Series/g, 'Other');
    for (const between of ['src/main/java/com/acme/Other.java\n', 'Also change this file:\n', 'In `Other.java`:\n']) {
      const reply = `${BLOCKS}\n${between}${second.split('\n').slice(1).join('\n')}\nDone now.\n`;
      const stopped = firstCompletePrefix(reply, searchReplaceAnswerComplete);
      expect(stopped, between).toBe(`${BLOCKS}\n${between}${second.split('\n').slice(1).join('\n')}\nDone now.\n`);
    }
  });

  it('is not whole with blocks alone (another may follow) or without any block', () => {
    expect(searchReplaceAnswerComplete(BLOCKS)).toBe(false);
    expect(searchReplaceAnswerComplete('Some words here.\nAnd more words.\n')).toBe(false);
  });
});

it('asks for no predicate in the JSON format: the server grammar ends the object', () => {
  expect(answerCompleteFor('json')).toBeUndefined();
  expect(answerCompleteFor('diff')).toBe(diffAnswerComplete);
  expect(answerCompleteFor('search-replace')).toBe(searchReplaceAnswerComplete);
});
