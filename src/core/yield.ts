// Long work in a worker (reading every value of a large file) lets the worker's other messages
// in between its steps: a question asked while the indexes are built gets its schema and
// sampled values at once (issue 26) instead of waiting for the whole read. An `await` on a
// settled promise does not do that (microtasks run before any message); a timer does.

/** Resolves after the events already queued (messages, timers) had their turn. */
export function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A function to await between steps: yields when `everyMs` passed since the last yield. */
export function eventYielder(everyMs = 50, now: () => number = () => Date.now()): () => Promise<void> {
  let last = now();
  return async () => {
    if (now() - last < everyMs) return;
    await yieldToEvents();
    last = now();
  };
}
