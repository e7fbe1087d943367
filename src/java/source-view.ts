/**
 * The project's sources as one stage sees them (the original tree, or the tree of the
 * current attempt with its changes laid over), and each Java file of it parsed once. The
 * quick-fixes, the prompt context and the agent's tools all read through a SourceView;
 * the parse of a file is kept with the view, so the agent's twentieth look at a file, or
 * the second fixer that reads it, costs a read and no parse. The view itself is plain
 * data and two functions: reading the disk is the caller's edge (codebase/disk-source-view.ts).
 */
import { parseByContent } from './parse-cache.js';
import type { JavaParseResult } from './types.js';

export interface SourceView {
  /** Absolute project root. */
  root: string;
  /** File text, or undefined when it does not exist. Path is root-relative. */
  read(path: string): Promise<string | undefined>;
  /** Root-relative paths of files matching a glob (minimatch), excluding target/ and .mvnx/. */
  list: (glob: string) => Promise<string[]>;
}

export interface ViewedJavaFile {
  text: string;
  /** The model, or the parse error with its line (a file with a syntax error is still read). */
  parsed: JavaParseResult;
}

/**
 * Per reader (a view's `read` function): path -> the text last read and its parse. Keyed
 * by the reader, not the view object, so that views built around one reader (the fixers',
 * the prompt context's and the agent's view of one attempt's tree) share the parse.
 */
const parses = new WeakMap<SourceView['read'], Map<string, ViewedJavaFile>>();
/**
 * Parses kept per reader, the most recently used: a syntax tree takes many times its
 * file's size, and the agent's find_similar_api_calls reads up to 150 files at a time.
 */
const KEPT_PER_READER = 64;

/**
 * The file's text and its parse, or undefined when the file does not exist. Parsed once
 * per reader and text: a view reads what its tree holds, so the text is read each time and
 * compared, and the parse is redone only when it changed.
 */
export async function viewJavaFile(view: Pick<SourceView, 'read'>, path: string): Promise<ViewedJavaFile | undefined> {
  const text = await view.read(path);
  if (text === undefined) return undefined;
  let files = parses.get(view.read);
  if (!files) {
    files = new Map();
    parses.set(view.read, files);
  }
  const known = files.get(path);
  // By content, shared by every reader (parse-cache.ts): the next attempt's tree holds the same text for every file the
  // patch did not touch.
  const viewed = known?.text === text ? known : { text, parsed: await parseByContent(text) };
  files.delete(path);
  files.set(path, viewed);
  if (files.size > KEPT_PER_READER) files.delete(files.keys().next().value!);
  return viewed;
}
