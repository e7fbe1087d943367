/**
 * Finding and reading config files (the IO edge of policy). cosmiconfig walks from the
 * project root up to the git root; YAML and JSON go through our own loader so that
 * validation errors can name a line.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { cosmiconfig, defaultLoaders, type Loader } from 'cosmiconfig';
import { MvnxError } from '../shared/errors.js';
import { parseConfigText, type FieldPath } from './locate.js';
import { SEARCH_PLACES } from './search-places.js';

export { SEARCH_PLACES };

export interface LoadedFile {
  /** Absolute path. */
  filepath: string;
  /** The file's content as an object (`{}` for an empty file). */
  value: unknown;
  /** Line lookup for YAML/JSON; absent for JS configs. */
  lineOf?: (path: FieldPath, key?: string) => number | undefined;
}

/** Reads config files with one loader set; keeps the line maps of what it parsed. */
export class ConfigReader {
  private readonly lineMaps = new Map<string, (path: FieldPath, key?: string) => number | undefined>();
  private readonly explorer;

  constructor(
    stopDir: string,
    private readonly displayPath: (filepath: string) => string,
  ) {
    const textLoader: Loader = (filepath, content) => {
      const parsed = parseConfigText(content, this.displayPath(filepath), filepath.endsWith('.json') ? 'json' : 'yaml');
      this.lineMaps.set(filepath, parsed.lineOf);
      return parsed.value ?? {};
    };
    this.explorer = cosmiconfig('mvnx', {
      searchPlaces: [...SEARCH_PLACES],
      searchStrategy: 'global',
      stopDir,
      mergeSearchPlaces: false,
      loaders: {
        '.json': textLoader,
        '.yaml': textLoader,
        '.yml': textLoader,
        noExt: textLoader,
        '.js': defaultLoaders['.js'],
        '.mjs': defaultLoaders['.mjs'],
        '.cjs': defaultLoaders['.cjs'],
      },
    });
  }

  /** The nearest config file from `from` up to the stop folder, or undefined. */
  async search(from: string): Promise<LoadedFile | undefined> {
    const result = await this.guard(from, () => this.explorer.search(from));
    return result ? this.toLoaded(result.filepath, result.config) : undefined;
  }

  /** Reads one named file; `origin` says who named it, for the not-found message. */
  async load(filepath: string, origin: string): Promise<LoadedFile> {
    const absolute = path.resolve(filepath);
    if (!(await isFile(absolute)))
      throw new MvnxError(`Config file ${this.displayPath(absolute)} (${origin}) does not exist`, 2);
    const result = await this.guard(absolute, () => this.explorer.load(absolute));
    return this.toLoaded(absolute, result?.config);
  }

  private toLoaded(filepath: string, config: unknown): LoadedFile {
    const value = config === undefined || config === null ? {} : config;
    const lineOf = this.lineMaps.get(filepath);
    return lineOf ? { filepath, value, lineOf } : { filepath, value };
  }

  private async guard<T>(where: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof MvnxError) throw error;
      const failure = error as Error & { filepath?: string };
      const file = failure.filepath ?? where;
      const reason = failure.message.startsWith('No loader specified')
        ? `unsupported file type "${path.extname(file)}" (use .yaml, .yml, .json, .js, .mjs, .cjs or no extension)`
        : `cannot be loaded: ${failure.message.split('\n').find((line) => line.trim() !== '') ?? failure.name}`;
      throw new MvnxError(`Invalid config ${this.displayPath(file)}: ${reason}`, 2);
    }
  }
}

async function isFile(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isFile();
  } catch {
    return false;
  }
}
