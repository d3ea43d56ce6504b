// Link results per database: the tables and columns a question likely needs (core/link/), shown
// as chips by the question box and highlighted in the schema explorer.

import { create } from 'zustand';
import type { SchemaLinkResult } from '../../core/link/schema-link';

export interface LinkState {
  question: string;
  status: 'running' | 'done';
  result: SchemaLinkResult | null;
}

interface LinkStore {
  links: Record<string, LinkState | undefined>;
  set(dbId: string, state: LinkState | undefined): void;
  /** The person took a table or a column off the chips. */
  remove(dbId: string, table: string, column?: string): void;
}

export const useLink = create<LinkStore>((set) => ({
  links: {},
  set: (dbId, state) => set((s) => ({ links: { ...s.links, [dbId]: state } })),
  remove: (dbId, table, column) =>
    set((s) => {
      const cur = s.links[dbId];
      if (!cur?.result) return s;
      const tables = cur.result.tables.flatMap((t) =>
        t.table !== table ? [t] : column ? [{ ...t, columns: t.columns.filter((c) => c.column !== column) }] : [],
      );
      return { links: { ...s.links, [dbId]: { ...cur, result: { ...cur.result, tables } } } };
    }),
}));
