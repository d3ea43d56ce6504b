// What every CLI subcommand provides, and the pieces they share. A new subcommand is one file in
// commands/ plus one line in commands/index.ts.

import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a command reads and writes: process streams in the program, in-memory fakes in tests. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Reads a whole file; throws (like fs.readFileSync) when it cannot. */
  readFile(path: string): Uint8Array;
  /** Terminal width, when stdout is a terminal. */
  columns?: number;
}

export interface CliCommand {
  name: string;
  /** One line for `dowser --help`. */
  summary: string;
  /** Full text for `dowser <name> --help`. */
  usage: string;
  /** Resolves to the exit code; throws UsageError for bad arguments, anything else for failures. */
  run(args: string[], io: CliIo): Promise<number>;
}

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

/** Bad command-line arguments: reported with a pointer to the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** node:util parseArgs in strict mode, its errors turned into UsageErrors. */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

/** `--timeout 2.5`: seconds above 0 and at most a day, as milliseconds. */
export function parseSeconds(value: string, flag: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds > 0) || seconds > 24 * 3600)
    throw new UsageError(`${flag} needs a number of seconds above 0, not "${value}"`);
  return Math.max(1, Math.round(seconds * 1000));
}

/** `--max-rows N`: a whole number of at least 1, or the default. */
export function parsePositiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`${flag} needs a whole number of at least 1, not "${value}"`);
  return Number(value);
}
