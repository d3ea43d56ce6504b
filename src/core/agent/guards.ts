// The loop's bookkeeping that decides when a run must change course or stop: identical calls
// repeated, and SQL that keeps failing (Benchmark study: 1-2 repair rounds fix what can be fixed;
// more rounds on the same SQL mostly burn turns).

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same call. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export type RepeatVerdict = 'new' | 'repeat' | 'stop';

/** First time: new. Second time the same call: repeat (flagged). Third: stop. */
export class RepeatGuard {
  private readonly counts = new Map<string, number>();

  check(name: string, args: unknown): RepeatVerdict {
    const key = `${name} ${stableJson(args)}`;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n === 1 ? 'new' : n === 2 ? 'repeat' : 'stop';
  }
}

export const REPEAT_NOTE =
  'Note: you already made this exact call. Change the arguments or take another step: the same call once more stops the run.';

/**
 * Consecutive SQL errors (SQLite refused the statement). An empty result is information, not a
 * failure, and a refused write or a time-out is not a repair round either. After the first error
 * up to `maxRepairs` repairs may follow; when they fail too, execute_sql is refused until the
 * model changes approach (another tool or a new plan).
 */
export class RepairGuard {
  private failures = 0;
  blocked = false;

  constructor(readonly maxRepairs = 2) {}

  /** Records an execution (ok: it ran, whatever it returned); returns the note for its observation. */
  record(ok: boolean): string {
    if (ok) {
      this.failures = 0;
      return '';
    }
    this.failures++;
    const repairsUsed = this.failures - 1;
    if (repairsUsed < this.maxRepairs)
      return `Repair the SQL using the detail above (repair ${repairsUsed + 1} of ${this.maxRepairs}).`;
    this.blocked = true;
    return `Repair limit reached (${this.maxRepairs} repairs in a row failed). Change approach before running SQL again: search values or columns, check the join path, or submit a new plan. If the question cannot be answered, say why in plain words without a tool call.`;
  }

  /** Another kind of step: the model changed approach. */
  changedApproach(): void {
    this.failures = 0;
    this.blocked = false;
  }
}

export const REPAIR_BLOCKED_NOTE =
  'execute_sql refused: the repair limit was reached. Change approach first (search_value, search_column, find_shortest_path or submit_plan), or stop and explain why without a tool call.';
