// DbEngine on a PostgreSQL server (issue 36), for the CLI and `dowser serve`: several server
// databases by id, each one connection (session.ts) whose every statement is read-only at the
// database. Statements pass the PostgreSQL gate first (core/dialect/postgres/gate.ts), rows stop at
// the result budget as on SQLite, and a time limit is the server's statement_timeout (no worker to
// restart: the server stops the statement, and Stop sends a cancel request). Where the host gives
// a store and a hash, a database's indexes are kept for the next run as a file's are, confirmed by
// its change state (change-state.ts) instead of a checksum of bytes.

import { DEFAULT_QUERY_TIMEOUT_MS } from '../../core/db/query-timeout';
import {
  DEFAULT_MAX_CELL_CHARS,
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_ROWS,
  ResultBudget,
  WHOLE_VALUE_MAX,
} from '../../core/db/result-budget';
import { postgresDialect } from '../../core/dialect/postgres/dialect';
import type { ClientConfig } from 'pg';
import type {
  CellAddress,
  DbEngine,
  SchemaRequest,
  ToolCallExtras,
  ToolsOptions,
  ToolsSummary,
  WaitOptions,
  WholeValue,
} from '../../core/engine';
import type { Grounding } from '../../core/prompt/grounded-schema';
import type { ColumnDescriptions } from '../../core/retrieval/column-index';
import type { QuestionLink } from '../../core/retrieval/linker';
import type { ToolCallOutcome } from '../../core/tools/registry';
import type { ToolboxProgress } from '../../core/tools/toolbox';
import { summarizeToolbox } from '../../core/tools/tools-summary';
import { BUILD_READ_TIMEOUT_MS, ServerTools } from './server-tools';
import { DowserError } from '../../core/errors';
import type {
  ColumnStats,
  OpenIssue,
  OpenReport,
  QueryOptions,
  QueryResult,
  Schema,
  ServerReport,
  SqlValue,
  StorageClass,
} from '../../core/types';
import { bytesSource, type ContentHasher } from '../../core/tools/content-digest';
import { KeptToolboxes, type KeptFile } from '../../core/tools/kept-toolbox';
import { KEEP_INDEXES_FROM_CELLS, serverToolboxKey, type ToolboxStore } from '../../core/tools/toolbox-snapshot';
import type { KeepProgress, KeptState } from '../../core/engine';
import { readChangeState } from './change-state';
import { introspectServer } from './introspect';
import { inspectRole, roleIssues } from './role';
import { ServerSession } from './session';
import { serverColumnStats } from './stats';
import { clientConfig, describeTarget, type ServerTarget } from './target';
import { columnKindOf, storageClassOf } from './values';

export interface ServerOpenRequest {
  id: string;
  target: ServerTarget;
}

interface ServerDatabase {
  session: ServerSession;
  /** The index build's own connection (made when a build starts): a long read does not queue questions. */
  buildSession: ServerSession | null;
  config: ClientConfig;
  searchPath: string;
  report: OpenReport;
  /** Each table's schema and rows, from the last introspection (statistics need them). */
  tables: Map<string, { schemaName: string; rows: number }>;
  /** The last introspection, which the tools are built on. */
  schema: Schema | null;
  tools: ServerTools;
}

const quote = postgresDialect.quoteIdent;

/** Where a database's indexes are kept between runs (none: always built), as SqlJsEngine's host gives. */
export interface PostgresEngineOptions {
  toolboxStore?: ToolboxStore;
  contentHasher?: ContentHasher;
  /** Databases with fewer text cells are not kept (default KEEP_INDEXES_FROM_CELLS). */
  keepFromCells?: number;
}

export class PostgresEngine implements DbEngine {
  /** The time limit of one statement, enforced by the server (statement_timeout). */
  queryTimeoutMs = DEFAULT_QUERY_TIMEOUT_MS;
  /** Text cells the value index may hold when a build does not say (null: every one). */
  valueCellBudget: number | null | undefined = undefined;
  private readonly dbs = new Map<string, ServerDatabase>();
  private readonly kept: KeptToolboxes | null;

  constructor(options: PostgresEngineOptions = {}) {
    const { toolboxStore: store, contentHasher: hasher } = options;
    this.kept =
      store && hasher
        ? new KeptToolboxes({ store, hasher, keepFromCells: options.keepFromCells ?? KEEP_INDEXES_FROM_CELLS })
        : null;
  }

  /** Connects, reads the role's powers and the server's version; the report says what was found. */
  async connect(request: ServerOpenRequest): Promise<OpenReport> {
    const started = performance.now();
    const config = clientConfig(request.target);
    const probe = new ServerSession(config, null);
    await probe.connect();
    let schemas: string[];
    let role: Awaited<ReturnType<typeof inspectRole>>;
    try {
      schemas = request.target.schemas?.length
        ? request.target.schemas
        : await probe.read(this.queryTimeoutMs, async (run) =>
            (await run.rows('SELECT unnest(current_schemas(false))')).map(([s]) => String(s)),
          );
      role = await probe.read(this.queryTimeoutMs, (run) => inspectRole(run, schemas));
    } finally {
      await probe.close();
    }
    const searchPath = ['pg_catalog', ...schemas].map(quote).join(', ');
    const session = new ServerSession(config, searchPath);
    await session.connect();
    const server: ServerReport = {
      dialect: 'postgres',
      target: describeTarget(request.target),
      version: role.version,
      schemas,
      superuser: role.superuser,
      canWrite: role.canWrite,
      trigrams: role.trigrams,
    };
    const issues: OpenIssue[] = roleIssues(role, server.target);
    if (!schemas.length)
      issues.push({
        level: 'warning',
        code: 'no_schema',
        message: 'The search path names no schema that exists: pass --schema.',
      });
    const report: OpenReport = {
      id: request.id,
      name: server.target,
      sizeBytes: role.sizeBytes,
      sqliteVersion: '',
      pageSize: 0,
      pageCount: 0,
      quickCheck: [],
      issues,
      openMs: Math.round(performance.now() - started),
      server,
    };
    void this.close(request.id);
    const db: ServerDatabase = {
      session,
      buildSession: null,
      config,
      searchPath,
      report,
      tables: new Map(),
      schema: null,
      tools: null!,
    };
    db.tools = new ServerTools({
      query: (sql, options) => this.query(request.id, sql, options),
      stream: (sql, visit) => this.streamForBuild(db, sql, visit),
      schema: async () => db.schema ?? (await this.introspect(request.id)),
      columnStats: (table, column) => this.columnStats(request.id, table, column),
      valueCellBudget: () => this.valueCellBudget,
      ...(this.kept
        ? { keeping: { toolboxes: this.kept, database: (cells: number | null) => this.keptDatabase(db, cells) } }
        : {}),
    });
    this.dbs.set(request.id, db);
    return report;
  }

  open(): Promise<OpenReport> {
    return Promise.reject(
      new DowserError('open_failed', 'A PostgreSQL engine connects to servers; it opens no files.'),
    );
  }

  async check(id: string): Promise<OpenReport> {
    return this.db(id).report;
  }

  async close(id: string): Promise<void> {
    const db = this.dbs.get(id);
    this.dbs.delete(id);
    await Promise.all([db?.session.close(), db?.buildSession?.close()]);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.dbs.keys()].map((id) => this.close(id)));
  }

  /** Closes every connection without waiting (the process is ending). */
  dispose(): void {
    void this.closeAll();
  }

  /** `timeoutMs`: this statement's own limit instead of queryTimeoutMs (an evaluator's scoring query). */
  async query(id: string, sql: string, options: QueryOptions = {}, timeoutMs?: number): Promise<QueryResult> {
    const db = this.db(id);
    const text = postgresDialect.assertRead(sql);
    const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
    const offset = options.offset ?? 0;
    const budget = new ResultBudget(
      options.maxCellChars ?? DEFAULT_MAX_CELL_CHARS,
      options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
    );
    const started = performance.now();
    let index = 0;
    const read = await db.session.read(timeoutMs ?? this.queryTimeoutMs, (run) =>
      run.cursor(text, options.params ?? [], maxRows, offset, (row) => {
        if (budget.spent) return false;
        budget.take(row, index++);
        return true;
      }),
    );
    const columns = read.fields.map((f) => f.name);
    const seen = columns.map(() => new Set<StorageClass>());
    for (const row of read.rows) row.forEach((v, j) => v !== null && seen[j].add(storageClassOf(v)));
    return {
      columns,
      columnTypes: seen.map((s) => [...s]),
      columnKinds: read.fields.map((f) => columnKindOf(f.dataTypeID)),
      rows: read.rows,
      truncated: read.more,
      offset,
      elapsedMs: Math.round(performance.now() - started),
      ...(budget.cut.length ? { cut: budget.cut } : {}),
      ...(read.more && budget.spent ? { byteLimit: budget.maxBytes } : {}),
    };
  }

  async wholeValue(id: string, sql: string, at: CellAddress): Promise<WholeValue> {
    const r = await this.query(id, sql, {
      offset: at.row,
      maxRows: 1,
      params: at.params,
      maxCellChars: WHOLE_VALUE_MAX,
      maxResultBytes: Number.MAX_SAFE_INTEGER,
    });
    const value: SqlValue = r.rows[0]?.[at.column] ?? null;
    const cut = r.cut?.find((c) => c.column === at.column);
    const length = typeof value === 'string' || value instanceof Uint8Array ? (cut?.length ?? value.length) : 0;
    return { value, length, cut: Boolean(cut) };
  }

  async introspect(id: string, options: SchemaRequest = {}): Promise<Schema> {
    const db = this.db(id);
    const schemas = db.report.server?.schemas ?? [];
    const schema = await db.session.read(Math.max(this.queryTimeoutMs, options.budgetMs ?? 0), (run) =>
      introspectServer(run, schemas, quote),
    );
    db.tables = new Map(schema.tables.map((t) => [t.name, { schemaName: t.schemaName, rows: t.rowCount ?? 0 }]));
    const only = options.only ? new Set(options.only) : null;
    const read: Schema = {
      dialect: 'postgres',
      tables: schema.tables.map(({ schemaName: _s, ...t }) => t),
      foreignKeys: schema.foreignKeys,
    };
    if (!only) db.schema = read;
    return only ? { ...read, tables: read.tables.filter((t) => only.has(t.name)) } : read;
  }

  async columnStats(id: string, table: string, column: string): Promise<ColumnStats> {
    const db = this.db(id);
    if (!db.tables.has(table)) await this.introspect(id);
    const t = db.tables.get(table);
    if (!t) throw new DowserError('sql_error', `There is no table ${table} in ${db.report.name}.`);
    return db.session.read(this.queryTimeoutMs, (run) =>
      serverColumnStats(run, { schemaName: t.schemaName, table, column, rows: t.rows }, quote),
    );
  }

  /** Stop: the server cancels whatever statement of ours is running. */
  async cancel(): Promise<void> {
    await Promise.all([...this.dbs.values()].flatMap((db) => [db.session.cancel(), db.buildSession?.cancel()]));
  }

  private async streamForBuild(
    db: ServerDatabase,
    sql: string,
    visit: (row: readonly SqlValue[]) => boolean | void,
  ): Promise<number> {
    const text = postgresDialect.assertRead(sql);
    if (!db.buildSession) {
      const session = new ServerSession(db.config, db.searchPath);
      await session.connect();
      db.buildSession = session;
    }
    return db.buildSession.read(BUILD_READ_TIMEOUT_MS, (run) => run.stream(text, visit));
  }

  async buildTools(
    id: string,
    options?: ToolsOptions,
    onProgress?: (p: ToolboxProgress) => void,
  ): Promise<ToolsSummary> {
    return summarizeToolbox(await this.db(id).tools.build(options, onProgress));
  }
  /**
   * This database as its kept indexes know it: the server, database, role and schemas name it,
   * its change state confirms it; null where the server's counters cannot tell a change.
   */
  private async keptDatabase(db: ServerDatabase, cells: number | null): Promise<KeptFile | null> {
    const schemas = db.report.server?.schemas ?? [];
    const state = () => db.session.read(this.queryTimeoutMs, (run) => readChangeState(run, schemas));
    const first = await state();
    if (!first.counted) return null;
    const identity = JSON.stringify({ server: db.report.server?.target, schemas });
    return {
      key: serverToolboxKey(identity, { valueCellBudget: cells }),
      content: bytesSource(new TextEncoder().encode(first.text)),
      unchanged: async () => {
        const now = await state().catch(() => null);
        return Boolean(now?.counted && now.text === first.text);
      },
    };
  }

  finishKeeping(id: string, onProgress?: (p: KeepProgress) => void): Promise<KeptState> {
    const db = this.dbs.get(id);
    return db ? db.tools.finishKeeping(onProgress) : Promise.resolve('none');
  }
  callTool(id: string, name: string, args: unknown, extras?: ToolCallExtras): Promise<ToolCallOutcome> {
    return this.db(id).tools.call(name, args, extras);
  }
  async setDescriptions(id: string, descriptions: ColumnDescriptions): Promise<ToolsSummary> {
    return summarizeToolbox(await this.db(id).tools.setDescriptions(descriptions));
  }
  linkQuestion(id: string, question: string, options?: WaitOptions): Promise<QuestionLink[]> {
    return this.db(id).tools.link(question, options);
  }
  grounding(id: string, options?: WaitOptions): Promise<Grounding> {
    return this.db(id).tools.grounding(options);
  }
  exportImported(): Promise<never> {
    return Promise.reject(
      new DowserError('read_only', 'Only a database made from table files can be saved as a SQLite file.'),
    );
  }
  async heapBytes(): Promise<number> {
    return 0;
  }

  private db(id: string): ServerDatabase {
    const db = this.dbs.get(id);
    if (!db) throw new DowserError('unknown_database', `No database is connected as ${id}.`);
    return db;
  }
}
