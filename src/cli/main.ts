// CLI entry: `dowser <command> [options]`. `run` has no side effects beyond the io it is given,
// so tests call it directly; the program itself starts through `main` (see the end of the file
// and bin/dowser.mjs).

import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toDowserError } from '../core/errors';
import { visible } from '../core/format/visible';
import { READ_FROM_FILE_ABOVE_BYTES } from '../core/db/file-check';
import { DEFAULT_VALUE_CELL_BUDGET, SERVER_VALUE_CELL_BUDGET } from '../core/retrieval/distinct-values';
import { EXIT_ERROR, EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './command';
import { COMMANDS } from './commands';
import { EXIT_INTERRUPTED, installInterruptHandler, wasInterrupted } from './interrupt';
import { installKeptIndexCleanup } from './keep-before-exit';

export function mainUsage(): string {
  const width = Math.max(...[...COMMANDS.keys()].map((n) => n.length));
  const list = [...COMMANDS.values()].map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `Usage: dowser <command> [options]

Answers questions about a SQLite file; reads only, never writes to it. Its "-journal" and
"-wal" files, when they lie beside it, are read as SQLite reads them (an unfinished transaction
undone, commits not yet checkpointed included), on a private copy: neither file is written.

Commands:
${list}

Run "dowser <command> --help" for a command's options.

Environment:
  DOWSER_READ=auto|memory|file   copy a SQLite file into memory, or read it from the file as
                                 needed (auto: files over ${READ_FROM_FILE_ABOVE_BYTES / 1024 ** 2} MB are read from the file)
  DOWSER_INDEX_CELLS=N|none      text cells the value index may hold (default ${DEFAULT_VALUE_CELL_BUDGET.toLocaleString('en-US')},
                                 about 0.7 GB of index; ${SERVER_VALUE_CELL_BUDGET.toLocaleString('en-US')} on a server); above, each
                                 table is indexed from its first rows
  DOWSER_CACHE=DIR|off           where the indexes of a file or server database are kept (default
                                 $XDG_CACHE_HOME/dowser or ~/.cache/dowser; the newest 4; off: none)
`;
}

function reportError(e: unknown, commandName: string, io: CliIo): number {
  if (e instanceof UsageError) {
    // A message of several lines (every problem of a --plan file) prints as lines, each made visible.
    const lines = e.message.split('\n').map(visible).join('\n  ');
    io.stderr.write(`error [usage]: ${lines}\nRun "dowser ${commandName} --help" for usage.\n`);
    return EXIT_USAGE;
  }
  if (wasInterrupted()) {
    io.stderr.write('stopped (Ctrl-C)\n');
    return EXIT_INTERRUPTED;
  }
  const err = toDowserError(e);
  io.stderr.write(`error [${err.code}]: ${visible(err.message)}\n${err.detail ? visible(err.detail) + '\n' : ''}`);
  return EXIT_ERROR;
}

/** Runs one command line (without `node` and the script) and resolves to the exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(mainUsage());
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h') {
    io.stdout.write(mainUsage());
    return EXIT_OK;
  }
  if (name === 'help') return run(rest.length ? [rest[0], '--help'] : ['--help'], io);
  const command = COMMANDS.get(name);
  if (!command) {
    io.stderr.write(`error [usage]: unknown command "${visible(name)}"\n\n${mainUsage()}`);
    return EXIT_USAGE;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    return reportError(e, name, io);
  }
}

export const processIo = (): CliIo => ({
  stdout: process.stdout,
  stderr: process.stderr,
  // A plain Uint8Array view: a Buffer's slice() shares memory, which code written for the
  // browser's Uint8Array does not expect.
  readFile: (path) => {
    const b = readFileSync(path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  },
  columns: process.stdout.isTTY ? process.stdout.columns : undefined,
});

/** The program: runs process.argv and sets the exit code (no process.exit, so output drains). */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  installInterruptHandler();
  installKeptIndexCleanup();
  const code = await run(argv, processIo());
  process.exitCode = wasInterrupted() && code !== EXIT_OK ? EXIT_INTERRUPTED : code;
}

/** True when this file is the program (`tsx src/cli/main.ts`), not imported by a test or the bin. */
function isProgramEntry(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isProgramEntry()) await main();
