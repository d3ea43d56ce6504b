// Stop must end a run at once, even when a model client or a tool ignores its AbortSignal: every
// wait is raced against the run's signal (and, for tools, a time limit).

export class AbortedError extends Error {
  constructor() {
    super('The run was stopped.');
    this.name = 'AbortedError';
  }
}

/** Resolves `work`, or rejects with AbortedError as soon as `signal` aborts. */
export function raceAbort<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {}); // the abandoned call's failure is nobody's concern now
    return Promise.reject(new AbortedError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

export class TimeLimitError extends Error {
  constructor(readonly ms: number) {
    super(`No answer within ${ms} ms.`);
    this.name = 'TimeLimitError';
  }
}

/**
 * Runs `work(childSignal)` with a time limit; on time-out or Stop the child signal aborts so a
 * cooperative tool stops working, and the wait ends either way.
 */
export async function withTimeLimit<T>(
  work: (signal: AbortSignal) => Promise<T>,
  ms: number,
  signal?: AbortSignal,
): Promise<T> {
  const child = new AbortController();
  const forward = () => child.abort();
  signal?.addEventListener('abort', forward, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.abort();
      reject(new TimeLimitError(ms));
    }, ms);
  });
  try {
    const running = Promise.resolve().then(() => work(child.signal));
    running.catch(() => {});
    return await raceAbort(Promise.race([running, limit]), signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

/**
 * Iterates `parts`, but stops with AbortedError as soon as `signal` aborts, even when the source
 * ignores the signal and never yields again (the source is told to end, not waited for).
 */
export async function* abortable<T>(parts: AsyncIterable<T>, signal?: AbortSignal): AsyncGenerator<T> {
  const iterator = parts[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      const next = await raceAbort(iterator.next(), signal);
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}
