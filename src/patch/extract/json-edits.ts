import { z } from 'zod';
import type { PatchProblem, ProposedEdit } from '../types.js';
import { problem } from '../problems.js';
import { normaliseRelative } from './path-text.js';

const filePath = z.string().min(1).describe('File path relative to the project root, forward slashes.');

const searchReplaceEdit = z.object({
  file: filePath,
  search: z
    .string()
    .describe('Exact existing lines to replace, whole lines, indentation included. Empty only to create a new file.'),
  replace: z.string().describe('The lines that take their place.'),
});

const lineOperationEdit = z.object({
  file: filePath,
  op: z
    .enum(['insert', 'delete', 'replace'])
    .describe('insert: text becomes line `line`; delete/replace: lines line..endLine.'),
  line: z.number().int().min(1).describe('1-based line number in the current file.'),
  endLine: z.number().int().min(1).optional().describe('Last line affected (inclusive); defaults to `line`.'),
  text: z.string().optional().describe('New lines for insert and replace.'),
  old: z
    .string()
    .optional()
    .describe(
      'The current lines line..endLine, exactly (replace and delete); for insert, the current line `line` the text goes before. Required: an edit that does not state the lines it works on, or states others, is refused.',
    ),
});

const wholeFileEdit = z.object({
  file: filePath,
  content: z.string().describe('The complete new content of the file.'),
});

/** What a model may answer when the provider enforces structured output (Ollama `format`). */
export const jsonEditListSchema = z.object({
  edits: z.array(z.union([searchReplaceEdit, lineOperationEdit, wholeFileEdit])),
  summary: z.string().optional().describe('One or two sentences on what the change does.'),
});

export type JsonEditList = z.infer<typeof jsonEditListSchema>;

export const jsonEditListJsonSchema: Record<string, unknown> = z.toJSONSchema(jsonEditListSchema);

function toProposedEdit(edit: JsonEditList['edits'][number]): ProposedEdit {
  const path = normaliseRelative(edit.file);
  if ('search' in edit) return { type: 'search-replace', path, search: edit.search, replace: edit.replace };
  if ('op' in edit) {
    const lineOp: ProposedEdit = { type: 'line-op', path, op: edit.op, line: edit.line };
    if (edit.endLine !== undefined) lineOp.endLine = edit.endLine;
    if (edit.text !== undefined) lineOp.text = edit.text;
    if (edit.old !== undefined) lineOp.old = edit.old;
    return lineOp;
  }
  return { type: 'whole-file', path, content: edit.content };
}

function jsonCandidates(text: string): string[] {
  const candidates = [text.trim()];
  for (const match of text.matchAll(/^\s*(?:```|~~~)[^\n]*\n([\s\S]*?)^\s*(?:```|~~~)\s*$/gm))
    candidates.push((match[1] as string).trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  return candidates.filter((c) => c.startsWith('{') || c.startsWith('['));
}

/**
 * A JSON edit list, the whole reply or inside a fence. Returns undefined when the reply
 * holds no JSON that looks like an edit list, so other formats get their turn.
 */
export function extractJsonEdits(
  text: string,
): { edits: ProposedEdit[]; problems: PatchProblem[]; summary?: string } | undefined {
  let firstFailure: string | undefined;
  for (const candidate of jsonCandidates(text)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate);
    } catch {
      continue;
    }
    if (Array.isArray(parsed)) parsed = { edits: parsed };
    if (typeof parsed !== 'object' || parsed === null || !('edits' in parsed)) continue;
    const result = jsonEditListSchema.safeParse(parsed);
    if (result.success) {
      const out: { edits: ProposedEdit[]; problems: PatchProblem[]; summary?: string } = {
        edits: result.data.edits.map(toProposedEdit),
        problems: [],
      };
      if (result.data.summary !== undefined) out.summary = result.data.summary;
      return out;
    }
    firstFailure ??= result.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
  }
  if (firstFailure === undefined) return undefined;
  return {
    edits: [],
    problems: [problem('parse-error', `JSON edit list does not match the schema: ${firstFailure}.`)],
  };
}
