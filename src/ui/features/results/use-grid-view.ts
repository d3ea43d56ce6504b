// The grid's sort, filters and row selection for one result (issue 24). The rows are never
// copied: the view is a list of indices into them, worked out by core/results/row-view.ts.

import { useDeferredValue, useMemo, useState } from 'react';
import {
  createRowView,
  isPlainView,
  nextSort,
  parseColumnFilter,
  type ColumnFilter,
  type SortBy,
} from '../../../core/results/row-view';
import type { QueryResult } from '../../../core/types';

export interface GridView {
  /** Indices into `result.rows`, in the order shown. */
  indices: number[];
  sort: SortBy | null;
  sortBy: (column: number) => void;
  filterText: Readonly<Record<number, string>>;
  setFilterText: (column: number, text: string) => void;
  filters: ReadonlyMap<number, ColumnFilter>;
  quick: string;
  setQuick: (text: string) => void;
  /** True when the rows show as the result gave them. */
  plain: boolean;
  clear: () => void;
  /** Rows the person picked (indices into `result.rows`). */
  selected: ReadonlySet<number>;
  /** A click on a row's number: picks it alone, or a range with Shift, or adds it with Ctrl/Cmd. */
  select: (index: number, how: { range: boolean; add: boolean }) => void;
}

export function useGridView(result: QueryResult): GridView {
  const [sort, setSort] = useState<SortBy | null>(null);
  const [filterText, setFilters] = useState<Record<number, string>>({});
  const [quick, setQuick] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  // Typing stays quick on large results: the view follows the text when the page is free.
  const deferredQuick = useDeferredValue(quick);
  const deferredFilterText = useDeferredValue(filterText);
  const rows = useMemo(() => createRowView(result.rows), [result.rows]);
  const filters = useMemo(
    () => new Map(Object.entries(deferredFilterText).map(([c, t]) => [Number(c), parseColumnFilter(t)])),
    [deferredFilterText],
  );
  const indices = useMemo(
    () => rows.view({ sort, filters, quick: deferredQuick }),
    [rows, sort, filters, deferredQuick],
  );

  return {
    indices,
    sort,
    sortBy: (column) => setSort((s) => nextSort(s, column)),
    filterText,
    setFilterText: (column, text) => setFilters((f) => ({ ...f, [column]: text })),
    filters,
    quick,
    setQuick,
    plain: isPlainView({ sort, filters, quick: deferredQuick }),
    clear: () => {
      setSort(null);
      setFilters({});
      setQuick('');
    },
    selected,
    select: (index, how) => {
      if (how.range && anchor !== null) {
        const from = indices.indexOf(anchor);
        const to = indices.indexOf(index);
        if (from >= 0 && to >= 0) {
          const [a, b] = from < to ? [from, to] : [to, from];
          setSelected(new Set(indices.slice(a, b + 1)));
          return;
        }
      }
      setAnchor(index);
      setSelected((s) => {
        if (!how.add) return s.size === 1 && s.has(index) ? new Set() : new Set([index]);
        const next = new Set(s);
        if (next.has(index)) next.delete(index);
        else next.add(index);
        return next;
      });
    },
  };
}
