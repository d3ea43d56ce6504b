// The numbers of Optimize's acceptance rule (docs/decisions/050-optimize-acceptance.md), apart
// from the task so the CLI's help text does not load it.

/** Default margin: the rewrite must take at most 80% of the original's median time. */
export const OPTIMIZE_MARGIN = 0.2;
/**
 * And it must save at least this much: on a sub-millisecond query the same SQL timed twice
 * differs by more than any margin (decision 050), so a smaller saving is noise, not a speed-up.
 */
export const OPTIMIZE_MIN_SAVING_MS = 1;
/** Rows compared in full; a larger result is not judged (nothing is accepted on a sample). */
export const OPTIMIZE_MAX_ROWS = 100_000;
