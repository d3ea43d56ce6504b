// Retrieval metrics of the tools evaluation. Names compare case-insensitively (benchmarks spell
// `Singer_ID` and `singer_id` interchangeably); duplicates count once.

import type { ColumnRef } from '../retrieval/types';
import type { Mean } from './types';

export const columnKey = (c: ColumnRef): string => `${c.table.toLowerCase()}\u0000${c.column.toLowerCase()}`;
export const tableKey = (t: string): string => t.toLowerCase();

function uniqueKeys<T>(items: T[], key: (t: T) => string): string[] {
  return [...new Set(items.map(key))];
}

/**
 * Share of the gold columns found among the first k ranked ones; null when there is no gold
 * column (such questions are left out of the mean rather than counted as 0 or 1).
 */
export function recallAtK(gold: ColumnRef[], ranked: ColumnRef[], k: number): number | null {
  const wanted = uniqueKeys(gold, columnKey);
  if (wanted.length === 0) return null;
  const top = new Set(ranked.slice(0, Math.max(0, k)).map(columnKey));
  return wanted.filter((g) => top.has(g)).length / wanted.length;
}

/** 1 when every gold column is among the first k, else 0; null without gold columns. */
export function allAtK(gold: ColumnRef[], ranked: ColumnRef[], k: number): number | null {
  const r = recallAtK(gold, ranked, k);
  return r === null ? null : r === 1 ? 1 : 0;
}

/**
 * Retrieval Efficiency Score of one question: 0 unless every gold table was retrieved, else
 * sqrt(|gold| / |retrieved|), so retrieving extra tables costs. Null without gold tables.
 */
export function res(goldTables: string[], retrievedTables: string[]): number | null {
  const gold = uniqueKeys(goldTables, tableKey);
  if (gold.length === 0) return null;
  const retrieved = new Set(retrievedTables.map(tableKey));
  if (!gold.every((g) => retrieved.has(g))) return 0;
  return Math.sqrt(gold.length / retrieved.size);
}

/** Distinct tables of a list of columns, in first-seen order (first spelling kept). */
export function tablesOf(columns: ColumnRef[]): string[] {
  const seen = new Map<string, string>();
  for (const c of columns) if (!seen.has(tableKey(c.table))) seen.set(tableKey(c.table), c.table);
  return [...seen.values()];
}

/** Mean of the non-null values, with how many there were; value null when none. */
export function mean(values: Array<number | null | undefined>): Mean {
  const xs = values.filter((v): v is number => typeof v === 'number' && !Number.isNaN(v));
  return { value: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null, n: xs.length };
}

/** Collects values under a name and gives their means: one accumulator per metric. */
export class MeanAccumulator {
  private sum = 0;
  private count = 0;

  add(v: number | null | undefined): void {
    if (typeof v !== 'number' || Number.isNaN(v)) return;
    this.sum += v;
    this.count++;
  }

  /** Adds every value another accumulator holds (for totals over per-database parts). */
  merge(other: MeanAccumulator): void {
    this.sum += other.sum;
    this.count += other.count;
  }

  get n(): number {
    return this.count;
  }

  result(): Mean {
    return { value: this.count ? this.sum / this.count : null, n: this.count };
  }
}

/** Rounds for reports (4 decimals); null stays null. */
export function round4(v: number | null): number | null {
  return v === null ? null : Math.round(v * 10_000) / 10_000;
}
