// @vitest-environment jsdom
// The grid's view of a large result: the first sort by a column is ranked in a worker (the rows
// show unsorted, "sorting…", meanwhile), later sorts use those ranks; a failed worker still sorts.
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { rankColumn, RANK_OFF_THREAD_ROWS, type ColumnRanks } from '../../../core/results/row-view';
import type { QueryResult, SqlValue } from '../../../core/types';
import { ServicesProvider } from '../../services/context';
import { fakeServices } from '../../test-support/render';
import { useGridView } from './use-grid-view';

const n = RANK_OFF_THREAD_ROWS + 5;
// Codes in a scrambled order, so a sorted view differs from the stored one.
const rows: SqlValue[][] = Array.from({ length: n }, (_, i) => [i, `c-${(i * 7919) % n}`]);
const result = { columns: ['id', 'code'], rows, truncated: false } as unknown as QueryResult;
const sortedCodes = rows.map((r) => r[1] as string).sort((a, b) => rankOf(a) - rankOf(b));
function rankOf(code: string) {
  return Number(code.slice(2));
}

function setUp(rank: (values: SqlValue[]) => Promise<ColumnRanks>) {
  const calls: number[] = [];
  const services = fakeServices({
    rankColumn: (values) => {
      calls.push(values.length);
      return rank(values);
    },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ServicesProvider services={services}>{children}</ServicesProvider>
  );
  return { calls, hook: renderHook(() => useGridView(result), { wrapper }) };
}

describe('useGridView on a large result', () => {
  it('ranks the column in the worker once; the rows show unsorted until then', async () => {
    let release: () => void = () => {};
    const { calls, hook } = setUp((values) => new Promise((resolve) => (release = () => resolve(rankColumn(values)))));
    act(() => hook.result.current.sortBy(1));
    expect(hook.result.current.sorting).toBe(true);
    expect(hook.result.current.indices[0]).toBe(0); // as stored, for now
    await act(async () => release());
    await waitFor(() => expect(hook.result.current.sorting).toBe(false));
    const codes = () => hook.result.current.indices.slice(0, 3).map((i) => rows[i][1]);
    // "c-10" after "c-1" and before "c-2": digits compare as numbers.
    expect(codes()).toEqual(sortedCodes.slice(0, 3));
    act(() => hook.result.current.sortBy(1)); // descending: the same ranks, no second call
    expect(hook.result.current.sorting).toBe(false);
    expect(hook.result.current.indices.slice(0, 1).map((i) => rows[i][1])).toEqual([sortedCodes[n - 1]]);
    expect(calls).toEqual([n]);
  });

  it('sorts on the page when the worker fails', async () => {
    const { hook } = setUp(() => Promise.reject(new Error('no workers here')));
    act(() => hook.result.current.sortBy(0));
    act(() => hook.result.current.sortBy(0)); // descending
    await waitFor(() => expect(hook.result.current.sorting).toBe(false));
    expect(hook.result.current.indices[0]).toBe(n - 1);
  });
});
