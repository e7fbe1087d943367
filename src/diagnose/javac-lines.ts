/**
 * The forms in which javac's findings reach a Maven log:
 *
 * - maven-compiler-plugin: `/abs/File.java:[12,5] message` (errors under `[ERROR]`,
 *   warnings under `[WARNING]`; plexus-compiler drops javac's `[lint]` tag).
 * - plain javac and the javadoc tool (maven-javadoc-plugin, doclint):
 *   `File.java:79: error: malformed HTML`, the first one after `Exit code: 1 - ` when
 *   maven-javadoc-plugin quotes the tool's output in its exception.
 * - `-Werror`: `/abs/File.java: warnings found and -Werror specified` (compiler plugin)
 *   or `error: warnings found and -Werror specified` (javac), with no line: the lines are
 *   the warnings printed before it.
 *
 * Paths may be POSIX, Windows with a drive (`C:\`), UNC (`\\server\`) or Windows without
 * a drive (`\work\app\...`, a CI agent that prints the path from the drive root).
 */

const ABSOLUTE = String.raw`(?:[A-Za-z]:[\\/]|\\\\|\\|\/)`;
/** maven-compiler-plugin's form. Lazy up to `.java):[`, anchored: one pass over the line. */
export const COMPILER_ENTRY = new RegExp(String.raw`^(${ABSOLUTE}[^[\]]*?\.java):\[(\d+)(?:,(\d+))?\] ?(.*)$`);
/** javac's and javadoc's own form; the path may be relative (javadoc run from the module folder). */
const JAVAC_ENTRY =
  /^(?:Exit code: \d+ - )?([^\s:][^:]*?\.java|[A-Za-z]:[\\/][^:]*?\.java):(\d+): (error|warning): (.*)$/;
const WERROR_SUFFIX = 'warnings found and -Werror specified';
export const WERROR_MESSAGE = WERROR_SUFFIX;

export interface JavacEntry {
  file: string;
  line: number;
  column?: number;
  severity: 'error' | 'warning';
  message: string;
  lint?: string;
}

export function compilerEntry(
  text: string,
): { file: string; line: number; column?: number; message: string } | undefined {
  if (!text.includes('.java:[')) return undefined;
  const m = COMPILER_ENTRY.exec(text);
  if (!m) return undefined;
  return {
    file: m[1]!,
    line: Number(m[2]),
    ...(m[3] !== undefined ? { column: Number(m[3]) } : {}),
    message: m[4] ?? '',
  };
}

/** `File.java:79: error: malformed HTML` (javadoc, doclint, plain javac). */
export function javacEntry(text: string): JavacEntry | undefined {
  if (!text.includes('.java:') || !/: (?:error|warning): /.test(text)) return undefined;
  const m = JAVAC_ENTRY.exec(text);
  if (!m) return undefined;
  const { message, lint } = splitLint(m[4] ?? '');
  return { file: m[1]!, line: Number(m[2]), severity: m[3] as 'error' | 'warning', message, ...(lint ? { lint } : {}) };
}

/** The file named by a `-Werror` failure, '' for javac's own form, undefined when the line is not one. */
export function werrorMarker(text: string): string | undefined {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(WERROR_SUFFIX)) return undefined;
  const head = trimmed.slice(0, -WERROR_SUFFIX.length).trim();
  if (head === '' || head === 'error:') return '';
  return head.endsWith('.java:') ? head.slice(0, -1) : undefined;
}

/** javac keeps the lint tag (`[rawtypes] found raw type`); plexus-compiler drops it. */
export function splitLint(message: string): { message: string; lint?: string } {
  const tagged = /^\[([a-z][a-z-]*)\] (.*)$/.exec(message);
  if (tagged) return { message: tagged[2]!, lint: tagged[1]! };
  const lint = inferLint(message);
  return lint ? { message, lint } : { message };
}

/**
 * The lint category of a javac warning whose tag was dropped, from the wording of javac's
 * resource bundle (compiler.properties, JDK 8 to 21). Unknown wording gives undefined.
 */
const LINT_WORDING: ReadonlyArray<[RegExp, string]> = [
  [/^found raw type\b/, 'rawtypes'],
  [
    /^unchecked (?:call|conversion|cast|method invocation|generic array creation|assignment)\b|^\S+ in \S+ implements \S+ in \S+\s*$/,
    'unchecked',
  ],
  [/has been deprecated and marked for removal/, 'removal'],
  [/has been deprecated\b|^\[?deprecation\]?/, 'deprecation'],
  [
    /^serializable class .* has no definition of serialVersionUID|^non-transient instance field of a serializable class/,
    'serial',
  ],
  [/^redundant cast to\b/, 'cast'],
  [/^possible fall-through into case\b/, 'fallthrough'],
  [/^finally clause cannot complete normally/, 'finally'],
  [/^division by zero/, 'divzero'],
  [/^empty statement after if/, 'empty'],
  [/^static (?:method|variable) should be qualified by type name/, 'static'],
  [/^auto-closeable resource .* (?:is never referenced|may throw interrupted)/, 'try'],
  [/overrides equals, but neither it nor any superclass overrides hashCode/, 'overrides'],
  [/^deprecated item is not annotated with @Deprecated/, 'dep-ann'],
  [
    /^(?:bootstrap class path|system modules path) not set|^source value \d+ is obsolete|^target value \d+ is obsolete|^\[options\]/,
    'options',
  ],
  [/^possible 'this' escape/, 'this-escape'],
  [/^implicit cast from \S+ to \S+ in compound assignment is possibly lossy/, 'lossy-conversions'],
  [/^(?:Varargs method could cause heap pollution|Possible heap pollution from parameterized vararg type)/, 'varargs'],
  [/^inconsistent white space indentation|^trailing white space will be removed/, 'text-blocks'],
  [
    /^class \S+ in module \S+ is not indirectly exported|^requires transitive directive for an automatic module/,
    'exports',
  ],
  [
    /^No processor claimed any of these annotations|^Supported source version .* from annotation processor/,
    'processing',
  ],
  [/^auxiliary class \S+ in \S+ should not be accessed from outside its own source file/, 'auxiliaryclass'],
  [/^class \S+ declares no explicit constructors/, 'missing-explicit-ctor'],
  [/^as of release \d+, '\w+' is a restricted (?:identifier|type name)/, 'preview'],
  [
    /^(?:no comment|no @(?:param|return|throws) for|no main description|malformed HTML|bad use of|self-closing element not allowed|unexpected end tag|@param name not found|reference not found|no summary)\b/,
    'doclint',
  ],
];

export function inferLint(message: string): string | undefined {
  for (const [pattern, lint] of LINT_WORDING) if (pattern.test(message)) return lint;
  return undefined;
}

/** javac's continuation lines, which Maven may print flush after `[ERROR] `. */
export function isJavacDetail(text: string): boolean {
  return /^\s*(?:symbol|location|required|found|reason|where|lower bounds|upper bounds|equality constraints|inference variable|argument mismatch|actual and formal)\b/.test(
    text,
  );
}
