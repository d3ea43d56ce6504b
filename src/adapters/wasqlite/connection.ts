// A Connection (see ../sqljs/connection.ts) over wa-sqlite's SQLite, called through its C
// functions: the engine's code runs unchanged on a database read from its file as needed.

import type { ScanRow } from '../../core/executor';
import type { SqlValue } from '../../core/types';
import type { Bindable, Connection, ConnectionStatement, StatementIterator } from '../sqljs/connection';
import type { WaSqliteModule } from './module';

const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const INTEGER = 1;
const FLOAT = 2;
const TEXT = 3;
const BLOB = 4;
/** SQLITE_TRANSIENT: SQLite copies a bound value at once, so ours is freed right after. */
const TRANSIENT = -1;
const utf8 = new TextDecoder();

export class SqliteCallError extends Error {}

/** A UTF-8 copy of `text` on SQLite's heap; free it with `_free`. */
function cString(m: WaSqliteModule, text: string): number {
  const size = m.lengthBytesUTF8(text) + 1;
  const p = m._malloc(size);
  m.stringToUTF8(text, p, size);
  return p;
}

export class WaConnection implements Connection {
  private readonly out: number;

  constructor(
    private readonly m: WaSqliteModule,
    readonly db: number,
  ) {
    this.out = m._malloc(8);
  }

  /** Throws SQLite's message when `rc` is not one of `ok`. */
  check(rc: number, ok: readonly number[] = [0]): number {
    if (!ok.includes(rc)) throw new SqliteCallError(this.m.UTF8ToString(this.m._sqlite3_errmsg(this.db)));
    return rc;
  }

  /** Prepares the statement at `at`; null when only whitespace or comments are left. Sets `tail`. */
  prepareAt(at: number, tail: number): number | null {
    this.check(this.m._sqlite3_prepare_v2(this.db, at, -1, this.out, tail));
    return this.m.getValue(this.out, '*') || null;
  }

  exec(sql: string): Array<{ columns: string[]; values: SqlValue[][] }> {
    const results: Array<{ columns: string[]; values: SqlValue[][] }> = [];
    const it = this.iterateStatements(sql);
    try {
      for (let r = it.next(); !r.done; r = it.next()) {
        const stmt = r.value;
        const columns = stmt.getColumnNames();
        const values: SqlValue[][] = [];
        while (stmt.step()) values.push(stmt.get());
        if (columns.length) results.push({ columns, values });
      }
    } finally {
      it.return?.();
    }
    return results;
  }

  prepare(sql: string): ConnectionStatement {
    const text = cString(this.m, sql);
    try {
      const stmt = this.prepareAt(text, 0);
      if (stmt === null) throw new SqliteCallError('Nothing to prepare: the text holds no statement.');
      return new WaStatement(this, this.m, stmt);
    } finally {
      this.m._free(text);
    }
  }

  iterateStatements(sql: string): StatementIterator {
    const m = this.m;
    const text = cString(m, sql);
    const tail = m._malloc(4);
    let at = text;
    let current: WaStatement | null = null;
    let freed = false;
    const release = () => {
      current?.free();
      current = null;
      if (!freed) {
        freed = true;
        m._free(text);
        m._free(tail);
      }
    };
    return {
      next: () => {
        current?.free();
        current = null;
        if (freed) return { done: true, value: undefined };
        try {
          const stmt = this.prepareAt(at, tail);
          at = m.getValue(tail, '*');
          if (stmt === null) return { done: true, value: undefined };
          current = new WaStatement(this, m, stmt);
          return { done: false, value: current };
        } catch (e) {
          release();
          throw e;
        }
      },
      getRemainingSQL: () => (freed ? '' : m.UTF8ToString(at)),
      return: () => {
        release();
        return { done: true, value: undefined };
      },
    };
  }

  scan(sql: string, params: Bindable[], visit: (row: ScanRow) => void): number {
    const m = this.m;
    const stmt = this.prepare(sql) as WaStatement;
    try {
      if (params.length) stmt.bind(params);
      const s = stmt.pointer;
      const row: ScanRow = {
        type: (j) => m._sqlite3_column_type(s, j),
        number: (j) => m._sqlite3_column_double(s, j),
        string: (j) => {
          const p = m._sqlite3_column_text(s, j);
          return utf8.decode(m.HEAPU8.subarray(p, p + m._sqlite3_column_bytes(s, j)));
        },
        textStart: (j) => m._sqlite3_column_text(s, j),
        textLength: (j) => m._sqlite3_column_bytes(s, j),
        // The module replaces HEAPU8 when the memory grows: always the current view.
        heap: () => m.HEAPU8,
      };
      let rows = 0;
      for (;;) {
        const rc = m._sqlite3_step(s);
        if (rc === SQLITE_DONE) return rows;
        if (rc !== SQLITE_ROW) this.check(rc);
        visit(row);
        rows++;
      }
    } finally {
      stmt.free();
    }
  }

  close(): void {
    this.m._sqlite3_close_v2(this.db);
    this.m._free(this.out);
  }
}

class WaStatement implements ConnectionStatement {
  private freed = false;

  constructor(
    private readonly conn: WaConnection,
    private readonly m: WaSqliteModule,
    private readonly stmt: number,
  ) {}

  get pointer(): number {
    return this.stmt;
  }

  bind(values: Bindable[]): boolean {
    const m = this.m;
    this.conn.check(m._sqlite3_reset(this.stmt));
    values.forEach((v, k) => {
      const i = k + 1;
      if (v === null) this.conn.check(m._sqlite3_bind_null(this.stmt, i));
      else if (typeof v === 'number')
        this.conn.check(
          Number.isInteger(v) && v <= 0x7fffffff && v >= -0x80000000
            ? m._sqlite3_bind_int(this.stmt, i, v)
            : m._sqlite3_bind_double(this.stmt, i, v),
        );
      else if (typeof v === 'string') {
        const p = cString(m, v);
        try {
          this.conn.check(m._sqlite3_bind_text(this.stmt, i, p, -1, TRANSIENT));
        } finally {
          m._free(p);
        }
      } else {
        const p = m._malloc(Math.max(1, v.length));
        m.HEAPU8.set(v, p);
        try {
          this.conn.check(m._sqlite3_bind_blob(this.stmt, i, p, v.length, TRANSIENT));
        } finally {
          m._free(p);
        }
      }
    });
    return true;
  }

  step(): boolean {
    return this.conn.check(this.m._sqlite3_step(this.stmt), [SQLITE_ROW, SQLITE_DONE]) === SQLITE_ROW;
  }

  getColumnNames(): string[] {
    const n = this.m._sqlite3_column_count(this.stmt);
    return Array.from({ length: n }, (_, j) => this.m.UTF8ToString(this.m._sqlite3_column_name(this.stmt, j)));
  }

  get(_params?: null, config?: { useBigInt: boolean }): SqlValue[] {
    const m = this.m;
    const n = m._sqlite3_column_count(this.stmt);
    const row: SqlValue[] = new Array(n);
    for (let j = 0; j < n; j++) {
      switch (m._sqlite3_column_type(this.stmt, j)) {
        case INTEGER: {
          // The module returns a 64-bit integer as its low half; the high half waits in tempRet0.
          const lo = m._sqlite3_column_int64(this.stmt, j);
          const hi = m.getTempRet0();
          const big = (BigInt(hi) << 32n) | BigInt(lo >>> 0);
          row[j] = config?.useBigInt ? big : Number(big);
          break;
        }
        case FLOAT:
          row[j] = m._sqlite3_column_double(this.stmt, j);
          break;
        case TEXT: {
          const p = m._sqlite3_column_text(this.stmt, j);
          row[j] = utf8.decode(m.HEAPU8.subarray(p, p + m._sqlite3_column_bytes(this.stmt, j)));
          break;
        }
        case BLOB: {
          const p = m._sqlite3_column_blob(this.stmt, j);
          row[j] = m.HEAPU8.slice(p, p + m._sqlite3_column_bytes(this.stmt, j));
          break;
        }
        default:
          row[j] = null;
      }
    }
    return row;
  }

  run(values: Bindable[]): boolean {
    this.bind(values);
    this.step();
    this.conn.check(this.m._sqlite3_reset(this.stmt));
    return true;
  }

  free(): boolean {
    if (!this.freed) {
      this.freed = true;
      this.m._sqlite3_finalize(this.stmt);
    }
    return true;
  }
}
