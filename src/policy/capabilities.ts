/**
 * What a patch lets the code do, read from the lines it adds to JVM sources: run a
 * process, stop the JVM, talk to the network, write files, reach into classes by
 * reflection, load native code, or hide code in Unicode escapes. Any of these makes a
 * patch high risk whatever its size: one line of `ProcessBuilder` in a test runs on every
 * developer's machine and in CI.
 */
import { codeOf, lineChangesOf } from './changed-lines.js';
import { addedBuildTimeCode } from '../patch/classify-pom.js';
import type { ChangeSet } from '../patch/types.js';

export interface Capability {
  name: string;
  pattern: RegExp;
}

/** Patterns run on code with comments and string contents removed (a comment mentioning System.exit adds nothing). */
export const CAPABILITIES: readonly Capability[] = [
  {
    name: 'process execution',
    pattern: /\bProcess(Builder|Handle)\b|\.\s*exec\s*\(|\bRuntime\s*\.\s*getRuntime\s*\(\s*\)\s*\.\s*exec\b/,
  },
  {
    name: 'JVM exit (System.exit / Runtime.halt)',
    pattern: /\bSystem\s*\.\s*exit\s*\(|\.\s*halt\s*\(|\bgetRuntime\s*\(\s*\)\s*\.\s*exit\s*\(/,
  },
  {
    name: 'network access',
    pattern:
      /\bjava\s*\.\s*net\b|\b(Server|Datagram)?Socket(Channel)?\b|\b(Http)?URLConnection\b|\bHttpClient\b|\bopenConnection\s*\(|\bopenStream\s*\(|\bnew\s+URL\s*\(|\bInetAddress\b|\bRestTemplate\b|\bWebClient\b/,
  },
  {
    name: 'file-system writes',
    pattern:
      /\bFile(OutputStream|Writer|Channel)\b|\bRandomAccessFile\b|\bFiles\s*\.\s*(write\w*|newOutputStream|newBufferedWriter|delete\w*|move|copy|create\w*|set\w+)\s*\(|\.\s*(deleteOnExit|renameTo|mkdirs?|setExecutable|setWritable|setReadable)\s*\(|\.\s*delete\s*\(\s*\)/,
  },
  {
    name: 'reflection or class loading',
    pattern:
      /\bClass\s*\.\s*forName\b|\bgetDeclared(Method|Field|Constructor)s?\b|\bget(Method|Field|Constructor)\s*\(|\bsetAccessible\s*\(|\.\s*invoke\s*\(|\bMethodHandles?\b|\b\w*ClassLoader\b|\b(define|load)Class\s*\(|\bjava\s*\.\s*lang\s*\.\s*reflect\b|\bnewInstance\s*\(|\bnewProxyInstance\b|\bUnsafe\b/,
  },
  {
    name: 'native code',
    pattern:
      /(^|[\s;{}(])native\s+[\w<>[\],.\s]+\s+\w+\s*\(|\bSystem\s*\.\s*load(Library)?\s*\(|\bgetRuntime\s*\(\s*\)\s*\.\s*load(Library)?\s*\(|\bnativeLinker\b|\bSymbolLookup\b|\bcom\s*\.\s*sun\s*\.\s*jna\b/,
  },
];

/** Java turns `\u000a` into a newline before it reads anything: a comment can hide code. */
const UNICODE_ESCAPE = /\\u+[0-9A-Fa-f]{4}/;

const JVM_SOURCE = /\.(java|kt|kts|groovy|scala)$/;

/** Each capability the change set adds, with the first line that adds it. */
export function addedCapabilities(changeSet: ChangeSet): { name: string; where: string }[] {
  const found = new Map<string, string>();
  for (const file of changeSet.files) {
    // The patch stage refuses these; a change set that reaches risk another way is still high risk.
    const codeRunning =
      !file.binary && /(^|\/)pom\.xml$|\.pom$/.test(file.path) ? addedBuildTimeCode(file.before, file.after) : [];
    if (codeRunning.length > 0 && !found.has('build-time code execution'))
      found.set('build-time code execution', `${file.path}: <plugin> ${codeRunning.join(', ')}`);
    if (file.binary || !JVM_SOURCE.test(file.path)) continue;
    const changes = lineChangesOf(file);
    for (const line of [...changes.added, ...changes.replaced.map((pair) => pair.after)]) {
      const where = `${file.path}: ${line.trim().slice(0, 80)}`;
      if (UNICODE_ESCAPE.test(line) && !found.has('Unicode escapes')) found.set('Unicode escapes', where);
      const code = codeOf(line);
      for (const capability of CAPABILITIES) {
        if (!found.has(capability.name) && capability.pattern.test(code)) found.set(capability.name, where);
      }
    }
  }
  return [...found].map(([name, where]) => ({ name, where }));
}
