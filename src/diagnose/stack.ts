/** Java stack traces: frames, the first frame in project source, trimming. */

export interface StackFrame {
  /** Binary class name, e.g. `com.acme.FooTest$Inner`. */
  className: string;
  method: string;
  fileName?: string;
  line?: number;
}

const FRAME = /^\s*at (?:[^\s(]*\/)?([\w$.]+)\.([\w$<>-]+)\(([^:)]*)(?::(\d+))?\)/;
const MAX_TRIMMED_LINES = 60;

export function parseFrame(line: string): StackFrame | undefined {
  const m = FRAME.exec(line);
  if (!m) return undefined;
  const [, className = '', method = '', fileName, lineNo] = m;
  const usableFile = fileName && fileName !== 'Native Method' && fileName !== 'Unknown Source' ? fileName : undefined;
  return { className, method, ...(usableFile ? { fileName: usableFile } : {}), ...(lineNo ? { line: Number(lineNo) } : {}) };
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

export interface ProjectFrame {
  frame: StackFrame;
  /** Index of the line within the stack trace lines. */
  lineIndex: number;
  /** What `resolve` returned: typically the project-relative file. */
  file: string;
}

/** The first frame `resolve` maps to a project source file. */
export function firstProjectFrame(lines: string[], resolve: (frame: StackFrame) => string | undefined): ProjectFrame | undefined {
  for (let i = 0; i < lines.length; i++) {
    const frame = parseFrame(lines[i] ?? '');
    if (!frame) continue;
    const file = resolve(frame);
    if (file !== undefined) return { frame, lineIndex: i, file };
  }
  return undefined;
}

/**
 * Keeps the message and the frames down to the first project frame; later frames are
 * dropped except `Caused by:` headers and the first frame under each.
 */
export function trimStackTrace(lines: string[], projectFrameIndex: number | undefined): string {
  const cut = projectFrameIndex ?? lines.findIndex((l) => FRAME.test(l)) + 7;
  const kept: string[] = [];
  let keepNextFrame = false;
  for (let i = 0; i < lines.length && kept.length < MAX_TRIMMED_LINES; i++) {
    const line = lines[i] ?? '';
    if (i <= cut) {
      kept.push(line);
      continue;
    }
    if (/^\s*Caused by:/.test(line)) {
      kept.push(line);
      keepNextFrame = true;
    } else if (keepNextFrame && FRAME.test(line)) {
      kept.push(line);
      keepNextFrame = false;
    }
  }
  return kept.join('\n').trimEnd();
}
