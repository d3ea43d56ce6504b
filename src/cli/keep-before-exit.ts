// A one-shot CLI run keeps its search index before it exits (issue 35, item 16). The engine
// builds and writes the index in its worker thread without making the answer wait, and the
// worker does not hold the process: a command that answered and exited left a half-written
// temporary file and no kept index, so every run built it again. Closing a database now waits
// for the build under way and its write, saying so on stderr; Ctrl-C ends the worker (see
// interrupt.ts), and what it was writing is removed at exit, as is anything a worker ended
// mid-write left (its temporary files carry the process's pid).

import { cacheFolder, removeTempFilesOf } from '../adapters/kept-indexes/file-store';
import type { KeepProgress, KeptState } from '../core/engine';
import { wasInterrupted } from './interrupt';

const PHASE: Record<KeepProgress['phase'], string> = {
  building: 'building',
  checksum: 'checksum of the file',
  writing: 'writing',
};

interface Keeper {
  finishKeeping(id: string, onProgress?: (p: KeepProgress) => void): Promise<KeptState>;
}

/** Waits for database `id`'s index to be kept (or reused, or not worth keeping) and says what became of it. */
export async function finishKeeping(
  engine: Keeper,
  id: string,
  stderr?: { write(text: string): unknown },
  what: 'file' | 'server' = 'file',
): Promise<void> {
  const say = (line: string) => stderr?.write(line + '\n');
  let announced = false;
  let last = { phase: '', step: -1 };
  const onProgress = (p: KeepProgress) => {
    // A line when a phase starts and at each quarter of it: stderr may be a log, not a terminal.
    const step = Math.min(4, Math.floor(p.fraction * 4));
    if (p.phase === last.phase && step === last.step) return;
    last = { phase: p.phase, step };
    const note = announced ? '' : ' (Ctrl-C skips it)';
    announced = true;
    say(`Keeping the search index for the next run${note}… ${PHASE[p.phase]} ${Math.round(p.fraction * 100)}%`);
  };
  let state: KeptState;
  try {
    state = await engine.finishKeeping(id, onProgress);
  } catch {
    // Ctrl-C ended the worker (or it died): what it was writing is removed at exit.
    if (announced) say(`Not kept${wasInterrupted() ? ' (Ctrl-C)' : ''}: the next run builds the search index again.`);
    return;
  }
  if (state === 'reused')
    say(
      what === 'file'
        ? 'Search index: kept from the last run on this file (the file’s checksum matches).'
        : 'Search index: kept from the last run on this database (its tables have not changed since).',
    );
  else if (state === 'kept') say('Kept the search index for the next run.');
  else if (state === 'failed' && announced) say('The search index could not be kept: the next run builds it again.');
}

/**
 * Removes this process's temporary index files at exit and on SIGTERM or SIGHUP (then the signal
 * ends the process as it would have). Installed by the program, not by tests that call run().
 */
export function installKeptIndexCleanup(env: Record<string, string | undefined> = process.env): void {
  const folder = cacheFolder(env);
  if (!folder) return;
  const cleanup = () => {
    try {
      removeTempFilesOf(folder, process.pid);
    } catch {
      // Nothing more can be done at exit; the next run removes them (their pid is gone).
    }
  };
  process.on('exit', cleanup);
  for (const signal of ['SIGTERM', 'SIGHUP'] as const)
    process.once(signal, () => {
      cleanup();
      process.kill(process.pid, signal);
    });
}
