// The glossary of one database: descriptions imported from BIRD-style CSVs and the user's own
// notes, per column. Plain records (not Maps) so it can be stored as is (IndexedDB, JSON). Keys
// are lower case: SQLite names are case-insensitive and BIRD file names often differ in case.
// Records are read with `own` because a column may be called `constructor` or `__proto__`.

import type { ColumnDescriptions } from '../retrieval/column-index';
import { columnDescriptionText, type ColumnDescription } from './bird-csv';

export interface Glossary {
  /** table -> column -> imported description. */
  imported: Record<string, Record<string, ColumnDescription>>;
  /** table -> column -> the user's note. */
  notes: Record<string, Record<string, string>>;
}

export const emptyGlossary = (): Glossary => ({ imported: {}, notes: {} });

const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;

export function noteOf(g: Glossary, table: string, column: string): string {
  return own(own(g.notes, table.toLowerCase()), column.toLowerCase()) ?? '';
}

export function importedOf(g: Glossary, table: string, column: string): ColumnDescription | null {
  return own(own(g.imported, table.toLowerCase()), column.toLowerCase()) ?? null;
}

/** The imported description of a column as the tools read it ('' when there is none). */
export function importedTextOf(g: Glossary, table: string, column: string): string {
  const d = importedOf(g, table, column);
  return d ? columnDescriptionText(column, d) : '';
}

/** A copy with the note of one column set; an empty (or blank) note removes it. */
export function withNote(g: Glossary, table: string, column: string, note: string): Glossary {
  const t = table.toLowerCase();
  const c = column.toLowerCase();
  const columns = { ...own(g.notes, t) };
  delete columns[c];
  const text = note.trim();
  // Computed keys and spreads define own properties, so odd names like `__proto__` stay data.
  const next = text ? { ...columns, [c]: text } : columns;
  const notes = { ...g.notes, [t]: next };
  if (Object.keys(next).length === 0) delete notes[t];
  return { ...g, notes };
}

/** A copy where one table's imported descriptions are replaced (a re-imported file wins whole). */
export function withImportedTable(
  g: Glossary,
  table: string,
  columns: Iterable<[string, ColumnDescription]>,
): Glossary {
  const entries = [...columns].map(([c, d]) => [c.toLowerCase(), d] as const);
  return { ...g, imported: { ...g.imported, [table.toLowerCase()]: Object.fromEntries(entries) } };
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * What the column index reads: per column, the note first (the user's words matter most),
 * then the imported text, joined with "; ". Lower-case keys, as `descriptionOf` looks them up.
 */
export function glossaryDescriptions(g: Glossary): ColumnDescriptions {
  const out: ColumnDescriptions = new Map();
  const tables = new Set([...Object.keys(g.imported), ...Object.keys(g.notes)]);
  for (const table of tables) {
    const columns = new Set([...Object.keys(own(g.imported, table) ?? {}), ...Object.keys(own(g.notes, table) ?? {})]);
    const texts = new Map<string, string>();
    for (const column of columns) {
      const text = [oneLine(noteOf(g, table, column)), importedTextOf(g, table, column)].filter(Boolean).join('; ');
      if (text) texts.set(column, text);
    }
    if (texts.size) out.set(table, texts);
  }
  return out;
}

/** Number of columns with a note or an imported description. */
export function describedCount(g: Glossary): number {
  return [...glossaryDescriptions(g).values()].reduce((n, t) => n + t.size, 0);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * A glossary from stored data of unknown shape (an older version, a hand-edited store):
 * anything that is not a string where one is expected is left out.
 */
export function normalizeGlossary(raw: unknown): Glossary {
  const g = emptyGlossary();
  if (!isRecord(raw)) return g;
  const tables = <T>(v: unknown, entry: (x: unknown) => T | null): Record<string, Record<string, T>> => {
    if (!isRecord(v)) return {};
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, cols]) => isRecord(cols))
        .map(([t, cols]) => [
          t.toLowerCase(),
          Object.fromEntries(
            Object.entries(cols as Record<string, unknown>).flatMap(([c, x]) => {
              const e = entry(x);
              return e === null ? [] : [[c.toLowerCase(), e] as const];
            }),
          ),
        ]),
    );
  };
  g.notes = tables(raw.notes, (x) => (typeof x === 'string' && x.trim() ? x : null));
  g.imported = tables(raw.imported, (x) =>
    isRecord(x)
      ? {
          expandedName: str(x.expandedName),
          description: str(x.description),
          dataFormat: str(x.dataFormat),
          valueDescription: str(x.valueDescription),
        }
      : null,
  );
  return g;
}
