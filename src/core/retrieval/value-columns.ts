// What the value read learned about each text column, before any tokenizing: how many distinct
// values and long texts it holds, its dates, NULLs and other cells, and from these the column's
// statistics (every row, exact). Known as soon as the tables are read, so the toolbox computes
// statistics while the values are still being tokenized (value-tokenizer.ts).

import { ISO_DATE } from '../schema/stats';
import type { ColumnStats, TextIndex } from '../types';
import type { ColumnValueSummary } from './types';
import type { NumberColumnStats } from './number-stats';
import type { TextCounter, ValueCounter } from './value-store';
import { compareText } from '../text/normalize';

export interface ColumnState {
  table: string;
  column: string;
  /** How to reach the rowid of the table (null: no rowid, long texts are kept as values). */
  rowid: string | null;
  rowsScanned: number;
  /** Text cells whose value was not kept: new values after the budget was spent (issue 26). */
  notIndexed: number;
  /** The rowid of the first row read after the budget was spent (null: none, or no rowid). */
  countOnlyFrom: number | null;
  /** Not read: the database searches it (ColumnInfo.textIndex). */
  searchedBy?: TextIndex;
  dates: number;
  /** Distinct date/time values kept for statistics; -1 when there were too many to keep. */
  dateValues: number;
  /** Cells that are not text: NULL, or another storage class (statistics come from SQL then). */
  nulls: number;
  others: number;
  textCells: number;
  textLength: number;
}

/** Cut of text in statistics, as core/schema/stats.ts cuts it. */
const STATS_TEXT_CUT = 120;
const MAX_CATEGORIES = 20;
const SAMPLE_COUNT = 5;

export class ValueColumns {
  readonly summaries: ColumnValueSummary[];
  private byColumn: number[][] | undefined;
  private dateColumns: number[][] | undefined;

  constructor(
    readonly states: readonly ColumnState[],
    private readonly values: ValueCounter,
    texts: TextCounter,
    private readonly numberColumns: readonly NumberColumnStats[] = [],
    private dates: ValueCounter | null = null,
  ) {
    const valueCounts = new Uint32Array(states.length);
    const textCounts = new Uint32Array(states.length);
    for (const c of values.columns) valueCounts[c]++;
    for (const c of texts.columns) textCounts[c]++;
    this.summaries = states.map((c, i) => {
      const base = {
        table: c.table,
        column: c.column,
        values: valueCounts[i],
        texts: textCounts[i],
        dates: c.dates,
        rowsScanned: c.rowsScanned,
        ...(c.notIndexed > 0 ? { notIndexed: c.notIndexed } : {}),
        ...(c.notIndexed > 0 && c.rowid && c.countOnlyFrom !== null
          ? { notIndexedFrom: { rowid: c.rowid, from: c.countOnlyFrom } }
          : {}),
        ...(c.searchedBy ? { searchedBy: c.searchedBy } : {}),
      };
      const notes: string[] = [];
      if (c.searchedBy)
        notes.push(`Searched by the database's own trigram index (pg_trgm) on each search, not held here.`);
      if (c.notIndexed > 0)
        notes.push(
          `${c.notIndexed.toLocaleString('en-US')} of its ${c.rowsScanned.toLocaleString('en-US')} rows hold values that are not indexed (the index's memory budget): search them in SQL (LIKE).`,
        );
      if (c.dates > 0)
        notes.push(
          `${c.dates.toLocaleString('en-US')} date/time value${c.dates === 1 ? ' is' : 's are'} not indexed: compare them in SQL.`,
        );
      return notes.length === 0
        ? { ...base, policy: 'all' as const }
        : { ...base, policy: 'partial' as const, note: notes.join(' ') };
    });
  }

  /**
   * Statistics of a column whose cells are all text or NULL, without dates or long texts, or of a
   * numeric column read beside them (number-stats.ts), from the values read (every row, exact);
   * null otherwise (core/schema/stats.ts computes those).
   */
  columnStats(table: string, column: string): ColumnStats | null {
    const numeric = this.numberColumns.find((c) => c.table === table && c.column === column);
    if (numeric) return numeric.result();
    const n = this.states.findIndex((c) => c.table === table && c.column === column);
    const c = this.states[n];
    // A column with values left out has no exact distinct count here: statistics come from SQL.
    if (c && (c.notIndexed > 0 || c.searchedBy)) return null;
    if (c && c.dates > 0) return this.dateStats(n);
    if (!c || c.others > 0) return null;
    // Long texts are not held: their column's range is left unknown, and they count as distinct.
    const texts = this.summaries[n].texts;
    const { values } = this;
    this.byColumn ??= groupByColumn(values.columns, this.states.length);
    const ids = this.byColumn[n];
    // Compared as SQLite's min() and max() do, on the UTF-8 bytes: only the two ends are decoded.
    let minId = -1;
    let maxId = -1;
    if (texts === 0)
      for (const id of ids) {
        if (minId < 0 || values.compare(id, minId) < 0) minId = id;
        if (maxId < 0 || values.compare(id, maxId) > 0) maxId = id;
      }
    const min = minId < 0 ? null : values.get(minId);
    const max = maxId < 0 ? null : values.get(maxId);
    const cut = (v: string) => (v.length > STATS_TEXT_CUT ? v.slice(0, STATS_TEXT_CUT) : v);
    const nonNull = c.textCells;
    const categories =
      texts === 0 && ids.length > 0 && ids.length <= MAX_CATEGORIES && ids.length < nonNull
        ? [...ids]
            .sort((a, b) => values.counts[b] - values.counts[a] || compareText(values.get(a), values.get(b)))
            .map((id) => ({ value: cut(values.get(id)), count: values.counts[id] }))
        : null;
    const storageClasses: ColumnStats['storageClasses'] = {};
    if (nonNull > 0) storageClasses.text = nonNull;
    if (c.nulls > 0) storageClasses.null = c.nulls;
    return {
      table,
      column,
      rowsScanned: c.rowsScanned,
      approximate: false,
      nullCount: c.nulls,
      distinctCount: ids.length + texts,
      storageClasses,
      min: min === null ? null : cut(min),
      max: max === null ? null : cut(max),
      samples: ids.slice(0, SAMPLE_COUNT).map((id) => cut(values.get(id))),
      categories,
      avgLength: nonNull > 0 ? Math.round((c.textLength / nonNull) * 10) / 10 : null,
      looksLikeDate: false,
    };
  }

  /** The `limit` short values of column `n` that the most rows hold, with their rows (ties in text order). */
  topValues(n: number, limit: number): Array<{ value: string; rows: number }> {
    const { values } = this;
    this.byColumn ??= groupByColumn(values.columns, this.states.length);
    const ids = this.byColumn[n] ?? [];
    const before = (a: number, b: number) =>
      values.counts[b] - values.counts[a] || compareText(values.get(a), values.get(b));
    // One pass keeping the best `limit` in order: a large column is not sorted.
    const top: number[] = [];
    for (const id of ids) {
      if (top.length === limit && values.counts[id] < values.counts[top[limit - 1]]) continue;
      let at = top.length;
      while (at > 0 && before(id, top[at - 1]) < 0) at--;
      if (at >= limit) continue;
      top.splice(at, 0, id);
      if (top.length > limit) top.pop();
    }
    return top.map((id) => ({ value: values.get(id), rows: values.counts[id] }));
  }

  /**
   * Statistics of a column whose text cells are all dates or times, from the distinct ones kept
   * (every row, exact, as SQL gives them over every row); null for a column that also holds
   * other text or other classes, or had too many distinct dates to keep (SQL then).
   */
  private dateStats(n: number): ColumnStats | null {
    const c = this.states[n];
    const { dates } = this;
    if (!dates || c.others > 0 || c.dates !== c.textCells || c.dateValues < 0) return null;
    this.dateColumns ??= groupByColumn(dates.columns, this.states.length);
    const ids = this.dateColumns[n];
    let min: string | null = null;
    let max: string | null = null;
    for (const id of ids) {
      const v = dates.get(id);
      if (min === null || v < min) min = v;
      if (max === null || v > max) max = v;
    }
    const nonNull = c.textCells;
    const categories =
      ids.length > 0 && ids.length <= MAX_CATEGORIES && ids.length < nonNull
        ? [...ids]
            .sort((a, b) => dates.counts[b] - dates.counts[a] || compareText(dates.get(a), dates.get(b)))
            .map((id) => ({ value: dates.get(id), count: dates.counts[id] }))
        : null;
    const samples = ids.slice(0, SAMPLE_COUNT).map((id) => dates.get(id));
    const storageClasses: ColumnStats['storageClasses'] = {};
    if (nonNull > 0) storageClasses.text = nonNull;
    if (c.nulls > 0) storageClasses.null = c.nulls;
    return {
      table: c.table,
      column: c.column,
      rowsScanned: c.rowsScanned,
      approximate: false,
      nullCount: c.nulls,
      distinctCount: ids.length,
      storageClasses,
      min,
      max,
      samples,
      categories,
      avgLength: nonNull > 0 ? Math.round((c.textLength / nonNull) * 10) / 10 : null,
      // As core/schema/stats.ts decides it: mostly text, and ISO dates at both ends and in the samples.
      looksLikeDate:
        min !== null &&
        max !== null &&
        ISO_DATE.test(min) &&
        ISO_DATE.test(max) &&
        samples.every((v) => ISO_DATE.test(v)),
    };
  }

  /** The statistics were taken: the distinct dates go (date columns then answer null). */
  forgetDates(): void {
    this.dates = null;
    this.dateColumns = undefined;
  }

  /** Bytes held for statistics (the distinct dates, until forgotten). */
  memoryBytes(): number {
    return this.dates?.memoryBytes() ?? 0;
  }
}

/** Value ids per column number, in id (first seen) order. */
function groupByColumn(columnOf: Uint16Array, columns: number): number[][] {
  const out: number[][] = Array.from({ length: columns }, () => []);
  for (let id = 0; id < columnOf.length; id++) out[columnOf[id]].push(id);
  return out;
}
