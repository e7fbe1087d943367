/**
 * The middleware's step for arguments that designate code. A tool asks for a `file` (and
 * a `method`, a `class`, lines); a small model names the code instead, the way the stack
 * trace and the test name it (code-names.ts reads every form). The name is looked up in
 * the project (code-index.ts) and placed where the tool takes it:
 *
 * - one match: the arguments are rewritten, and the correction is said in one line;
 * - several: the call is not run; the answer lists the candidates (file, kind, line),
 *   each with the call rewritten for it, so that the next call can pick one;
 * - none: the call is not run; the answer says so, lists the nearest names and rewrites
 *   the call with the nearest one.
 *
 * A path that names no file is left to the tool, which says what exists instead. A
 * required argument still missing gets the exact form that works, the call rewritten.
 */
import { escape } from 'minimatch';
import type { SourceView, ToolParameter } from '../../plugins/contracts.js';
import { describeSite, filesNamed, isTestFile, lookUpCode, type CodeSite, type Designation } from './code-index.js';
import { javaReadings, readCodeName, readLineSpan, readMember, type JavaReading, type LineSpan } from './code-names.js';
import { formHint, inToolOrder, renderCall, type CodeTool } from './call-forms.js';

export { formHint, renderCall, type CodeTool } from './call-forms.js';

/** Arguments models use to name code or lines, which no built-in tool takes by that name. */
export interface CodeExtras {
  type?: { key: string; value: string };
  member?: { key: string; value: string };
  lines?: { key: string; value: unknown };
  /** A whole code name under a key of its own (`name`, `symbol`), taken as the file where nothing else takes it. */
  asFile?: { key: string; value: string };
}

const TYPE_KEYS = [
  'class',
  'type',
  'class_name',
  'classname',
  'type_name',
  'qualified_name',
  'qualified_class_name',
  'fqn',
  'fully_qualified_name',
  'class_fqn',
  'target_class',
  'test_class',
];
const NAME_KEYS = ['name', 'symbol', 'target', 'code', 'code_name', 'element'];
const MEMBER_KEYS = [
  'method',
  'member',
  'method_name',
  'member_name',
  'function',
  'function_name',
  'field',
  'field_name',
  'constructor',
  'test_method',
];
const LINE_KEYS = ['lines', 'line_range', 'lines_range', 'range', 'span', 'line_numbers', 'region', 'selection'];
/** Candidates shown at most; more are counted. */
const MAX_CANDIDATES = 8;

const normalise = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();

/**
 * Takes the arguments that name code or lines out of `given` (which the caller then maps
 * by name as usual): a type always (no built-in tool has a "class" of its own; a command
 * tool's `class` stays too), a member or lines when no parameter of the tool takes them.
 */
export function takeCodeExtras(
  parameters: Record<string, ToolParameter>,
  given: Record<string, unknown>,
  takes: (key: string) => boolean,
): CodeExtras {
  const extras: CodeExtras = {};
  for (const [key, value] of Object.entries(given)) {
    const name = normalise(key);
    if (key in parameters) continue;
    if (TYPE_KEYS.includes(name) && typeof value === 'string' && !extras.type) extras.type = { key, value };
    else if (MEMBER_KEYS.includes(name) && typeof value === 'string' && !extras.member && !takes(name))
      extras.member = { key, value };
    else if (LINE_KEYS.includes(name) && !extras.lines && !takes(name)) extras.lines = { key, value };
    else if (
      NAME_KEYS.includes(name) &&
      typeof value === 'string' &&
      'file' in parameters &&
      given.file === undefined &&
      !extras.asFile &&
      !takes(name)
    )
      extras.asFile = { key, value };
    else continue;
    delete given[key];
  }
  return extras;
}

export interface PlacedCode {
  corrections: string[];
  /**
   * When the call cannot run as it is: the answer the model gets instead (candidates, none, or the form that works).
   */
  answer?: string;
}

/** Places the code and lines the call names into the tool's own arguments (`args` is changed in place). */
export async function placeCode(
  tool: CodeTool,
  args: Record<string, unknown>,
  extras: CodeExtras,
  view: SourceView,
): Promise<PlacedCode> {
  const parameters = tool.parameters;
  const has = (name: string) => name in parameters;
  const corrections: string[] = [];
  let linesPlaced = placeLines(tool, args, extras, corrections);

  if (extras.asFile && args.file === undefined) {
    args.file = extras.asFile.value;
    corrections.push(`${JSON.stringify(extras.asFile.key)} → "file"`);
  }
  const fileText = has('file') && typeof args.file === 'string' ? args.file : undefined;
  const read = fileText !== undefined ? readCodeName(fileText) : undefined;
  if (read?.lines) {
    // `Utils.java line 50`: the lines go where the tool takes lines; the name is looked up below.
    args.file = read.written;
    if (!linesPlaced)
      linesPlaced = setLines(
        tool,
        args,
        read.lines,
        `${JSON.stringify(fileText)} → file ${JSON.stringify(read.written)},`,
        corrections,
      );
  }
  const member = memberOf(args, extras, has('method'));
  const typeText = extras.type?.value ?? (has('class') && typeof args.class === 'string' ? args.class : undefined);
  // A class or method given apart from a file names the file where the file is the code to read (not
  // find_similar_api_calls's "leave out").
  const namesCode = (has('file') && (!parameters.file!.optional || has('test') || has('class'))) || has('class');
  let nameSearched = false;
  if (has('call') && args.call === undefined && member) {
    args.call = member.member;
    corrections.push(`${describeKey(extras.member)} → "call" ${JSON.stringify(member.member)}`);
  }
  if (has('pattern') && args.pattern === undefined && (member || typeText)) {
    args.pattern = member?.member ?? typeText!.slice(typeText!.lastIndexOf('.') + 1);
    nameSearched = true;
    corrections.push(`${describeKey(extras.member ?? extras.type)} → "pattern" ${JSON.stringify(args.pattern)}`);
  }

  let designation: Designation;
  let given: string;
  if (read?.name.kind === 'path') {
    const path = read.name.path;
    const wantedMember = read.name.member ?? member?.member;
    const needsMember =
      wantedMember !== undefined && (has('method') || (has('start') && !linesPlaced && args.start === undefined));
    if (extras.type) corrections.push(`${describeKey(extras.type)} left out: "file" names the code`);
    if (path === args.file && !needsMember && (await view.list(escape(path))).length === 1)
      return finish(tool, args, corrections, linesPlaced);
    designation = { path, readings: [], ...(needsMember ? { member: wantedMember } : {}) };
    given = `file ${JSON.stringify(args.file)}${member && needsMember && !read.name.member ? ` and ${describeKey(extras.member) || `"method" ${JSON.stringify(args.method)}`}` : ''}`;
  } else if (read?.name.kind === 'java') {
    if (extras.type) corrections.push(`${describeKey(extras.type)} left out: "file" names the code`);
    // A file without an extension (README, mvnw, Dockerfile) is a file before it is a Java name.
    const asFile = /^[\w$-]+$/.test(read.written) ? await filesNamed(view, read.written) : [];
    designation =
      asFile.length > 0 ? { path: read.written, readings: [] } : { readings: withMember(read.name.readings, member) };
    given = `file ${JSON.stringify(args.file)}${member && !read.name.readings.some((reading) => reading.member) ? ` and ${describeKey(extras.member) || `"method" ${JSON.stringify(args.method)}`}` : ''}`;
  } else if (
    (namesCode && (typeText || (member && has('method')))) ||
    (has('glob') && typeText && !nameSearched) ||
    (namesCode && member && !has('call'))
  ) {
    const readings = typeText ? javaReadings(typeText).filter((reading) => reading.type && !reading.member) : [{}];
    designation = { readings: withMember(readings, member) };
    given = [
      typeText ? describeKey(extras.type) || `"class" ${JSON.stringify(typeText)}` : '',
      member ? describeKey(extras.member) || `"method" ${JSON.stringify(args.method)}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
  } else {
    if (extras.type && !nameSearched)
      corrections.push(`dropped ${describeKey(extras.type)}: ${tool.name} does not look code up by class`);
    return finish(tool, args, corrections, linesPlaced);
  }
  if (designation.readings.length === 0 && designation.path === undefined)
    return finish(tool, args, corrections, linesPlaced);

  const found = await lookUpCode(view, designation);
  if ('missing' in found) {
    // A path that names no file is the tool's to answer: it says which files have that name.
    if (designation.path !== undefined && !designation.member) return finish(tool, args, corrections, linesPlaced);
    const nearest = found.nearest.length > 0 ? `; nearest names: ${found.nearest.join(', ')}` : '';
    return {
      corrections,
      answer: `${given}: ${found.missing}${nearest}. ${tool.name} was not run. ${formHint(tool, args)}`,
    };
  }
  const sites = narrow(tool, found.sites);
  if (sites.length > 1) return { corrections, answer: candidatesAnswer(tool, args, sites, given) };
  const site = sites[0]!;
  const before = args.file;
  const unchanged = JSON.stringify(args);
  const placed = applySite(tool, args, site, linesPlaced || args.start !== undefined);
  // A plain path correction reads as before: file "Cart.java" → "src/main/java/com/acme/shop/Cart.java".
  if (JSON.stringify(args) !== unchanged)
    corrections.push(
      site.kind === 'file' && designation.path !== undefined
        ? `file ${JSON.stringify(before)} → ${JSON.stringify(site.file)}`
        : `${given} → ${placed}`,
    );
  return finish(tool, args, corrections, linesPlaced || args.start !== undefined);
}

/**
 * The member named by a member argument or the tool's own `method`, with the type it may carry (`OrderService#total`).
 */
function memberOf(
  args: Record<string, unknown>,
  extras: CodeExtras,
  hasMethod: boolean,
): { type?: string; member: string } | undefined {
  const raw = extras.member?.value ?? (hasMethod && typeof args.method === 'string' ? args.method : undefined);
  const reading = raw !== undefined ? readMember(raw) : undefined;
  return reading?.member ? { member: reading.member, ...(reading.type ? { type: reading.type } : {}) } : undefined;
}

function withMember(readings: JavaReading[], member: { type?: string; member: string } | undefined): JavaReading[] {
  if (!member) return readings;
  if (readings.length === 0 || (readings.length === 1 && !readings[0]!.type && !readings[0]!.member))
    return [{ ...(member.type ? { type: member.type } : {}), member: member.member }];
  return readings.map((reading) => (reading.member ? reading : { ...reading, member: member.member }));
}

/** Several declarations in one file are one answer where the tool reads the whole file or every overload. */
function narrow(tool: CodeTool, sites: CodeSite[]): CodeSite[] {
  let kept = sites;
  if ('test' in tool.parameters && kept.some((site) => isTestFile(site.file)))
    kept = kept.filter((site) => isTestFile(site.file));
  const files = [...new Set(kept.map((site) => site.file))];
  if (files.length !== 1 || kept.length === 1) return kept;
  const [first] = kept;
  return [
    {
      ...first!,
      startLine: Math.min(...kept.map((site) => site.startLine)),
      endLine: Math.max(...kept.map((site) => site.endLine)),
    },
  ];
}

/** Writes the site into the tool's arguments; says what it wrote. */
function applySite(tool: CodeTool, args: Record<string, unknown>, site: CodeSite, linesPlaced: boolean): string {
  const has = (name: string) => name in tool.parameters;
  const said: string[] = [];
  if (has('file') && (!has('glob') || args.glob === undefined)) {
    args.file = site.file;
    said.push(`file ${JSON.stringify(site.file)}`);
  } else if (has('glob')) {
    args.glob = escape(site.file);
    said.push(`glob ${JSON.stringify(args.glob)}`);
  }
  if (has('class') && site.type) {
    args.class = site.type;
    said.push(`class ${site.type}`);
  }
  if (has('method') && site.member) {
    args.method = site.member;
    said.push(`method ${site.member}`);
  }
  const declared =
    site.kind === 'file'
      ? ''
      : ` (${site.kind} ${site.member ? `${site.type}.${site.member}` : site.type}, line ${site.line})`;
  if (has('start') && !linesPlaced && args.start === undefined && site.kind !== 'file') {
    args.start = site.startLine;
    if (has('end')) args.end = site.endLine;
    said.push(`lines ${site.startLine}-${site.endLine}`);
  } else if (has('line') && !tool.parameters.line!.optional && args.line === undefined) {
    args.line = site.line;
    said.push(`line ${site.line}`);
  }
  return said.join(', ') + declared;
}

/** Lines given apart (`lines`, `range`) or in a form the tool's own start/line does not take ("10-20", [10, 20]). */
function placeLines(tool: CodeTool, args: Record<string, unknown>, extras: CodeExtras, corrections: string[]): boolean {
  if (extras.lines) {
    const span = readLineSpan(extras.lines.value);
    if (!span) {
      corrections.push(
        `dropped ${JSON.stringify(extras.lines.key)}: ${JSON.stringify(extras.lines.value)} is no line or range`,
      );
      return false;
    }
    return setLines(
      tool,
      args,
      span,
      `${JSON.stringify(extras.lines.key)} ${JSON.stringify(extras.lines.value)} →`,
      corrections,
    );
  }
  for (const key of ['start', 'line']) {
    const value = args[key];
    if (!(key in tool.parameters) || value === undefined || typeof value === 'number') continue;
    const span = readLineSpan(value);
    if (!span) continue;
    delete args[key];
    return setLines(tool, args, span, `${JSON.stringify(key)} ${JSON.stringify(value)} →`, corrections);
  }
  return false;
}

/** start/end, or line, from a span; false when the tool takes no lines. */
function setLines(
  tool: CodeTool,
  args: Record<string, unknown>,
  span: LineSpan,
  from: string,
  corrections: string[],
): boolean {
  const has = (name: string) => name in tool.parameters;
  if (has('start')) {
    args.start = span.start;
    if (span.end !== undefined && has('end')) args.end = span.end;
    corrections.push(`${from} start ${span.start}${span.end !== undefined && has('end') ? `, end ${span.end}` : ''}`);
    return true;
  }
  if (has('line')) {
    args.line = span.start;
    corrections.push(`${from} line ${span.start}`);
    return true;
  }
  corrections.push(`${from.replace(/,$/, '')} (the lines are not used by ${tool.name})`);
  return false;
}

const describeKey = (entry: { key: string; value: string } | undefined) =>
  entry ? `${JSON.stringify(entry.key)} ${JSON.stringify(entry.value)}` : '';

function candidatesAnswer(tool: CodeTool, args: Record<string, unknown>, sites: CodeSite[], given: string): string {
  const rows = sites.slice(0, MAX_CANDIDATES).map((site) => {
    const rewritten = { ...args };
    applySite(tool, rewritten, site, false);
    return `- ${describeSite(site)}: ${renderCall(tool.name, inToolOrder(tool, rewritten))}`;
  });
  const more =
    sites.length > MAX_CANDIDATES
      ? [`... and ${sites.length - MAX_CANDIDATES} more: name the class with its package`]
      : [];
  const what = sites.every((site) => site.kind === 'file') ? 'files' : 'declarations';
  return [
    `${given} names ${sites.length} ${what} in the project; ${tool.name} was not run. Call it again with the one you mean:`,
    ...rows,
    ...more,
  ].join('\n');
}

/** A required argument still missing: the answer with the form that works, instead of running the tool. */
function finish(
  tool: CodeTool,
  args: Record<string, unknown>,
  corrections: string[],
  linesPlaced: boolean,
): PlacedCode {
  const has = (name: string) => name in tool.parameters;
  // Reading a file without saying where: from its first line.
  if (
    has('start') &&
    !tool.parameters.start!.optional &&
    args.start === undefined &&
    !linesPlaced &&
    typeof args.file === 'string' &&
    args.file.trim() !== ''
  ) {
    args.start = 1;
    corrections.push('"start" 1 (none given)');
  }
  const missing = Object.entries(tool.parameters).filter(
    ([name, parameter]) =>
      !parameter.optional && (args[name] === undefined || args[name] === null || args[name] === ''),
  );
  if (missing.length === 0) return { corrections };
  const names = missing.map(([name, parameter]) => `"${name}" (${parameter.description})`).join(' and ');
  return { corrections, answer: `${tool.name} needs ${names}. ${formHint(tool, args)}` };
}
