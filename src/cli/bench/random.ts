// Seeded randomness and latency summaries shared by the benchmark's parts. Everything the bench
// generates comes from a seed, so two runs on two machines measure the same data and queries.

/** The project's seeded generator (mulberry32). */
export { mulberry32 as seeded } from '../../core/random';

export function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)];
}

/** Fisher-Yates, in place. */
export function shuffle<E, T extends { length: number; [i: number]: E }>(rnd: () => number, items: T): T {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const x = items[i];
    items[i] = items[j];
    items[j] = x;
  }
  return items;
}

export const now = (): number => performance.now();

/** Nearest-rank percentile of unsorted samples (p in 0..1). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 0.5);
}

/** Milliseconds with microsecond precision: join paths take microseconds. */
export const ms3 = (x: number): number => Math.round(x * 1000) / 1000;
export const ratio3 = (hits: number, n: number): number => (n === 0 ? 0 : Math.round((hits / n) * 1000) / 1000);
