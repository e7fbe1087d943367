import { findImports, findPackage, joinLines, maskCommentsAndLiterals, splitLines, type ImportLine } from './java-source.js';

function packageOf(qualifiedName: string): string {
  return qualifiedName.slice(0, qualifiedName.lastIndexOf('.'));
}

function sharedPrefixSegments(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  let shared = 0;
  while (shared < left.length && shared < right.length && left[shared] === right[shared]) shared++;
  return shared;
}

/** Runs of import lines with nothing but other imports between them. */
function importGroups(imports: ImportLine[]): ImportLine[][] {
  const groups: ImportLine[][] = [];
  for (const entry of imports) {
    const current = groups.at(-1);
    const last = current?.at(-1);
    if (current && last && last.index + 1 === entry.index && last.isStatic === entry.isStatic) current.push(entry);
    else groups.push([entry]);
  }
  return groups;
}

function isSorted(group: ImportLine[]): boolean {
  return group.every((entry, i) => i === 0 || (group[i - 1]?.name ?? '') <= entry.name);
}

/** True when `qualifiedName` is already visible through a single-type or on-demand import. */
export function isImported(text: string, qualifiedName: string): boolean {
  const imports = findImports(splitLines(maskCommentsAndLiterals(text)).lines);
  return imports.some((entry) => !entry.isStatic && (entry.name === qualifiedName || entry.name === `${packageOf(qualifiedName)}.*`));
}

/**
 * Adds `import qualifiedName;` where a careful person would: sorted into the closest
 * group when that group is sorted, else after it; after the package line with a blank
 * line when the file has no imports. Returns the text unchanged when already imported.
 */
export function insertImport(text: string, qualifiedName: string): string {
  if (!/^[\w$]+(?:\.[\w$]+)+$/.test(qualifiedName)) throw new Error(`not a qualified class name: ${qualifiedName}`);
  if (isImported(text, qualifiedName)) return text;
  const source = splitLines(text);
  const masked = splitLines(maskCommentsAndLiterals(text)).lines;
  const statement = `import ${qualifiedName};`;
  const imports = findImports(masked);
  const regular = importGroups(imports).filter((group) => group[0]?.isStatic === false);

  if (regular.length === 0) {
    const anchor = imports.at(-1)?.index ?? findPackage(masked)?.index;
    if (anchor === undefined) {
      source.lines.splice(0, 0, statement, '');
    } else if (imports.length > 0) {
      source.lines.splice(anchor + 1, 0, '', statement);
    } else {
      const followedByBlank = (source.lines[anchor + 1] ?? '').trim() === '';
      source.lines.splice(anchor + 1, 0, '', statement, ...(followedByBlank ? [] : ['']));
    }
    return joinLines(source);
  }

  let best = regular[regular.length - 1] as ImportLine[];
  let bestShared = -1;
  for (const group of regular) {
    const shared = Math.max(...group.map((entry) => sharedPrefixSegments(entry.name, qualifiedName)));
    if (shared > bestShared || (shared === bestShared && shared > 0)) {
      best = group;
      bestShared = shared;
    }
  }
  let at = best.at(-1)!.index + 1;
  if (isSorted(best)) {
    const next = best.find((entry) => entry.name > qualifiedName);
    if (next) at = next.index;
  }
  source.lines.splice(at, 0, statement);
  return joinLines(source);
}
