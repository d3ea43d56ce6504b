// One connection to one server database, and the read transaction every statement runs in.
// The database itself enforces read-only, not only Dowser's gate: the session starts with
// default_transaction_read_only on, each statement runs in a `READ ONLY` transaction with
// statement_timeout and lock_timeout set and is rolled back, an idle transaction is ended by the
// server, and statements go through the extended query protocol (a cursor), which runs exactly
// one. Calls on one session run one after another; Stop sends the server a cancel request for our
// own running statement only.

import pg from 'pg';
import Cursor from 'pg-cursor';
import type { ClientConfig, FieldDef } from 'pg';
import type { SqlValue } from '../../core/types';
import { serverError } from './errors';
import { VALUE_TYPES } from './values';

/** How long a lock is waited for: a read waiting behind someone's migration fails readably. */
const LOCK_TIMEOUT_MS = 5_000;
/** A transaction of ours left open (a process that hung) is ended by the server after this. */
const IDLE_IN_TRANSACTION_MS = 60_000;
/** Rows fetched from a cursor at a time. */
const FETCH = 500;

export interface CursorRows {
  fields: FieldDef[];
  rows: SqlValue[][];
  /** More rows followed the last one read. */
  more: boolean;
}

/** What a read can do inside its transaction. */
export interface ReadRunner {
  /**
   * Runs one statement through a cursor: skips `offset` rows, then reads until `take` returns
   * false or `limit` rows were taken (one more is read to tell whether there are more).
   */
  cursor(
    sql: string,
    params: readonly SqlValue[],
    limit: number,
    offset?: number,
    take?: (row: SqlValue[]) => boolean,
  ): Promise<CursorRows>;
  /** A catalog query of ours (small results), rows as arrays. */
  rows(sql: string, params?: readonly unknown[]): Promise<SqlValue[][]>;
  /** Every row of one statement, visited as it arrives and not kept; a visit returning false stops. */
  stream(sql: string, visit: (row: readonly SqlValue[]) => boolean | void): Promise<number>;
}

export class ServerSession {
  private client: pg.Client | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private running: Cursor | null = null;
  private broken: Error | null = null;

  constructor(
    private readonly config: ClientConfig,
    /** `SET search_path`: pg_catalog first, so a table named like a built-in never shadows one. */
    private readonly searchPath: string | null,
  ) {}

  async connect(): Promise<void> {
    const client = new pg.Client({
      ...this.config,
      options: `-c default_transaction_read_only=on -c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS} -c bytea_output=hex -c standard_conforming_strings=on -c DateStyle=ISO -c IntervalStyle=postgres -c client_encoding=UTF8`,
    });
    // A connection the server ended (a restart, a network cut) reconnects on the next call.
    client.on('error', (e) => {
      this.broken = e;
    });
    try {
      await client.connect();
      if (this.searchPath) await client.query(`SET search_path = ${this.searchPath}`);
    } catch (e) {
      await client.end().catch(() => undefined);
      throw serverError(e, null, 0);
    }
    this.client = client;
    this.broken = null;
  }

  /** Runs `work` in a read-only transaction with a time limit, after the calls before it. */
  read<T>(timeoutMs: number, work: (run: ReadRunner) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => this.inTransaction(timeoutMs, work));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async inTransaction<T>(timeoutMs: number, work: (run: ReadRunner) => Promise<T>): Promise<T> {
    if (!this.client || this.broken) {
      await this.client?.end().catch(() => undefined);
      this.client = null;
      await this.connect();
    }
    const client = this.client!;
    let current: string | null = null;
    try {
      await client.query(
        `BEGIN TRANSACTION READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}; SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`,
      );
      return await work({
        cursor: (sql, params, limit, offset = 0, take) => {
          current = sql;
          return this.readCursor(client, sql, params, limit, offset, take);
        },
        stream: (sql, visit) => {
          current = sql;
          return this.streamCursor(client, sql, visit);
        },
        rows: async (sql, params = []) => {
          current = sql;
          const r = await client.query({ text: sql, values: [...params], rowMode: 'array', types: VALUE_TYPES });
          return r.rows as SqlValue[][];
        },
      });
    } catch (e) {
      throw serverError(e, current, timeoutMs);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
    }
  }

  /** A page of a statement's rows: `offset` skipped, up to `limit` taken (and one more looked at). */
  private async readCursor(
    client: pg.Client,
    sql: string,
    params: readonly SqlValue[],
    limit: number,
    offset: number,
    take?: (row: SqlValue[]) => boolean,
  ): Promise<CursorRows> {
    const rows: SqlValue[][] = [];
    let skipped = 0;
    let more = false;
    const { fields } = await this.eachRow(client, sql, params, (row) => {
      if (skipped < offset) {
        skipped++;
        return;
      }
      if (rows.length >= limit || (take && !take(row))) {
        more = true;
        return false;
      }
      rows.push(row);
    });
    return { fields, rows, more };
  }

  private async streamCursor(
    client: pg.Client,
    sql: string,
    visit: (row: readonly SqlValue[]) => boolean | void,
  ): Promise<number> {
    return (await this.eachRow(client, sql, [], visit)).visited;
  }

  /**
   * Every row of one statement through a cursor, FETCH at a time, none kept here; a visit that
   * returns false stops the read (the row it was given counts as visited). The cursor is Stop's
   * target while it runs.
   */
  private async eachRow(
    client: pg.Client,
    sql: string,
    params: readonly SqlValue[],
    visit: (row: SqlValue[]) => boolean | void,
  ): Promise<{ fields: FieldDef[]; visited: number }> {
    const cursor = client.query(new Cursor(sql, params.map(paramValue), { rowMode: 'array', types: VALUE_TYPES }));
    this.running = cursor;
    let fields: FieldDef[] = [];
    let visited = 0;
    try {
      for (;;) {
        // A read after the last row gets no result (pg-cursor): the fields are the earlier read's.
        const { batch, result } = await new Promise<{ batch: SqlValue[][]; result?: { fields: FieldDef[] } }>(
          (resolve, reject) =>
            cursor.read(FETCH, (err, batch, result) =>
              err ? reject(err) : resolve({ batch: batch as SqlValue[][], result }),
            ),
        );
        if (result) fields = result.fields;
        if (batch.length === 0) return { fields, visited };
        for (const row of batch) {
          visited++;
          if (visit(row) === false) return { fields, visited };
        }
      }
    } finally {
      this.running = null;
      await cursor.close().catch(() => undefined);
    }
  }

  /** Asks the server to cancel the statement of ours that is running now, if any. */
  async cancel(): Promise<void> {
    const client = this.client as (pg.Client & { processID: number | null; secretKey: number | null }) | null;
    if (!client || !this.running || client.processID === null || client.secretKey === null) return;
    // A cancel request goes on a new connection with the backend's key (the protocol's CancelRequest):
    // it can only stop our own session's statement.
    const { processID, secretKey } = client;
    const con = new pg.Connection() as unknown as CancelConnection;
    await new Promise<void>((resolve) => {
      con.once('connect', () => {
        con.cancel(processID, secretKey);
        resolve();
      });
      con.once('error', () => resolve());
      const host = String(this.config.host ?? 'localhost');
      if (host.startsWith('/')) con.connect(`${host}/.s.PGSQL.${this.config.port ?? 5432}`);
      else con.connect(Number(this.config.port ?? 5432), host);
    });
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }
}

/** What a cancel request uses of pg's Connection (its types leave these out). */
interface CancelConnection {
  connect(portOrPath: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
  once(event: 'connect' | 'error', listener: () => void): void;
}

/** Parameters as pg sends them: bytes as a Buffer, bigints as their digits. */
function paramValue(v: SqlValue): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v;
}
