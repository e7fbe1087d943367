/**
 * Command lines of command tools (config `tools:`): split once into words, as a POSIX
 * shell would split them, and never handed to a shell, so that a value the model gives
 * for a placeholder is always exactly one argument. Here so that the config schema can
 * refuse a bad command when the file is loaded, not when the agent first calls it.
 */

export const PLACEHOLDERS = ['%FILE%', '%LINE%', '%CLASS%', '%MODULE%', '%WORKSPACE%'] as const;

/**
 * A command line split into words as a POSIX shell would, quotes and backslashes honoured; no expansion of any kind.
 */
export function splitCommandLine(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && /["\\$`]/.test(command[index + 1] ?? '')) word += command[++index];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && index + 1 < command.length) {
      word += command[++index];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) throw new Error(`the command has an unclosed ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}

/** What is wrong with a command line, for `mvnx tool add` and config loading; undefined when fine. */
export function commandProblem(command: string): string | undefined {
  let words: string[];
  try {
    words = splitCommandLine(command);
  } catch (error) {
    return (error as Error).message;
  }
  if (words.length === 0) return 'the command is empty';
  if (words[0]!.includes('%')) return 'the program itself cannot be a placeholder';
  // "-x %FILE%" is options with the program left out; run, it would fail as "not found".
  if (words[0]!.startsWith('-')) return `the command starts with the option ${words[0]}; name the program first`;
  const unknown = [...command.matchAll(/%[A-Z_]+%/g)]
    .map((match) => match[0])
    .find((found) => !(PLACEHOLDERS as readonly string[]).includes(found));
  if (unknown) return `unknown placeholder ${unknown} (known: ${PLACEHOLDERS.join(' ')})`;
  return undefined;
}
