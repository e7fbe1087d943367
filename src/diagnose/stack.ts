/**
 * Java stack traces as Surefire keeps them (the whole text): the throwable and every
 * `Caused by:` and `Suppressed:` section with its frames, `... N more` resolved against
 * the trace it is nested in. The primary location of a failure is the deepest project
 * frame of the root cause, not the first project frame from the top: a wrapped exception
 * (Jackson, Spring) names the code that broke only under its last `Caused by:`.
 */

export interface StackFrame {
  /** Binary class name, e.g. `com.acme.FooTest$Inner`. */
  className: string;
  method: string;
  fileName?: string;
  line?: number;
}

export interface ThrowableSection {
  kind: 'top' | 'caused-by' | 'suppressed';
  /** The throwable's first line: `java.lang.NullPointerException: Cannot invoke ...`. */
  header: string;
  /** 0 for the main chain; a suppressed section (and its causes) is one deeper per level. */
  depth: number;
  /** Index of the header line. */
  lineIndex: number;
  /** The frames printed under this section, each with its line index. */
  frames: { frame: StackFrame; lineIndex: number }[];
  /** From `... N more`: how many of the enclosing trace's last frames this one shares. */
  omitted: number;
  /** Index of the section whose frames `... N more` refers to. */
  enclosing?: number;
}

const FRAME = /^\s*at (?:[^\s(]*\/)?([\w$.]+)\.([\w$<>-]+)\(([^:)]*)(?::(\d+))?\)/;
const SECTION = /^(\s*)(Caused by|Suppressed): (.*)$/;
const MORE = /^\s*\.\.\. (\d+) more\s*$/;
/** Enough for any real chain with its project frames; framework runs are collapsed first. */
const MAX_CONDENSED_LINES = 80;

export function parseFrame(line: string): StackFrame | undefined {
  const m = FRAME.exec(line);
  if (!m) return undefined;
  const [, className = '', method = '', fileName, lineNo] = m;
  const usableFile = fileName && fileName !== 'Native Method' && fileName !== 'Unknown Source' ? fileName : undefined;
  return {
    className,
    method,
    ...(usableFile ? { fileName: usableFile } : {}),
    ...(lineNo ? { line: Number(lineNo) } : {}),
  };
}

/**
 * Candidate source paths (relative to a module folder) for a frame. A nested class
 * `Outer$Inner` lives in the file the frame names (Outer.java), in the package folder.
 */
export function frameSourceCandidates(frame: StackFrame): string[] {
  if (!frame.fileName || !/\.(java|kt|groovy|scala)$/.test(frame.fileName)) return [];
  const lastDot = frame.className.lastIndexOf('.');
  const packagePath = lastDot === -1 ? '' : frame.className.slice(0, lastDot).replace(/\./g, '/');
  const rel = packagePath === '' ? frame.fileName : `${packagePath}/${frame.fileName}`;
  return [`src/main/java/${rel}`, `src/test/java/${rel}`];
}

/** Leading tabs, or groups of up to 4 spaces where a copy turned tabs into spaces. */
function indentation(text: string): number {
  const lead = /^[\t ]*/.exec(text)![0];
  return (lead.match(/\t/g) ?? []).length + Math.floor(lead.replace(/\t/g, '').length / 4);
}

/** The sections of a stack trace in print order. Lines before the first frame belong to the top header. */
export function parseStackTrace(lines: readonly string[]): ThrowableSection[] {
  const sections: ThrowableSection[] = [];
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first === -1) return [];
  sections.push({ kind: 'top', header: lines[first]!.trim(), depth: 0, lineIndex: first, frames: [], omitted: 0 });
  for (let index = first + 1; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const current = sections.at(-1)!;
    const frame = parseFrame(line);
    if (frame) {
      current.frames.push({ frame, lineIndex: index });
      continue;
    }
    const more = MORE.exec(line);
    if (more) {
      current.omitted = Number(more[1]);
      continue;
    }
    const section = SECTION.exec(line);
    if (section) {
      const kind = section[2] === 'Caused by' ? 'caused-by' : 'suppressed';
      // `Suppressed:` is printed one tab in from the trace it belongs to, a cause at the depth of the trace it causes.
      const depth = indentation(section[1]!);
      const enclosing = enclosingSection(sections, kind, depth);
      sections.push({
        kind,
        header: section[3]!.trim(),
        depth,
        lineIndex: index,
        frames: [],
        omitted: 0,
        ...(enclosing !== undefined ? { enclosing } : {}),
      });
      continue;
    }
    // A multi-line message continues the header of a section that has no frames yet.
    if (current.frames.length === 0 && line.trim() !== '') current.header = `${current.header}\n${line.trim()}`;
  }
  return sections;
}

function enclosingSection(
  sections: readonly ThrowableSection[],
  kind: ThrowableSection['kind'],
  depth: number,
): number | undefined {
  // A cause continues the last trace at its own depth; a suppressed one belongs to the last trace one level up.
  const wanted = kind === 'caused-by' ? depth : depth - 1;
  for (let index = sections.length - 1; index >= 0; index--) if (sections[index]!.depth === wanted) return index;
  return undefined;
}

/** The frames a section stands for: its own, then the shared ones `... N more` left out. */
export function fullFrames(
  sections: readonly ThrowableSection[],
  index: number,
): { frame: StackFrame; lineIndex: number }[] {
  const section = sections[index];
  if (!section) return [];
  if (section.omitted === 0 || section.enclosing === undefined) return section.frames;
  const outer = fullFrames(sections, section.enclosing);
  return [...section.frames, ...outer.slice(Math.max(0, outer.length - section.omitted))];
}

/** The last `Caused by:` of the main chain, or the throwable itself when nothing caused it. */
export function rootCauseIndex(sections: readonly ThrowableSection[]): number {
  for (let index = sections.length - 1; index > 0; index--)
    if (sections[index]!.kind === 'caused-by' && sections[index]!.depth === 0) return index;
  return 0;
}

export interface ProjectFrame {
  frame: StackFrame;
  /** Index of the line within the stack trace lines. */
  lineIndex: number;
  /** What `resolve` returned: typically the project-relative file. */
  file: string;
}

/** The first frame `resolve` maps to a project source file. */
export function firstProjectFrame(
  lines: string[],
  resolve: (frame: StackFrame) => string | undefined,
): ProjectFrame | undefined {
  for (let i = 0; i < lines.length; i++) {
    const frame = parseFrame(lines[i] ?? '');
    if (!frame) continue;
    const file = resolve(frame);
    if (file !== undefined) return { frame, lineIndex: i, file };
  }
  return undefined;
}

export interface CauseChain {
  sections: ThrowableSection[];
  rootCause: number;
  /**
   * The deepest project frame of the root cause (the place it was thrown, as far as the
   * project's code goes); else the first project frame of any section.
   */
  primary?: ProjectFrame;
  /**
   * Project frames in the order they matter: the root cause's from the primary one down
   * to the test, then those of the other sections (wrappers, suppressed failures) that
   * name a method not seen yet.
   */
  projectFrames: ProjectFrame[];
}

export function analyseStackTrace(lines: string[], resolve: (frame: StackFrame) => string | undefined): CauseChain {
  const sections = parseStackTrace(lines);
  const rootCause = rootCauseIndex(sections);
  const projectFrames: ProjectFrame[] = [];
  const seen = new Set<string>();
  const add = (entry: { frame: StackFrame; lineIndex: number }) => {
    const file = resolve(entry.frame);
    if (file === undefined) return;
    const key = `${entry.frame.className}#${entry.frame.method}:${entry.frame.line ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    projectFrames.push({ ...entry, file });
  };
  fullFrames(sections, rootCause).forEach(add);
  sections.forEach((_, index) => fullFrames(sections, index).forEach(add));
  const primary = projectFrames[0];
  return { sections, rootCause, ...(primary ? { primary } : {}), projectFrames };
}

/**
 * The stack text a reader (and a model) needs: every section header, every project
 * frame, `... N more`, and each run of framework frames folded into one line. Headers
 * and project frames survive a cap before framework lines do.
 */
export function condenseStackTrace(lines: string[], isProjectFrame: (frame: StackFrame) => boolean): string {
  const kept: { text: string; weight: number }[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length === 1) kept.push({ text: run[0]!, weight: 1 });
    else if (run.length > 1) {
      const indent = /^\s*/.exec(run[0]!)![0];
      kept.push({
        text: `${indent}... ${run.length} framework frames (${frameClass(run[0]!)} ... ${frameClass(run.at(-1)!)})`,
        weight: 1,
      });
    }
    run = [];
  };
  for (const line of lines) {
    if (line.trim() === '') continue;
    const frame = parseFrame(line);
    if (frame && !isProjectFrame(frame)) {
      run.push(line.trimEnd());
      continue;
    }
    flush();
    kept.push({ text: line.trimEnd(), weight: frame ? 2 : 3 });
  }
  flush();
  if (kept.length <= MAX_CONDENSED_LINES) return kept.map((entry) => entry.text).join('\n');
  // Over the cap: drop framework lines from the end first, then project frames, never headers.
  for (const weight of [1, 2]) {
    for (let index = kept.length - 1; index >= 0 && kept.length > MAX_CONDENSED_LINES; index--)
      if (kept[index]!.weight === weight) kept.splice(index, 1);
  }
  return [...kept.map((entry) => entry.text), `... (stack trace cut at ${MAX_CONDENSED_LINES} lines)`].join('\n');
}

function frameClass(line: string): string {
  const frame = parseFrame(line);
  return frame ? `${frame.className}.${frame.method}` : line.trim();
}
