/**
 * write_fix: one fix or several, each checked (test integrity first) and built by the
 * session (fix-candidates.ts), the first that passes ending it. Here: what the model sees,
 * and how the fixes are read from its call.
 */
import { containsPatch } from '../protocol.js';
import type { ToolDeclaration } from './support/state-tool.js';

export const writeFix = {
  name: 'write_fix',
  states: ['collect', 'fix'],
  description:
    'try a fix (patch) or several (patches), each built and tested in a copy; the first that passes ends the work',
  parameters: {
    patch: { type: 'string', description: 'the fix in the edit format asked for', optional: true },
    patches: { type: 'string[]', description: 'different fixes, tried in order', optional: true },
  },
} as const satisfies ToolDeclaration;

const FENCE = /```[^\n]*\n([\s\S]*?)```/g;

/**
 * The fixes of a write_fix call: "patches", "patch", or fenced blocks after the JSON.
 * Several fenced blocks are several fixes only when each is a whole unified diff; blocks
 * of the other formats (a SEARCH/REPLACE block per file) make up one fix together.
 */
export function fixCandidates(
  args: Record<string, unknown>,
  replyText: string,
  max: number,
): { candidates: string[]; note?: string } {
  const texts = (value: unknown): string[] => {
    if (typeof value === 'string') return value.trim() === '' ? [] : [value];
    if (Array.isArray(value)) return value.flatMap(texts);
    if (value && typeof value === 'object') return [JSON.stringify(value)];
    return [];
  };
  let candidates = [...texts(args.patches), ...texts(args.patch)];
  if (candidates.length === 0) {
    const blocks = [...replyText.matchAll(FENCE)].map((match) => match[0]).filter(containsPatch);
    const wholeDiffs = blocks.filter((block) => /^--- /m.test(block) && /^\+\+\+ /m.test(block) && /^@@/m.test(block));
    candidates =
      wholeDiffs.length >= 2 && wholeDiffs.length === blocks.length
        ? wholeDiffs
        : containsPatch(replyText) || /"edits"\s*:/.test(replyText)
          ? [replyText]
          : [];
  }
  if (candidates.length <= max) return { candidates };
  return {
    candidates: candidates.slice(0, max),
    note: `(only the first ${max} fixes were tried; ${candidates.length - max} more were left out)`,
  };
}
