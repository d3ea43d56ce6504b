// The grid's sort, filters and row selection for one result (issue 24). The rows are never
// copied: the view is a list of indices into them, worked out by core/results/row-view.ts.

import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import {
  columnValues,
  createRowView,
  isPlainView,
  RANK_OFF_THREAD_ROWS,
  rankColumn,
  nextSort,
  parseColumnFilter,
  type ColumnFilter,
  type SortBy,
} from '../../../core/results/row-view';
import type { QueryResult } from '../../../core/types';
import { useServices } from '../../services/context';

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
  /** A large result's column is being ranked in a worker: the rows show unsorted until it is. */
  sorting: boolean;
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
  const services = useServices();
  // Bumped when a worker's ranks arrive: the page renders again, now with the column ranked.
  const [, setRanked] = useState(0);
  const sorting = !!sort && result.rows.length >= RANK_OFF_THREAD_ROWS && !rows.hasRanks(sort.column);
  useEffect(() => {
    if (!sorting || !sort) return;
    let live = true;
    const column = sort.column;
    services
      .rankColumn(columnValues(result.rows, column))
      .then((ranks) => rows.addRanks(column, ranks))
      // Without the worker the page ranks the column itself: slower, still right.
      .catch(() => rows.addRanks(column, rankColumn(columnValues(result.rows, column))))
      .finally(() => live && setRanked((n) => n + 1));
    return () => {
      live = false;
    };
  }, [sorting, sort, rows, result.rows, services]);
  const indices = useMemo(
    () => rows.view({ sort: sorting ? null : sort, filters, quick: deferredQuick }),
    [rows, sort, sorting, filters, deferredQuick],
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
    sorting,
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
