/**
 * The one normaliser of patch paths. Every path a patch names goes through
 * `canonicalPath` once, before any rule (forbidden folders, protected globs, tier rules,
 * change types) sees it; the change set then holds only canonical paths, and validation
 * refuses any other. A path is refused here, not cleaned, when a checkout on Windows or
 * macOS would read it as another file: the team's machines must not write what the Linux
 * CI box was told is a different file.
 */
import { Minimatch } from 'minimatch';
import { problem } from './problems.js';
import type { PatchProblem } from './types.js';

/** Longest file name (one segment) and path Linux and macOS accept, in bytes. */
export const MAX_SEGMENT_BYTES = 255;
export const MAX_PATH_BYTES = 4095;

/** Folders a patch never writes into, at any depth, in any spelling: VCS data and mvnx's records. */
const FORBIDDEN_FOLDERS = new Set(['.git', '.mvnx']);
/** Windows short (8.3) names of `.git`: `GIT~1` is `.git` on NTFS. */
const GIT_SHORT_NAME = /^git~\d+$/;
const WINDOWS_DEVICES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)$/;
const WINDOWS_INVALID = /[<>"|?*]/;
/** Code points file systems drop when comparing names (HFS+ ignores them; they also hide text). */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;
const INVISIBLE_ALL = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/**
 * Letters that look like ASCII letters but are not (Cyrillic, Greek, Armenian, Latin
 * variants), lower case: what a reviewer reading `pom.xml` cannot tell apart. NFKC folds
 * the fullwidth and mathematical forms before this table is read.
 */
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  һ: 'h',
  н: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  п: 'n',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  г: 'r',
  ѕ: 's',
  т: 't',
  ц: 'u',
  у: 'y',
  ѵ: 'v',
  ԝ: 'w',
  х: 'x',
  з: 'z',
  α: 'a',
  β: 'b',
  ϲ: 'c',
  ε: 'e',
  η: 'n',
  ι: 'i',
  ϳ: 'j',
  κ: 'k',
  μ: 'u',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ζ: 'z',
  ω: 'w',
  օ: 'o',
  ս: 'u',
  ց: 'g',
  ı: 'i',
  ȷ: 'j',
  ɡ: 'g',
  ɑ: 'a',
  ʏ: 'y',
  ℓ: 'l',
  ſ: 's',
};

/**
 * The form two names share when some file system treats them as one: Unicode
 * compatibility forms folded (NFKC), invisible code points dropped, lower case, look-alike
 * letters folded to ASCII. Used to compare, never to write.
 */
export function foldName(name: string): string {
  const folded = name.normalize('NFKC').replace(INVISIBLE_ALL, '').toLowerCase();
  let out = '';
  for (const ch of folded) out += LOOKALIKES[ch] ?? ch;
  return out.normalize('NFC');
}

export function foldPath(path: string): string {
  return path.split('/').map(foldName).join('/');
}

/** What Windows makes of a name: trailing dots and spaces dropped, an `:stream` suffix cut. */
function windowsName(folded: string): string {
  return folded.replace(/:.*$/, '').replace(/[. ]+$/, '');
}

/** A path as a message shows it: quoted, escapes visible, and never a megabyte long. */
function printable(path: string): string {
  return JSON.stringify(path.length > 200 ? `${path.slice(0, 197)}...` : path);
}

export type CanonicalPath = { path: string } | { problem: PatchProblem };

/**
 * A root-relative path in its one canonical form (forward slashes, no `.` or empty
 * segments), or the first rule it breaks. Order matters for the reason given: escapes
 * first, then forbidden folders (in any spelling), then names that alias on other systems.
 */
export function canonicalPath(raw: string): CanonicalPath {
  if (raw === '') return { problem: problem('invalid-path', 'A change names an empty path.') };
  const text = raw.replace(/\\/g, '/');
  const refuse = (code: Parameters<typeof problem>[0], message: string): CanonicalPath => ({
    problem: problem(code, message, { file: raw }),
  });
  if (/[\x00-\x1f\x7f-\x9f]/.test(text))
    return refuse('control-char', `Path ${printable(raw)} contains a NUL or control character.`);
  if (text.startsWith('/') || /^[A-Za-z]:/.test(text) || text.startsWith('~')) {
    return refuse(
      'absolute-path',
      `Path ${printable(raw)} is absolute; patches may only name paths inside the project.`,
    );
  }
  if (text.endsWith('/') || /\/\.?$/.test(text) || text === '.')
    return refuse('invalid-path', `Path ${printable(raw)} names a folder, not a file.`);
  const segments = text.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..'))
    return refuse('path-traversal', `Path ${printable(raw)} has a ".." segment that could leave the project.`);
  if (segments.length === 0) return refuse('invalid-path', `Path ${printable(raw)} names no file.`);
  const path = segments.join('/');

  let underSource = false;
  for (const segment of segments) {
    const name = windowsName(foldName(segment));
    if (FORBIDDEN_FOLDERS.has(name) || GIT_SHORT_NAME.test(name)) {
      const shown = name.startsWith('git~') ? '.git' : name;
      return refuse(
        'forbidden-dir',
        `Path ${printable(raw)} is inside ${shown}/${segment !== shown ? ` (written ${printable(segment)})` : ''}, which patches never write.`,
      );
    }
    // Build output: `target/` beside a pom, never a Java package named `target` under src/.
    if (name === 'target' && !underSource)
      return refuse(
        'forbidden-dir',
        `Path ${printable(raw)} is inside target/, Maven's build output, which patches never write.`,
      );
    if (name === 'src') underSource = true;
  }
  for (const segment of segments) {
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
      return refuse(
        'path-too-long',
        `Path ${printable(raw)} has a name of ${Buffer.byteLength(segment, 'utf8')} bytes; file systems allow ${MAX_SEGMENT_BYTES}.`,
      );
    }
    if (INVISIBLE.test(segment))
      return refuse(
        'path-alias',
        `Path ${printable(raw)} contains an invisible character (macOS ignores it), so it names another file than it shows.`,
      );
    if (/[. ]$/.test(segment))
      return refuse(
        'path-alias',
        `Path ${printable(raw)}: ${printable(segment)} ends with a dot or a space, which Windows drops, so it aliases ${printable(segment.replace(/[. ]+$/, ''))}.`,
      );
    if (segment.includes(':'))
      return refuse(
        'path-alias',
        `Path ${printable(raw)}: ${printable(segment)} has a ":", which names an NTFS alternate data stream of ${printable(segment.replace(/:.*$/, ''))}.`,
      );
    if (WINDOWS_INVALID.test(segment))
      return refuse(
        'invalid-path',
        `Path ${printable(raw)}: ${printable(segment)} has a character Windows does not allow in names (< > " | ? *).`,
      );
    const stem = foldName(segment).split('.')[0]!.trimEnd();
    if (WINDOWS_DEVICES.test(stem))
      return refuse(
        'path-alias',
        `Path ${printable(raw)}: ${printable(segment)} is the Windows device ${stem.toUpperCase()}, not a file.`,
      );
  }
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) {
    return refuse(
      'path-too-long',
      `Path ${printable(raw)} is ${Buffer.byteLength(path, 'utf8')} bytes long; file systems allow ${MAX_PATH_BYTES}.`,
    );
  }
  return { path };
}

const compiled = new Map<string, { exact: Minimatch; folded: Minimatch }>();

/**
 * Whether a canonical path matches a glob (minimatch, dot files included): `exact`, or
 * `alias` when only a case, Unicode or look-alike variant of it matches (`Pom.xml`
 * against `pom.xml`, `.MVN/x` against `.mvn/**`).
 */
export function matchPathGlob(path: string, glob: string): 'exact' | 'alias' | undefined {
  let matchers = compiled.get(glob);
  if (!matchers) {
    matchers = {
      exact: new Minimatch(glob, { dot: true }),
      folded: new Minimatch(foldName(glob), { dot: true, nocase: true }),
    };
    compiled.set(glob, matchers);
  }
  if (matchers.exact.match(path)) return 'exact';
  return matchers.folded.match(foldPath(path)) ? 'alias' : undefined;
}

/**
 * Different paths that some file system would take for one file (`Util.java` and
 * `util.java`, NFC and NFD): each pair is refused, since the second write would be lost
 * or land on the first.
 */
export function aliasCollisions(paths: Iterable<string>): PatchProblem[] {
  const seen = new Map<string, string>();
  const problems: PatchProblem[] = [];
  for (const path of paths) {
    const key = foldPath(path);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, path);
    else if (first !== path) {
      problems.push(
        problem(
          'path-alias',
          `${printable(first)} and ${printable(path)} are one file on macOS and Windows (they differ only in case or Unicode form); name it one way.`,
          { file: path },
        ),
      );
    }
  }
  return problems;
}
