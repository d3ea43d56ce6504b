// Ctrl-C in the CLI. The engine runs in a worker thread, so the main thread always hears SIGINT:
// the first one stops the work (the worker is ended, a running `ask` is aborted and still writes
// its transcript) and the command ends with exit code 130; a second one exits at once.

type Listener = () => void;

const listeners = new Set<Listener>();
let interrupts = 0;

export const EXIT_INTERRUPTED = 130;

/** Installed by the program (main), not by tests that call run() in process. */
export function installInterruptHandler(): void {
  process.on('SIGINT', () => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT_INTERRUPTED);
    for (const l of [...listeners]) l();
  });
}

/** Calls `fn` on the first Ctrl-C; returns the unsubscribe. */
export function onInterrupt(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export const wasInterrupted = (): boolean => interrupts > 0;
