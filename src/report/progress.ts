import { Listr, ListrLogger, PRESET_TIMER, ProcessOutput, type ListrTaskWrapper } from 'listr2';
import { PLAIN_PROMPT_LINE_SECONDS, promptSeconds, promptWaitLine } from './prompt-wait.js';
import { TokenMeter } from './token-meter.js';

/** In CI, at most one line per this many milliseconds on what the model is writing. */
export const PLAIN_TOKEN_LINE_MS = 10_000;

/**
 * What the repair shows while it works. All of it goes to stderr, so that
 * `--mvnx-json` leaves stdout holding only the run record.
 */
export interface Progress {
  /** Run the whole repair under this display. */
  run<T>(title: string, work: () => Promise<T>): Promise<T>;
  /** A new step began: "attempt 2 (model): verifying". */
  step(title: string): void;
  /**
   * Streamed model tokens: on a TTY one live line (tokens so far, the rate, the last words); in plain mode one
   * line every PLAIN_TOKEN_LINE_MS at most, with the count and the rate.
   */
  tokens(text: string): void;
  /**
   * A streamed request went out: `tokens` the server has to read before the first token, and its prompt rate as last
   * measured in this run (none before). A TTY's live line says it until the first token; CI gets a line only for a
   * wait of PLAIN_PROMPT_LINE_SECONDS or more.
   */
  promptSent(tokens: number, lastRate: number | undefined): void;
  /** An answer nobody streamed is in: a TTY's live line goes back to the step's title. */
  promptAnswered?(): void;
  /** A line worth keeping: the outcome of an attempt. */
  note(line: string): void;
}

/** Every line the progress display shows, redacted first. */
export function redactingProgress(inner: Progress, redact: (text: string) => string): Progress {
  return {
    run: (title, work) => inner.run(redact(title), work),
    step: (title) => inner.step(redact(title)),
    tokens: (text) => inner.tokens(redact(text)),
    promptSent: (tokens, lastRate) => inner.promptSent(tokens, lastRate),
    promptAnswered: () => inner.promptAnswered?.(),
    note: (line) => inner.note(redact(line)),
  };
}

export function createProgress(options: { interactive: boolean; stream?: NodeJS.WriteStream }): Progress {
  const stream = options.stream ?? process.stderr;
  return options.interactive ? new ListrProgress(stream) : new PlainProgress(stream);
}

/** CI, pipes and non-TTY output: one plain line per step, no cursor movement. */
class PlainProgress implements Progress {
  private readonly startedAt = Date.now();
  private meter = new TokenMeter();
  private lastTokenLineAt = Date.now();

  constructor(private readonly stream: NodeJS.WritableStream) {}

  async run<T>(title: string, work: () => Promise<T>): Promise<T> {
    this.line(title);
    return work();
  }

  step(title: string): void {
    this.meter = new TokenMeter();
    this.lastTokenLineAt = Date.now();
    this.line(title);
  }

  tokens(text: string): void {
    this.meter.add(text);
    if (Date.now() - this.lastTokenLineAt < PLAIN_TOKEN_LINE_MS) return;
    this.lastTokenLineAt = Date.now();
    this.line(`the model is writing: ${this.meter.describe()}`);
  }

  promptSent(tokens: number, lastRate: number | undefined): void {
    const seconds = promptSeconds(tokens, lastRate);
    if (seconds !== undefined && seconds >= PLAIN_PROMPT_LINE_SECONDS) this.line(promptWaitLine(tokens, lastRate));
  }

  note(line: string): void {
    this.line(line);
  }

  private line(text: string): void {
    const seconds = ((Date.now() - this.startedAt) / 1000).toFixed(1);
    this.stream.write(`mvnx [${seconds}s] ${text}\n`);
  }
}

type AnyTask = ListrTaskWrapper<unknown, never, never>;

class ListrProgress implements Progress {
  private task: AnyTask | undefined;
  private stepTitle = '';
  private tail = '';
  private meter = new TokenMeter();

  constructor(private readonly stream: NodeJS.WriteStream) {}

  async run<T>(title: string, work: () => Promise<T>): Promise<T> {
    let result: T | undefined;
    const list = new Listr(
      [
        {
          title,
          task: async (_context, task) => {
            this.task = task;
            result = await work();
            task.title = title;
          },
          // Each output assignment is one kept line: notes go there, streamed tokens do not.
          rendererOptions: { persistentOutput: true, bottomBar: 6 },
        },
      ],
      {
        exitOnError: true,
        registerSignalListeners: false,
        rendererOptions: {
          timer: PRESET_TIMER,
          logger: new ListrLogger({ processOutput: new ProcessOutput(this.stream, this.stream) }),
        },
      },
    );
    await list.run();
    return result as T;
  }

  step(title: string): void {
    this.stepTitle = title;
    this.tail = '';
    this.meter = new TokenMeter();
    if (this.task) this.task.title = title;
  }

  tokens(text: string): void {
    this.meter.add(text);
    this.tail = (this.tail + text).slice(-200);
    const lastLine = (
      this.tail
        .split('\n')
        .filter((line) => line.trim())
        .pop() ?? ''
    )
      .trim()
      .slice(0, 60);
    if (this.task) this.task.title = `${this.stepTitle}: ${this.meter.describe()}${lastLine ? ` · ${lastLine}` : ''}`;
  }

  promptSent(tokens: number, lastRate: number | undefined): void {
    this.tail = '';
    this.meter = new TokenMeter();
    if (this.task) this.task.title = `${this.stepTitle}: ${promptWaitLine(tokens, lastRate)}`;
  }

  promptAnswered(): void {
    if (this.task) this.task.title = this.stepTitle;
  }

  note(line: string): void {
    if (this.task) this.task.output = line;
  }
}
