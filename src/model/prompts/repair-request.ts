/**
 * The messages of one repair call: a pure function of the diagnostics, the source
 * excerpts, the failing tests, the team guidelines, the history and the edit format.
 *
 * Budget: the failure, the format instructions and what each earlier attempt did are
 * always sent; source excerpts, then failing-test excerpts, then earlier diffs (newest
 * first) are added while the estimate stays within `tokenBudget`.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { estimateTokens } from '../context-window.js';
import type { ChatMessage } from '../types.js';
import { EDIT_FORMAT_INSTRUCTIONS, EDIT_FORMATS, type EditFormat } from './edit-formats.js';
import type { SourceExcerpt } from './excerpts.js';
import { GUIDELINES_HEADING, SYSTEM_PROMPT } from './system.js';

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
  sources: SourceExcerpt[];
  failingTests?: SourceExcerpt[];
  guidelines?: string;
  editFormat: EditFormat;
  history: AttemptSummary[];
  /** Upper bound for the whole prompt, in estimated tokens. */
  tokenBudget: number;
}

const MAX_DETAIL_LINES = 10;
const MAX_STACK_LINES = 15;
const MAX_DIFF_LINES = 80;
/** Guidelines may take at most this share of the budget; the failure and source matter more. */
const GUIDELINES_SHARE = 0.25;

export function buildRepairPrompt(input: RepairPromptInput): ChatMessage[] {
  validate(input);
  const system = systemMessage(input.guidelines, input.tokenBudget);
  const failure = `## Build failure\n\n${input.diagnostics.map(renderDiagnostic).join('\n\n')}`;
  const format = `## Your answer\n\n${EDIT_FORMAT_INSTRUCTIONS[input.editFormat]}`;
  const history = [...input.history].sort((a, b) => a.n - b.n);

  let spent = estimateTokens(system) + estimateTokens(failure) + estimateTokens(format) + history.reduce((sum, attempt) => sum + estimateTokens(renderAttempt(attempt)), 0);
  const fits = (text: string): boolean => {
    const cost = estimateTokens(text) + 1;
    if (spent + cost > input.tokenBudget) return false;
    spent += cost;
    return true;
  };

  const sources = pickExcerpts(input.sources, fits);
  const tests = pickExcerpts(input.failingTests ?? [], fits);
  // Newest diffs first: the last failure says most about what to avoid now.
  const diffs = new Map<number, string>();
  for (const attempt of [...history].reverse()) {
    if (!attempt.diff) continue;
    const fenced = fenceDiff(attempt.diff);
    if (fits(fenced)) diffs.set(attempt.n, fenced);
  }

  const sections = [failure];
  sections.push(renderExcerptSection('## Source', sources, input.sources.length));
  if ((input.failingTests ?? []).length > 0) sections.push(renderExcerptSection('## The failing test', tests, input.failingTests?.length ?? 0));
  if (history.length > 0) {
    const attempts = history.map((attempt) => [renderAttempt(attempt), diffs.get(attempt.n)].filter(Boolean).join('\n'));
    sections.push(`## Earlier attempts that did not work (do not repeat them)\n\n${attempts.join('\n\n')}`);
  }
  sections.push(format);
  return [
    { role: 'system', content: system },
    { role: 'user', content: sections.join('\n\n') },
  ];
}

/** Source lines with their numbers: `  12 | code`. */
export function renderNumberedExcerpt(excerpt: SourceExcerpt): string {
  const lines = excerpt.text.replace(/\r\n/g, '\n').split('\n');
  const width = String(excerpt.startLine + lines.length - 1).length;
  const numbered = lines.map((line, index) => `${String(excerpt.startLine + index).padStart(width)} | ${line}`);
  const endLine = excerpt.startLine + lines.length - 1;
  return `### ${excerpt.path} (lines ${excerpt.startLine}-${endLine})\n\`\`\`${fenceLanguage(excerpt.path)}\n${numbered.join('\n')}\n\`\`\``;
}

export function renderDiagnostic(diagnostic: Diagnostic, index: number): string {
  const where = [diagnostic.file, diagnostic.line !== undefined ? `line ${diagnostic.line}` : undefined, diagnostic.column !== undefined ? `column ${diagnostic.column}` : undefined]
    .filter(Boolean)
    .join(', ');
  const module = diagnostic.module ? ` (module ${diagnostic.module})` : '';
  const lines: string[] = [];
  if (diagnostic.kind === 'test') {
    lines.push(`${index + 1}. Test failure: ${diagnostic.test ?? diagnostic.testFailure?.className ?? 'unknown test'}${module}${where ? `, failing at ${where}` : ''}`);
    lines.push(`   ${diagnostic.message}`);
    const failure = diagnostic.testFailure;
    if (failure) {
      lines.push(`   ${failure.outcome === 'failure' ? 'Assertion failed' : 'Unexpected exception'}: ${failure.failureType}`);
      const stack = failure.stackTrace.split('\n').filter((line) => line.trim() !== '');
      if (stack.length > 0) lines.push('   Stack trace:', ...capped(stack, MAX_STACK_LINES).map((line) => `     ${line.trim()}`));
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
  if (diagnostic.kind === 'compile' && diagnostic.lint) return `javac warning [${diagnostic.lint}] that fails the build under -Werror${inTests}`;
  if (diagnostic.kind === 'compile' && diagnostic.tool === 'javadoc') return `Javadoc error${inTests}`;
  if (diagnostic.kind === 'compile') return `Compile error${inTests}`;
  if (diagnostic.kind === 'quality') return `${diagnostic.tool ?? 'Quality'} check failed${diagnostic.rule ? ` (rule ${diagnostic.rule})` : ''}`;
  return 'Build error';
}

function renderAttempt(attempt: AttemptSummary): string {
  return `Attempt ${attempt.n} (${attempt.outcome})${attempt.reason ? `: ${attempt.reason}` : ''}`;
}

function systemMessage(guidelines: string | undefined, tokenBudget: number): string {
  const text = guidelines?.trim();
  if (!text) return SYSTEM_PROMPT;
  const limitChars = Math.floor(tokenBudget * GUIDELINES_SHARE * 3.5);
  const kept = text.length > limitChars ? `${text.slice(0, limitChars)}\n(guidelines cut here to fit the context window)` : text;
  return `${SYSTEM_PROMPT}\n\n${GUIDELINES_HEADING}\n${kept}`;
}

function pickExcerpts(excerpts: readonly SourceExcerpt[], fits: (text: string) => boolean): string[] {
  const rendered: string[] = [];
  for (const excerpt of excerpts) {
    const text = renderNumberedExcerpt(excerpt);
    if (fits(text)) rendered.push(text);
  }
  return rendered;
}

function renderExcerptSection(heading: string, rendered: string[], offered: number): string {
  if (offered === 0) return `${heading}\n\n(no source could be read for this failure)`;
  const left = offered - rendered.length;
  const note = left > 0 ? `\n\n(${left} more excerpt${left === 1 ? '' : 's'} left out to fit the context window)` : '';
  return `${heading}\n\n${rendered.join('\n\n')}${note}`;
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
  const languages: Record<string, string> = { java: 'java', kt: 'kotlin', xml: 'xml', properties: 'properties', yaml: 'yaml', yml: 'yaml', json: 'json', groovy: 'groovy' };
  return languages[extension] ?? '';
}

function validate(input: RepairPromptInput): void {
  if (input.diagnostics.length === 0) throw new Error('buildRepairPrompt needs at least one diagnostic: there is nothing to repair');
  if (!Number.isFinite(input.tokenBudget) || input.tokenBudget <= 0) throw new RangeError(`tokenBudget must be a positive number of tokens, got ${input.tokenBudget}`);
  if (!EDIT_FORMATS.includes(input.editFormat)) {
    throw new Error(`editFormat must be one of ${EDIT_FORMATS.join(', ')}, got ${JSON.stringify(input.editFormat)}`);
  }
  for (const excerpt of [...input.sources, ...(input.failingTests ?? [])]) {
    if (!Number.isInteger(excerpt.startLine) || excerpt.startLine < 1) {
      throw new RangeError(`excerpt of ${excerpt.path} must start at a line number of 1 or more, got ${excerpt.startLine}`);
    }
  }
}
