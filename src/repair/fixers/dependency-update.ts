/**
 * Quick-fixes for a dependency update whose API difference names exactly one replacement
 * (dependency-update/api-diff.ts): a class that moved package (the import), a static
 * member that moved to another class, a field that became an accessor, a method renamed
 * with the same signature, a constructor replaced by a static factory of the same
 * parameters. One candidate writes every site of the update at once (a fix per update,
 * not per file); it is validated and verified like any quick-fix.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { maskCommentsAndLiterals, scanJavaHeader } from '../../java/index.js';
import { simpleName, packageOf } from '../../maven/class-file.js';
import { fingerprintChangeSet } from '../../patch/index.js';
import type { FixCandidate, Fixer, SourceView } from '../../plugins/contracts.js';
import type { Replacement } from '../dependency-update/api-diff.js';
import { describeReplacement } from '../dependency-update/record.js';
import type { BuiltInFixerContext } from './support/built-in-context.js';
import { isPlacedCompileError } from './support/diagnostic-text.js';

export const DEPENDENCY_UPDATE_FIXER = 'dependency-update';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replace `pattern` on one line, only where the code (not a comment or string) has it. */
function replaceInCode(
  text: string,
  line: number,
  pattern: RegExp,
  replace: (match: RegExpExecArray) => string,
): string {
  const lines = text.split('\n');
  const masked = maskCommentsAndLiterals(text).split('\n')[line - 1] ?? '';
  let source = lines[line - 1] ?? '';
  const matches = [...masked.matchAll(new RegExp(pattern.source, 'g'))].reverse();
  for (const match of matches) {
    const original = new RegExp(pattern.source).exec(source.slice(match.index));
    if (!original || original.index !== 0) continue;
    source = `${source.slice(0, match.index)}${replace(original)}${source.slice(match.index + original[0].length)}`;
  }
  lines[line - 1] = source;
  return lines.join('\n');
}

/** Adds `import name;` after the last import (or the package line) unless the file already sees it. */
export function ensureImport(text: string, name: string): string {
  const header = scanJavaHeader(text);
  const plain = name.replace(/\$/g, '.');
  if (header.packageName === packageOf(name) || (name.startsWith('java.lang.') && !name.slice(10).includes('.')))
    return text;
  if (
    header.imports.some((entry) => !entry.isStatic && (entry.name === plain || entry.name === `${packageOf(plain)}.*`))
  )
    return text;
  const lines = text.split('\n');
  const after = header.imports.filter((entry) => !entry.isStatic).at(-1)?.endLine ?? header.packageLine ?? 0;
  lines.splice(after, 0, `import ${plain};`);
  return lines.join('\n');
}

/**
 * `import static owner.from;` becomes `import static owner.to;`; `seen` says whether the file sees the member through a
 * static import at all (that one, already renamed, or `owner.*`), so a bare use of it may be rewritten.
 */
function renameStaticImport(text: string, owner: string, from: string, to: string): { text: string; seen: boolean } {
  const dotted = escape(owner.replace(/\$/g, '.'));
  const single = new RegExp(`^(\\s*import\\s+static\\s+${dotted}\\s*\\.\\s*)${escape(from)}(\\s*;)`, 'gm');
  const out = text.replace(single, `$1${to}$2`);
  const seen =
    out !== text ||
    new RegExp(`^\\s*import\\s+static\\s+${dotted}\\s*\\.\\s*(?:${escape(to)}|\\*)\\s*;`, 'm').test(out);
  return { text: out, seen };
}

/** One replacement written at one error line of a file (imports anywhere in the file). */
export function applyReplacement(text: string, line: number, replacement: Replacement): string {
  switch (replacement.shape) {
    case 'moved-class': {
      const from = replacement.from.replace(/\$/g, '.');
      const to = replacement.to.replace(/\$/g, '.');
      let out = text.replace(new RegExp(`^(\\s*import\\s+(?:static\\s+)?)${escape(from)}(?=[\\s;.])`, 'gm'), `$1${to}`);
      out = replaceInCode(out, line, new RegExp(`(?<![\\w$.])${escape(from)}(?![\\w$])`), () => to);
      const wildcard = scanJavaHeader(out).imports.some((entry) => entry.name === `${packageOf(from)}.*`);
      return wildcard || out === text ? ensureImport(out, to) : out;
    }
    case 'moved-static-member': {
      const fromSimple = simpleName(replacement.fromClass);
      const toSimple = simpleName(replacement.toClass);
      let out = text.replace(
        new RegExp(
          `^(\\s*import\\s+static\\s+)${escape(replacement.fromClass.replace(/\$/g, '.'))}\\.${escape(replacement.member)}\\s*;`,
          'gm',
        ),
        `$1${replacement.toClass.replace(/\$/g, '.')}.${replacement.member};`,
      );
      const qualified = replaceInCode(
        out,
        line,
        new RegExp(`(?<![\\w$])${escape(fromSimple)}(\\s*\\.\\s*)${escape(replacement.member)}(?![\\w$])`),
        (match) => `${toSimple}${match[1]}${replacement.member}`,
      );
      if (qualified !== out) out = ensureImport(qualified, replacement.toClass);
      return out;
    }
    case 'field-to-accessor': {
      const { field, accessor } = replacement;
      const imported = renameStaticImport(text, replacement.owner, field, accessor);
      // The error on the import line itself: the import is the whole fix there.
      if (/^\s*import\s/.test(text.split('\n')[line - 1] ?? '')) return imported.text;
      const qualified = replaceInCode(
        imported.text,
        line,
        new RegExp(`(\\.\\s*)${escape(field)}(?![\\w$])(?!\\s*\\()`),
        (match) => `${match[1]}${accessor}()`,
      );
      if (!imported.seen) return qualified;
      return replaceInCode(
        qualified,
        line,
        new RegExp(`(?<![\\w$.])${escape(field)}(?![\\w$])(?!\\s*\\()`),
        () => `${accessor}()`,
      );
    }
    case 'renamed-method': {
      const imported = renameStaticImport(text, replacement.owner, replacement.from, replacement.to);
      if (/^\s*import\s/.test(text.split('\n')[line - 1] ?? '')) return imported.text;
      return replaceInCode(
        imported.text,
        line,
        new RegExp(`(\\.\\s*|(?<![\\w$.]))${escape(replacement.from)}(\\s*\\()`),
        (match) => `${match[1]}${replacement.to}${match[2]}`,
      );
    }
    case 'constructor-to-factory': {
      const owner = simpleName(replacement.owner);
      return replaceInCode(
        text,
        line,
        new RegExp(`\\bnew\\s+((?:[\\w$]+\\.)*)${escape(owner)}\\s*(?:<\\s*>)?\\s*\\(`),
        (match) => `${match[1]}${owner}.${replacement.factory}(`,
      );
    }
  }
}

/** The old code and the new, as the run record's pattern shows them. */
export function patternOf(replacement: Replacement): { from: string; to: string } {
  switch (replacement.shape) {
    case 'moved-class':
      return { from: replacement.from, to: replacement.to };
    case 'moved-static-member':
      return {
        from: `${simpleName(replacement.fromClass)}.${replacement.member}`,
        to: `${simpleName(replacement.toClass)}.${replacement.member}`,
      };
    case 'field-to-accessor':
      return { from: `.${replacement.field}`, to: `.${replacement.accessor}()` };
    case 'renamed-method':
      return { from: `.${replacement.from}(`, to: `.${replacement.to}(` };
    case 'constructor-to-factory':
      return {
        from: `new ${simpleName(replacement.owner)}(`,
        to: `${simpleName(replacement.owner)}.${replacement.factory}(`,
      };
  }
}

function siteOf(diagnostic: Diagnostic & { file: string; line: number }): string {
  return `${diagnostic.file}:${diagnostic.line}`;
}

/**
 * The quick-fix for the run's dependency update; it proposes nothing when the context carries none (the failure is not
 * one).
 */
export const dependencyUpdateFixer: Fixer = {
  name: DEPENDENCY_UPDATE_FIXER,
  handles: (diagnostic) => isPlacedCompileError(diagnostic),
  async propose(diagnostics: Diagnostic[], view: SourceView, context: BuiltInFixerContext): Promise<FixCandidate[]> {
    const run = context.dependencyUpdate;
    const update = run?.analysis();
    if (!run || !update) return [];
    const current = diagnostics.filter(isPlacedCompileError);
    await run.explain?.(current);
    // The replacement each current error gets: its own analysis entry, else one of the same message and symbol.
    const planned: { diagnostic: Diagnostic & { file: string; line: number }; replacement: Replacement }[] = [];
    for (const diagnostic of current) {
      const entry =
        update.errors.find(
          (error) => error.site === siteOf(diagnostic) && error.diagnostic.message === diagnostic.message,
        ) ??
        update.errors.find(
          (error) =>
            error.diagnostic.file === diagnostic.file &&
            error.diagnostic.message === diagnostic.message &&
            JSON.stringify(error.diagnostic.details) === JSON.stringify(diagnostic.details),
        );
      if (entry?.replacement) planned.push({ diagnostic, replacement: entry.replacement });
    }
    if (planned.length === 0) return [];
    const files = new Map<string, { before: string; after: string }>();
    const sites: string[] = [];
    const reasons = new Set<string>();
    const patterns = new Map<string, { from: string; to: string }>();
    for (const { diagnostic, replacement } of planned) {
      const entry = files.get(diagnostic.file) ?? { before: (await view.read(diagnostic.file)) ?? '', after: '' };
      if (entry.before === '') continue;
      const start = entry.after || entry.before;
      const next = applyReplacement(start, diagnostic.line, replacement);
      if (next === start) continue;
      files.set(diagnostic.file, { before: entry.before, after: next });
      sites.push(siteOf(diagnostic));
      reasons.add(describeReplacement(replacement));
      const pattern = patternOf(replacement);
      patterns.set(`${pattern.from}\u0000${pattern.to}`, pattern);
    }
    const changed = [...files].filter(([, entry]) => entry.after && entry.after !== entry.before);
    if (changed.length === 0) return [];
    const changeSet = { files: changed.map(([path, entry]) => ({ path, before: entry.before, after: entry.after })) };
    const described = [...reasons];
    const written = [...patterns.values()];
    run.log.set(fingerprintChangeSet(changeSet), {
      from: written.map((p) => p.from).join('; '),
      to: written.map((p) => p.to).join('; '),
      sites,
    });
    return [
      {
        fixer: DEPENDENCY_UPDATE_FIXER,
        changeSet,
        confidence: 0.9,
        reason: `${update.change.groupId}:${update.change.artifactId} ${update.change.from} -> ${update.change.to}: ${described.join('; ')} at ${sites.join(', ')}`,
      },
    ];
  },
};
