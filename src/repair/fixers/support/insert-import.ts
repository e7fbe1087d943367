import { joinLines, readJavaHeader, splitLines, type JavaImport } from '../../../java/index.js';

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
function importGroups(imports: JavaImport[]): JavaImport[][] {
  const groups: JavaImport[][] = [];
  for (const entry of imports) {
    const current = groups.at(-1);
    const last = current?.at(-1);
    if (current && last && last.endLine + 1 === entry.line && last.isStatic === entry.isStatic) current.push(entry);
    else groups.push([entry]);
  }
  return groups;
}

function isSorted(group: JavaImport[]): boolean {
  return group.every((entry, i) => i === 0 || (group[i - 1]?.name ?? '') <= entry.name);
}

/** True when `qualifiedName` is already visible through a single-type or on-demand import. */
export function isImported(text: string, qualifiedName: string): boolean {
  return readJavaHeader(text).imports.some(
    (entry) => !entry.isStatic && (entry.name === qualifiedName || entry.name === `${packageOf(qualifiedName)}.*`),
  );
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
  const header = readJavaHeader(text);
  const statement = `import ${qualifiedName};`;
  const imports = header.imports;
  const regular = importGroups(imports).filter((group) => group[0]?.isStatic === false);

  if (regular.length === 0) {
    // 0-based index of the line to insert after: the last import, else the package line.
    const anchor =
      imports.length > 0
        ? imports.at(-1)!.endLine - 1
        : header.packageLine !== undefined
          ? header.packageLine - 1
          : undefined;
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

  let best = regular[regular.length - 1] as JavaImport[];
  let bestShared = -1;
  for (const group of regular) {
    const shared = Math.max(...group.map((entry) => sharedPrefixSegments(entry.name, qualifiedName)));
    if (shared > bestShared || (shared === bestShared && shared > 0)) {
      best = group;
      bestShared = shared;
    }
  }
  let at = best.at(-1)!.endLine;
  if (isSorted(best)) {
    const next = best.find((entry) => entry.name > qualifiedName);
    if (next) at = next.line - 1;
  }
  source.lines.splice(at, 0, statement);
  return joinLines(source);
}
