import { useLink } from '../../store/link-store';

/** The Link result for this table of this database (highlighted in the explorer), if any. */
export function useLinkedTable(dbId: string, table: string) {
  return useLink((s) => s.links[dbId]?.result?.tables.find((t) => t.table === table));
}
