/**
 * Quality-gate findings as each plugin prints them on the console. Formats (from the
 * plugins' sources; see test/fixtures/diagnose/README.md for which fixtures are captured
 * and which are written from the documented format):
 *
 *   checkstyle  src/main/java/A.java:[12,5] (whitespace) FileTabCharacter: File contains tab characters
 *               (maven-checkstyle-plugin 3.x; the file is relative to the module), or the
 *               checkstyle logger's own `/abs/A.java:12:5: message [RuleName]`
 *   pmd         PMD Failure: com.acme.A:12 Rule:UnusedLocalVariable Priority:3 Avoid unused ...
 *   spotbugs    Medium: <long message> [com.acme.A] At A.java:[line 12] NP_NULL_ON_SOME_PATH
 *   forbidden   Forbidden method invocation: java.lang.String#toLowerCase() [Uses default locale]
 *                 in com.acme.A (A.java:12)
 *   spotless    The following files had format violations:
 *                   src/main/java/A.java            (relative to the module)
 *                       @@ -5,7 +5,7 @@             (diff, whitespace made visible)
 *   fmt         Non complying file: /abs/A.java
 *   formatter   File '/abs/A.java' has not been previously formatted. ...
 *   license     Missing header in: /abs/A.java
 *
 * Every recogniser is anchored and checks a cheap literal first, so a long line costs
 * one pass.
 */
import type { QualityFinding } from '../types.js';

export type { QualityFinding };

const CHECKSTYLE_MAVEN = /^(.+?\.(?:java|kt|groovy|xml|properties)):\[(\d+)(?:,(\d+))?\] \(([\w.-]+)\) (\w+): (.*)$/;
const CHECKSTYLE_NATIVE = /^(.+?\.java):(\d+)(?::(\d+))?: (.*) \[(\w+)\]$/;
const PMD_LINE = /^PMD Failure: ([\w$.]+):(\d+) Rule:(\S+) Priority:(\d) (.*)$/;
const SPOTBUGS_PRIORITY = /^(High|Medium|Low|Scariest|Scary|Troubling|Of Concern|Unknown): /;
const FORBIDDEN = /^Forbidden ([a-z/ ]{1,40}): (.*)$/;
const FORBIDDEN_WHERE = /^\s+in ([\w$.]+) \(([\w$]+\.java)(?::(\d+)|, [^)]*)?\)\s*$/;
const SPOTLESS_FILE = /^ {4}(\S.*)$/;
const SPOTLESS_HUNK = /^ {8}@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;

function isAbsolute(file: string): boolean {
  return /^(?:[A-Za-z]:[\\/]|\\|\/)/.test(file);
}

function located(file: string): Pick<QualityFinding, 'file' | 'fileBase'> {
  return { file, fileBase: isAbsolute(file) ? 'absolute' : 'module' };
}

/** Stateless one-line findings. `context` is the plugin whose goal is running, when known. */
export function qualityLine(text: string, context: { tool?: string }): QualityFinding | undefined {
  if (text.includes('] (')) {
    const m = CHECKSTYLE_MAVEN.exec(text);
    if (m) {
      return {
        tool: 'checkstyle',
        ...located(m[1]!),
        line: Number(m[2]),
        ...(m[3] ? { column: Number(m[3]) } : {}),
        rule: m[5]!,
        message: m[6]!,
      };
    }
  }
  if (context.tool === 'checkstyle' && text.endsWith(']')) {
    const m = CHECKSTYLE_NATIVE.exec(text);
    if (m)
      return {
        tool: 'checkstyle',
        ...located(m[1]!),
        line: Number(m[2]),
        ...(m[3] ? { column: Number(m[3]) } : {}),
        rule: m[5]!,
        message: m[4]!,
      };
  }
  if (text.startsWith('PMD Failure: ')) {
    const m = PMD_LINE.exec(text);
    if (m)
      return { tool: 'pmd', className: m[1]!, line: Number(m[2]), rule: m[3]!, message: m[5]!.replace(/\.\.$/, '.') };
  }
  if (SPOTBUGS_PRIORITY.test(text)) return spotbugsLine(text);
  if (text.startsWith('Non complying file: ')) {
    const file = text.slice('Non complying file: '.length).trim();
    return { tool: 'fmt', ...located(file), message: 'the file is not formatted (fmt)' };
  }
  if (text.startsWith("File '") && text.includes("' has not been previously formatted")) {
    const file = text.slice(6, text.indexOf("' has not been previously formatted"));
    return { tool: 'formatter', ...located(file), message: 'the file is not formatted (formatter-maven-plugin)' };
  }
  if (text.startsWith('Missing header in: ')) {
    const file = text.slice('Missing header in: '.length).trim();
    return { tool: 'license', ...located(file), message: 'the license header is missing' };
  }
  return undefined;
}

/**
 * `Medium: <message> [com.acme.A] At A.java:[line 12] TYPE`: priority, SpotBugs' long
 * message, the classes, the primary source line's own message (`At`, `In`,
 * `Dereferenced at`, ...) and the bug type. Read from the right, on the tail only.
 */
const SPOTBUGS_TAIL =
  /\] (?:[A-Z][a-z]+ )?(?:[Aa]t|[Ii]n) ([\w$]+\.java)(?::\[lines? (\d+)(?:-\d+)?\])? ([A-Z][A-Z0-9_]+)$/;

function spotbugsLine(text: string): QualityFinding | undefined {
  const tailStart = Math.max(0, text.length - 300);
  const tail = SPOTBUGS_TAIL.exec(text.slice(tailStart));
  if (!tail) return undefined;
  const closing = tailStart + tail.index;
  const opening = text.lastIndexOf(' [', closing);
  if (opening === -1) return undefined;
  const className = text
    .slice(opening + 2, closing)
    .split(',')[0]!
    .trim();
  const message = text.slice(text.indexOf(': ') + 2, opening);
  if (!/^[\w$.]+$/.test(className)) return undefined;
  return {
    tool: 'spotbugs',
    className,
    sourceFile: tail[1]!,
    ...(tail[2] ? { line: Number(tail[2]) } : {}),
    rule: tail[3]!,
    message,
  };
}

/** The findings that span lines: spotless' file list with diffs, forbiddenapis' message plus location. */
export class MultiLineQuality {
  private spotless: { current?: QualityFinding; contextLines: number; inHunk: boolean } | undefined;
  private forbidden: string | undefined;

  /**
   * Findings completed by this line (possibly the previous file of a spotless list), and
   * whether the line belonged to a multi-line finding (then nothing else should read it).
   */
  feed(text: string): { findings: QualityFinding[]; consumed: boolean } {
    if (this.forbidden !== undefined) {
      const message = this.forbidden;
      this.forbidden = undefined;
      const where = FORBIDDEN_WHERE.exec(text);
      if (where) {
        const finding: QualityFinding = {
          tool: 'forbiddenapis',
          className: where[1]!,
          sourceFile: where[2]!,
          ...(where[3] ? { line: Number(where[3]) } : {}),
          message,
        };
        return { findings: [finding], consumed: true };
      }
    }
    if (text.startsWith('Forbidden ')) {
      const m = FORBIDDEN.exec(text);
      if (m) {
        this.forbidden = `Forbidden ${m[1]}: ${m[2]}`;
        return { findings: [], consumed: true };
      }
    }
    if (text.endsWith('The following files had format violations:')) {
      const done = this.endSpotless();
      this.spotless = { contextLines: 0, inHunk: false };
      return { findings: done, consumed: text === 'The following files had format violations:' };
    }
    if (this.spotless) return this.feedSpotless(text);
    return { findings: [], consumed: false };
  }

  /** Call at the end of an `[ERROR]` block and at the end of the log. */
  flush(): QualityFinding[] {
    this.forbidden = undefined;
    return this.endSpotless();
  }

  private feedSpotless(text: string): { findings: QualityFinding[]; consumed: boolean } {
    const state = this.spotless!;
    const hunk = SPOTLESS_HUNK.exec(text);
    if (hunk) {
      if (state.current && state.current.line === undefined) {
        state.inHunk = true;
        state.contextLines = 0;
        state.current.line = Number(hunk[1]);
      } else state.inHunk = false;
      return { findings: [], consumed: true };
    }
    if (text.startsWith('        ')) {
      const body = text.slice(8);
      if (state.inHunk && state.current) {
        if (body.startsWith('-') || body.startsWith('+')) {
          state.current.line! += state.contextLines;
          state.inHunk = false;
        } else state.contextLines++;
      }
      return { findings: [], consumed: true };
    }
    const file = SPOTLESS_FILE.exec(text);
    if (file && !/^\.\.\. |^Violations also present in/.test(file[1]!)) {
      const done = state.current ? [state.current] : [];
      const path = file[1]!.trim();
      state.current = { tool: 'spotless', ...located(path), message: 'the file is not formatted (spotless)' };
      state.inHunk = false;
      return { findings: done, consumed: true };
    }
    if (file) return { findings: [], consumed: true };
    return { findings: this.endSpotless(), consumed: /^Run '.*' to fix these violations\.?$/.test(text.trim()) };
  }

  private endSpotless(): QualityFinding[] {
    const done = this.spotless?.current ? [this.spotless.current] : [];
    if (this.spotless?.current && this.spotless.inHunk) this.spotless.current.line! += this.spotless.contextLines;
    this.spotless = undefined;
    return done;
  }
}
