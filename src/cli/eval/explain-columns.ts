// Which tables and columns a query reads, told by SQLite itself: the EXPLAIN bytecode opens a
// cursor per b-tree (`OpenRead p1=cursor p2=root page`, root pages listed in sqlite_schema) and
// reads record fields with `Column p1=cursor p2=field`. No SQL parser is involved, so this works
// on every query SQLite accepts; it is the cross-check and the fallback of gold extraction.
//
// What it cannot see: literals and join conditions (they are registers and comparisons), columns
// the optimiser never reads (a `*` expands to every column; a constant-false WHERE may read
// nothing), and the planner's choices decide whether a constrained column is read from the table
// or only used as an index key (index seeks are mapped back to the index's leading columns).

import type { SqlExecutor } from '../../core/executor';
import type { ColumnRef } from '../../core/retrieval/types';
import { quoteLiteral } from '../../core/sql/quote';
import type { SqlValue } from '../../core/types';

const ALL = { maxRows: 1_000_000 };

interface TableBtree {
  kind: 'table';
  table: string;
  /** Column names in record (storage) order. */
  fields: string[];
  /** The INTEGER PRIMARY KEY column (the rowid alias), if any. */
  rowidColumn: string | null;
}

interface IndexBtree {
  kind: 'index';
  table: string;
  /** Column names in index-record order; the trailing rowid maps to the rowid alias (or null). */
  fields: Array<string | null>;
}

type Btree = TableBtree | IndexBtree;

/** Root page -> what lives there, for one database. Build once, reuse for every query. */
export interface ExplainCatalog {
  byRootPage: Map<number, Btree>;
}

export interface ExplainColumns {
  tables: string[];
  columns: ColumnRef[];
}

async function rows(exec: SqlExecutor, sql: string): Promise<Array<Record<string, SqlValue>>> {
  const r = await exec.query(sql, ALL);
  return r.rows.map((values) => Object.fromEntries(r.columns.map((c, i) => [c, values[i]])));
}

const num = (v: SqlValue): number => (typeof v === 'number' ? v : Number(v ?? NaN));
const str = (v: SqlValue): string => (v == null ? '' : String(v));

/** Reads sqlite_schema, table_xinfo and index_xinfo once. */
export async function loadExplainCatalog(exec: SqlExecutor): Promise<ExplainCatalog> {
  const objects = await rows(
    exec,
    `SELECT name, rootpage, type, tbl_name, sql FROM sqlite_schema WHERE type IN ('table', 'index') AND rootpage > 0`,
  );
  const byRootPage = new Map<number, Btree>();
  const tableInfo = new Map<
    string,
    { ordered: string[]; withoutRowidOrder: string[]; rowidColumn: string | null; withoutRowid: boolean }
  >();

  for (const o of objects.filter((x) => x.type === 'table')) {
    const name = str(o.name);
    const cols = await rows(
      exec,
      `SELECT cid, name, type, pk, hidden FROM pragma_table_xinfo(${quoteLiteral(name)}) ORDER BY cid`,
    ).catch(() => []);
    // Stored record order: ordinary columns in declared order, generated columns after them.
    const ordinary = cols.filter((c) => num(c.hidden) === 0 || num(c.hidden) === 1).map((c) => str(c.name));
    const generated = cols.filter((c) => num(c.hidden) >= 2).map((c) => str(c.name));
    const pk = cols.filter((c) => num(c.pk) > 0).sort((a, b) => num(a.pk) - num(b.pk));
    const withoutRowid = /\bwithout\s+rowid\b/i.test(str(o.sql));
    const rowidColumn =
      !withoutRowid && pk.length === 1 && /^\s*integer\s*$/i.test(str(pk[0].type)) ? str(pk[0].name) : null;
    const pkNames = pk.map((c) => str(c.name));
    const info = {
      ordered: [...ordinary, ...generated],
      // A WITHOUT ROWID table is stored as its primary-key index: key columns first, then the rest.
      withoutRowidOrder: [...pkNames, ...ordinary.filter((c) => !pkNames.includes(c)), ...generated],
      rowidColumn,
      withoutRowid,
    };
    tableInfo.set(name.toLowerCase(), info);
    byRootPage.set(num(o.rootpage), {
      kind: 'table',
      table: name,
      fields: withoutRowid ? info.withoutRowidOrder : info.ordered,
      rowidColumn,
    });
  }

  for (const o of objects.filter((x) => x.type === 'index')) {
    const table = str(o.tbl_name);
    const info = tableInfo.get(table.toLowerCase());
    const cols = await rows(
      exec,
      `SELECT seqno, cid, name FROM pragma_index_xinfo(${quoteLiteral(str(o.name))}) ORDER BY seqno`,
    ).catch(() => []);
    // cid -1 is the rowid (mapped to its alias column), -2 an expression (no column).
    const fields = cols.map((c) =>
      num(c.cid) === -1 ? (info?.rowidColumn ?? null) : num(c.cid) === -2 ? null : str(c.name),
    );
    byRootPage.set(num(o.rootpage), { kind: 'index', table, fields });
  }
  return { byRootPage };
}

interface Op {
  opcode: string;
  p1: number;
  p2: number;
  p3: number;
  p4: string | null;
}

// Comparisons on an index cursor whose key is the first P4 fields of the index.
const INDEX_KEY_OPS = new Set([
  'SeekGE',
  'SeekGT',
  'SeekLE',
  'SeekLT',
  'IdxGE',
  'IdxGT',
  'IdxLE',
  'IdxLT',
  'Found',
  'NotFound',
  'NoConflict',
  'IfNoHope',
]);
// Rowid lookups and range seeks on a table cursor: a constraint on the rowid (its alias column).
const ROWID_OPS = new Set(['Rowid', 'SeekRowid', 'NotExists']);
const TABLE_RANGE_OPS = new Set(['SeekGE', 'SeekGT', 'SeekLE', 'SeekLT']);

/**
 * Tables and columns `sql` reads, from its EXPLAIN program. Throws when SQLite cannot compile
 * the statement (unknown table or column, syntax error) or when it is not a read.
 */
export async function explainColumns(
  sql: string,
  exec: SqlExecutor,
  catalog?: ExplainCatalog,
): Promise<ExplainColumns> {
  const cat = catalog ?? (await loadExplainCatalog(exec));
  const text = sql.trim().replace(/;\s*$/, '');
  const program = await exec.query(`EXPLAIN ${text}`, ALL);
  const at = (name: string) => program.columns.indexOf(name);
  const [iop, ip1, ip2, ip3, ip4] = ['opcode', 'p1', 'p2', 'p3', 'p4'].map(at);
  const ops: Op[] = program.rows.map((r) => ({
    opcode: str(r[iop]),
    p1: num(r[ip1]),
    p2: num(r[ip2]),
    p3: num(r[ip3]),
    p4: r[ip4] == null ? null : str(r[ip4]),
  }));

  const cursors = new Map<number, Btree>();
  const tables = new Map<string, string>();
  const columns = new Map<string, ColumnRef>();
  const addTable = (t: string) => {
    if (!tables.has(t.toLowerCase())) tables.set(t.toLowerCase(), t);
  };
  const addColumn = (table: string, column: string | null) => {
    if (!column) return;
    addTable(table);
    const key = `${table}\u0000${column}`.toLowerCase();
    if (!columns.has(key)) columns.set(key, { table, column });
  };

  for (const op of ops) {
    // A cursor number is opened once per program; main database only (p3 = 0).
    if ((op.opcode === 'OpenRead' || op.opcode === 'ReopenIdx') && op.p3 === 0) {
      const bt = cat.byRootPage.get(op.p2);
      if (bt) {
        cursors.set(op.p1, bt);
        addTable(bt.table);
      }
    }
  }
  for (const op of ops) {
    const bt = cursors.get(op.p1);
    if (!bt) continue;
    if (op.opcode === 'Column') {
      addColumn(bt.table, bt.fields[op.p2] ?? null);
    } else if (bt.kind === 'table' && (ROWID_OPS.has(op.opcode) || TABLE_RANGE_OPS.has(op.opcode))) {
      addColumn(bt.table, bt.rowidColumn);
    } else if (bt.kind === 'index' && op.opcode === 'IdxRowid') {
      addColumn(bt.table, bt.fields[bt.fields.length - 1] ?? null);
    } else if (bt.kind === 'index' && INDEX_KEY_OPS.has(op.opcode)) {
      const n = Number(op.p4);
      if (Number.isInteger(n) && n > 0) for (const f of bt.fields.slice(0, n)) addColumn(bt.table, f);
    }
  }
  return { tables: [...tables.values()], columns: [...columns.values()] };
}
