/**
 * The messages of one repair call: a pure function of the diagnostics, the context pieces
 * the repair stage gathered, the team guidelines, the history and the edit format.
 *
 * Budget (`contextTokens`, the model's window): room for the answer is kept free; the
 * failure (its first failures in full, failure-section.ts), the format instructions and
 * what each earlier attempt did are always sent, the attempts within a fixed allowance
 * reserved from the first attempt on (so every attempt packs the same code);
 * the context pieces are packed by tier and relevance (context-pack.ts), whole methods or
 * nothing, and what was left out is named; earlier diffs (newest first) fill what is left.
 * The system message lists the files shown, which are the files the model may edit.
 * Order: what one run's calls share first (rules, files, failure, code, answer format), the
 * earlier attempts last, so each call's prompt begins with the one before it.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { DEFAULT_ANSWER_TOKENS, estimateTokens } from '../context-window.js';
import type { ChatMessage } from '../types.js';
import { packContext, type ContextPiece, type PackResult } from './context-pack.js';
import { EDIT_FORMAT_INSTRUCTIONS, EDIT_FORMATS, type EditFormat } from './edit-formats.js';
import { failureSection } from './failure-section.js';
import { GUIDELINES_HEADING, SYSTEM_PROMPT, editableFilesSection } from './system.js';

export interface AttemptSummary {
  n: number;
  /** e.g. `build-failed`, `rejected`, `not-applicable`, `regressed`. */
  outcome: string;
  /** How it failed: the validation problem, the new compiler error, the failing test. */
  reason?: string;
  /** The patch that was tried. */
  diff?: string;
}

export interface RepairPromptInput {
  diagnostics: Diagnostic[];
  /** Code the repair stage found relevant; packed into what fits (context-pack.ts). */
  context: ContextPiece[];
  /** Whether policy lets the model edit a shown file; default: every shown file. */
  editable?: (path: string) => boolean;
  /** While tests fail: whether a shown file is on the test side, which a patch may not change. */
  testSide?: (path: string) => boolean;
  guidelines?: string;
  editFormat: EditFormat;
  history: AttemptSummary[];
  /** The model's context window in tokens (`model.contextTokens`). */
  contextTokens: number;
  /** Kept free for the answer; default DEFAULT_ANSWER_TOKENS. */
  answerTokens?: number;
}

export interface RepairPrompt {
  messages: ChatMessage[];
  /** What the packer took and left out. */
  pack: PackResult;
  /** Project files shown, in the order shown. */
  files: string[];
  /** Estimated tokens of the messages. */
  tokens: number;
}

/** Said with every failure that includes failing tests: a patch to the test side is refused before any build. */
export const TEST_SIDE_NOTE =
  'The test side is read-only while tests fail: the tests, their helpers and set-up methods, shared test utilities, test resources (expected-output files) and test-support modules state the expected behaviour, and a patch that changes any of them is refused. When the failure is raised inside a test helper, the bug is in the main code the test calls: fix that.';

const MAX_DETAIL_LINES = 10;
const MAX_STACK_LINES = 60;
const MAX_DIFF_LINES = 80;
const MAX_OMITTED_NAMED = 20;
/** Guidelines may take at most this share of the window; the failure and the code matter more. */
const GUIDELINES_SHARE = 0.2;
/**
 * Share of the prompt the packer leaves for the earlier attempts' lines from the first attempt on, so a later attempt
 * packs the same code as the first and its prompt begins with the first's (a server's prompt cache reuses it); only
 * history that outgrows the share takes room from the code.
 */
const HISTORY_SHARE = 0.08;
/** Tokens of chat template around each message (Ollama's templates add a few). */
const MESSAGE_OVERHEAD = 8;

export function buildRepairPrompt(input: RepairPromptInput): ChatMessage[] {
  return composeRepairPrompt(input).messages;
}

export function composeRepairPrompt(input: RepairPromptInput): RepairPrompt {
  validate(input);
  const answer = input.answerTokens ?? DEFAULT_ANSWER_TOKENS;
  const promptBudget = input.contextTokens - answer;
  const guidelines = guidelinesText(input.guidelines, input.contextTokens);
  const failure = `## Build failure\n\n${failureSection(input.diagnostics, renderDiagnostic, promptBudget)}${input.testSide ? `\n\n${TEST_SIDE_NOTE}` : ''}`;
  const format = `## Your answer\n\n${EDIT_FORMAT_INSTRUCTIONS[input.editFormat]}`;
  const history = [...input.history].sort((a, b) => a.n - b.n);
  const policyAllows = input.editable ?? (() => true);
  const onTestSide = input.testSide ?? (() => false);
  const editable = (path: string) => policyAllows(path) && !onTestSide(path);

  // Reserve the largest file list and left-out note the pieces could need, so the packed prompt always fits.
  const allPaths = [...new Set(input.context.map((piece) => piece.path).filter((p): p is string => p !== undefined))];
  const historyLines = history.reduce((sum, attempt) => sum + estimateTokens(renderAttempt(attempt)) + 2, 0);
  const allowance = Math.max(historyLines, Math.floor(promptBudget * HISTORY_SHARE));
  const reserved =
    estimateTokens(SYSTEM_PROMPT) +
    estimateTokens(guidelines) +
    estimateTokens(editableFilesSection(allPaths, editable, onTestSide)) +
    estimateTokens(failure) +
    estimateTokens(format) +
    allowance +
    estimateTokens(omittedSection(input.context)) +
    40 +
    2 * MESSAGE_OVERHEAD;
  const pack = packContext(input.context, Math.max(0, promptBudget - reserved));
  const code = renderContext(pack.included, editable, onTestSide);

  // The earlier diffs may use what the attempts' lines left of the allowance.
  let spent = reserved - allowance + historyLines + pack.tokens;
  const diffs = new Map<number, string>();
  for (const attempt of [...history].reverse()) {
    if (!attempt.diff) continue;
    const fenced = fenceDiff(attempt.diff);
    const cost = estimateTokens(fenced) + 2;
    if (spent + cost > promptBudget) continue;
    spent += cost;
    diffs.set(attempt.n, fenced);
  }

  // What stays the same from one attempt to the next comes first and the earlier attempts last, so the
  // next call's prompt starts with this one's and a server's prompt cache evaluates only what is new.
  const sections = [failure, code.text || '## Code\n\n(no source could be read for this failure)'];
  if (pack.omitted.length > 0) sections.push(omittedSection(pack.omitted));
  sections.push(format);
  if (history.length > 0) {
    const attempts = history.map((attempt) =>
      [renderAttempt(attempt), diffs.get(attempt.n)].filter(Boolean).join('\n'),
    );
    sections.push(`## Earlier attempts that did not work (do not repeat them)\n\n${attempts.join('\n\n')}`);
  }
  const system = [SYSTEM_PROMPT, editableFilesSection(code.files, editable, onTestSide), guidelines]
    .filter(Boolean)
    .join('\n\n');
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: sections.join('\n\n') },
  ];
  return {
    messages,
    pack,
    files: code.files,
    tokens: messages.reduce((sum, message) => sum + estimateTokens(message.content) + MESSAGE_OVERHEAD, 0),
  };
}

/**
 * Included pieces as the model reads them: each project file once, under a heading that
 * says why it is shown, its lines numbered, one fenced block per run of lines; then the
 * library declarations.
 */
function renderContext(
  pieces: readonly ContextPiece[],
  editable: (path: string) => boolean,
  onTestSide: (path: string) => boolean,
): { text: string; files: string[] } {
  const files = new Map<string, { lines: Map<number, string>; reasons: string[] }>();
  const library: ContextPiece[] = [];
  for (const piece of pieces) {
    if (piece.path === undefined || piece.startLine === undefined) {
      library.push(piece);
      continue;
    }
    const file = files.get(piece.path) ?? { lines: new Map<number, string>(), reasons: [] };
    piece.text
      .replace(/\r\n/g, '\n')
      .split('\n')
      .forEach((text, offset) => file.lines.set(piece.startLine! + offset, text));
    const reason = piece.reason ?? piece.label;
    if (!file.reasons.includes(reason)) file.reasons.push(reason);
    files.set(piece.path, file);
  }
  const blocks: string[] = [];
  for (const [path, file] of files) {
    const numbers = [...file.lines.keys()].sort((a, b) => a - b);
    const width = String(numbers.at(-1) ?? 1).length;
    const runs: number[][] = [];
    for (const n of numbers) {
      const run = runs.at(-1);
      if (run && run.at(-1) === n - 1) run.push(n);
      else runs.push([n]);
    }
    const fenced = runs.map(
      (run) =>
        `\`\`\`${fenceLanguage(path)}\n${run.map((n) => `${String(n).padStart(width)} | ${file.lines.get(n)}`).join('\n')}\n\`\`\``,
    );
    const access = onTestSide(path)
      ? ' (read-only: the test side, while tests fail)'
      : editable(path)
        ? ''
        : ' (read-only: policy protects it)';
    blocks.push(
      `### ${path}${access}\nShown: ${file.reasons.slice(0, 4).join('; ')}${file.reasons.length > 4 ? `; and ${file.reasons.length - 4} more` : ''}\n${fenced.join('\n...\n')}`,
    );
  }
  const sections: string[] = [];
  if (blocks.length > 0) sections.push(`## Code\n\n${blocks.join('\n\n')}`);
  if (library.length > 0)
    sections.push(
      `## Declarations from the JDK and libraries (not editable)\n\n${library.map((piece) => `### ${piece.heading ?? piece.label}\n\`\`\`java\n${piece.text}\n\`\`\``).join('\n\n')}`,
    );
  return { text: sections.join('\n\n'), files: [...files.keys()] };
}

/**
 * What was not shown, one line per file: the model may name a file it needs, and an agent may read it. Each name is
 * short (the file says whose method it is): on jsoup the list of 20 named pieces was 500 of a 4,300-token prompt.
 */
function omittedSection(omitted: readonly ContextPiece[]): string {
  if (omitted.length === 0) return '';
  const byFile = new Map<string, string[]>();
  for (const piece of omitted.slice(0, MAX_OMITTED_NAMED)) {
    const key = piece.path ?? '';
    const name = piece.path ? shortLabel(piece) : piece.label;
    byFile.set(key, [...(byFile.get(key) ?? []), name]);
  }
  const lines = [...byFile].flatMap(([file, names]) =>
    file ? [`- ${file}: ${names.join('; ')}`] : names.map((name) => `- ${name}`),
  );
  const more = omitted.length > MAX_OMITTED_NAMED ? `\n- and ${omitted.length - MAX_OMITTED_NAMED} more` : '';
  return `## Left out to keep the prompt short\n\n${lines.join('\n')}${more}`;
}

/** `method DataUtil.load(File)` at line 71 -> `load(File) at 71`; `imports of DataUtil.java` -> `imports`. */
function shortLabel(piece: ContextPiece): string {
  const name = piece.label
    .replace(/^(?:part of )?(?:method|constructor) (?:[\w$]+\.)+(?=[\w$<]+\()/, '')
    .replace(/^imports of .*$/, 'imports')
    .replace(/^field (?:[\w$]+\.)+/, 'field ');
  return piece.startLine ? `${name} at ${piece.startLine}` : name;
}

export function renderDiagnostic(diagnostic: Diagnostic, index: number): string {
  const where = [
    diagnostic.file,
    diagnostic.line !== undefined ? `line ${diagnostic.line}` : undefined,
    diagnostic.column !== undefined ? `column ${diagnostic.column}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const module = diagnostic.module ? ` (module ${diagnostic.module})` : '';
  const lines: string[] = [];
  if (diagnostic.kind === 'test') {
    lines.push(
      `${index + 1}. Test failure: ${diagnostic.test ?? diagnostic.testFailure?.className ?? 'unknown test'}${module}${where ? `, failing at ${where}` : ''}`,
    );
    lines.push(`   ${diagnostic.message}`);
    const failure = diagnostic.testFailure;
    if (failure) {
      lines.push(
        `   ${failure.outcome === 'failure' ? 'Assertion failed' : 'Unexpected exception'}: ${failure.failureType}`,
      );
      if (failure.rootCause) lines.push(`   Root cause: ${failure.rootCause}`);
      const stack = failure.stackTrace.split('\n').filter((line) => line.trim() !== '');
      if (stack.length > 0)
        lines.push(
          '   Stack trace:',
          ...capped(stack, MAX_STACK_LINES).map((line) => `     ${line.replace(/^\t/, '').replace(/\t/g, '  ')}`),
        );
    }
  } else {
    const label = diagnosticLabel(diagnostic);
    lines.push(`${index + 1}. ${label}${where ? ` in ${where}` : ''}${module}:`);
    lines.push(`   ${diagnostic.message}`);
  }
  for (const detail of capped(diagnostic.details ?? [], MAX_DETAIL_LINES)) lines.push(`     ${detail.trim()}`);
  return lines.join('\n');
}

/** What kind of failure a non-test diagnostic is, in the words a developer would use. */
function diagnosticLabel(diagnostic: Diagnostic): string {
  const inTests = diagnostic.scope === 'test' ? ' in test code' : '';
  if (diagnostic.kind === 'compile' && diagnostic.lint)
    return `javac warning [${diagnostic.lint}] that fails the build under -Werror${inTests}`;
  if (diagnostic.kind === 'compile' && diagnostic.tool === 'javadoc') return `Javadoc error${inTests}`;
  if (diagnostic.kind === 'compile') return `Compile error${inTests}`;
  if (diagnostic.kind === 'quality')
    return `${diagnostic.tool ?? 'Quality'} check failed${diagnostic.rule ? ` (rule ${diagnostic.rule})` : ''}`;
  return 'Build error';
}

function renderAttempt(attempt: AttemptSummary): string {
  return `Attempt ${attempt.n} (${attempt.outcome})${attempt.reason ? `: ${attempt.reason}` : ''}`;
}

function guidelinesText(guidelines: string | undefined, contextTokens: number): string {
  const text = guidelines?.trim();
  if (!text) return '';
  const limit = Math.floor(contextTokens * GUIDELINES_SHARE);
  if (estimateTokens(text) <= limit) return `${GUIDELINES_HEADING}\n${text}`;
  // Cut at a line: the estimate is at most one token per character, so `limit` characters always fit.
  let kept = text.slice(0, limit);
  while (estimateTokens(kept) > limit - 12 && kept.includes('\n')) kept = kept.slice(0, kept.lastIndexOf('\n'));
  return `${GUIDELINES_HEADING}\n${kept}\n(guidelines cut here to fit the context window)`;
}

function fenceDiff(diff: string): string {
  const lines = diff.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  return `\`\`\`diff\n${capped(lines, MAX_DIFF_LINES).join('\n')}\n\`\`\``;
}

function capped(lines: readonly string[], max: number): string[] {
  return lines.length <= max ? [...lines] : [...lines.slice(0, max), `... (${lines.length - max} more lines)`];
}

function fenceLanguage(path: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  const languages: Record<string, string> = {
    java: 'java',
    kt: 'kotlin',
    xml: 'xml',
    properties: 'properties',
    yaml: 'yaml',
    yml: 'yaml',
    json: 'json',
    groovy: 'groovy',
  };
  return languages[extension] ?? '';
}

function validate(input: RepairPromptInput): void {
  if (input.diagnostics.length === 0)
    throw new Error('buildRepairPrompt needs at least one diagnostic: there is nothing to repair');
  if (!Number.isFinite(input.contextTokens) || input.contextTokens <= 0)
    throw new RangeError(`contextTokens must be a positive number of tokens, got ${input.contextTokens}`);
  const answer = input.answerTokens ?? DEFAULT_ANSWER_TOKENS;
  if (!Number.isFinite(answer) || answer < 0 || answer >= input.contextTokens)
    throw new RangeError(`answerTokens must leave room for a prompt in ${input.contextTokens} tokens, got ${answer}`);
  if (!EDIT_FORMATS.includes(input.editFormat)) {
    throw new Error(`editFormat must be one of ${EDIT_FORMATS.join(', ')}, got ${JSON.stringify(input.editFormat)}`);
  }
  for (const piece of input.context) {
    if (piece.startLine !== undefined && (!Number.isInteger(piece.startLine) || piece.startLine < 1)) {
      throw new RangeError(
        `context piece of ${piece.path ?? piece.label} must start at a line number of 1 or more, got ${piece.startLine}`,
      );
    }
    if (piece.startLine !== undefined && piece.path === undefined)
      throw new Error(`context piece "${piece.label}" has a start line but no path`);
  }
}

export type { PackResult };
