// Bounded concurrency: `workers` loops take the next item until none is left or the signal stops
// them; an item already started finishes (its own code watches the signal). Each loop keeps its
// own slot number, so per-slot resources (a database worker) need no locking.

export async function runPool<T>(
  items: readonly T[],
  workers: number,
  work: (item: T, slot: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const loop = async (slot: number) => {
    while (next < items.length && !signal?.aborted) {
      const item = items[next++];
      await work(item, slot);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, (_, slot) => loop(slot)));
}
