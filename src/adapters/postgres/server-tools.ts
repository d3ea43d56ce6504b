// The retrieval tools, Auto's grounding and the linker on a server database (issue 36): core's
// toolbox built over an executor in PostgreSQL's dialect. The values are read in one statement
// per table through a cursor on a second connection of their own (questions asked meanwhile are
// not queued behind the read), column statistics the read does not give come from pg_stats, and
// until the indexes are ready a question links by names and is grounded on pg_stats alone. Where
// the host keeps indexes, a build first looks for the ones kept for this database in its present
// change state (change-state.ts) and keeps what it builds (core/tools/kept-toolbox.ts).

import { numberedParams } from '../../core/dialect/postgres/params';
import type { SqlExecutor } from '../../core/executor';
import type { ToolCallExtras, ToolsOptions, WaitOptions } from '../../core/engine';
import type { Grounding } from '../../core/prompt/grounded-schema';
import type { ColumnDescriptions } from '../../core/retrieval/column-index';
import { linkQuestion as linkByNames, type QuestionLink } from '../../core/retrieval/linker';
import { SERVER_VALUE_CELL_BUDGET } from '../../core/retrieval/distinct-values';
import type { ToolCallOutcome } from '../../core/tools/registry';
import { codesInColumns, codeWords } from '../../core/tools/engine-text-search';
import { KeepTracker, type KeptFile, type KeptToolboxes } from '../../core/tools/kept-toolbox';
import { buildToolbox, type Toolbox, type ToolboxProgress } from '../../core/tools/toolbox';
import type { KeepProgress, KeptState } from '../../core/engine';
import { readyWithin, type WaitMemory } from '../../core/tools/wait-once';
import type { ColumnStats, QueryOptions, QueryResult, Schema, SqlValue } from '../../core/types';

/** A whole-table read may take this long (the build's statements, not a person's). */
export const BUILD_READ_TIMEOUT_MS = 30 * 60_000;
/** The grounding before the indexes are ready stops adding columns after this long. */
const EARLY_GROUNDING_MS = 1_500;

export interface ServerToolsHost {
  query(sql: string, options?: QueryOptions): Promise<QueryResult>;
  /** Streams a statement of the build on the build's own connection. */
  stream(sql: string, visit: (row: readonly SqlValue[]) => boolean | void): Promise<number>;
  schema(): Promise<Schema>;
  columnStats(table: string, column: string): Promise<ColumnStats>;
  /** The value index's budget when a build does not give one (the CLI's DOWSER_INDEX_CELLS; null: none). */
  valueCellBudget(): number | null | undefined;
  /** Where indexes are kept between runs, and this database as they know it (null: not kept now). */
  keeping?: {
    toolboxes: KeptToolboxes;
    database(valueCellBudget: number | null): Promise<KeptFile | null>;
  };
}

export class ServerTools {
  private job: Promise<Toolbox> | null = null;
  private readonly waits: WaitMemory<Toolbox> = {};
  private options: ToolsOptions = {};
  private readonly keeping = new KeepTracker();

  constructor(private readonly host: ServerToolsHost) {}

  private executor(): SqlExecutor {
    return {
      dialect: 'postgres',
      query: (sql, options) => this.host.query(numberedParams(sql), options),
      stream: (sql, visit) => this.host.stream(sql, visit),
    };
  }

  build(options: ToolsOptions = {}, onProgress?: (p: ToolboxProgress) => void): Promise<Toolbox> {
    this.options = options;
    const budget = options.valueCellBudget === undefined ? this.host.valueCellBudget() : options.valueCellBudget;
    const cells = budget === null ? null : (budget ?? SERVER_VALUE_CELL_BUDGET);
    const keeping = this.host.keeping && options.keep !== false ? this.host.keeping : null;
    let keptState: Promise<KeptState> = Promise.resolve('not-kept');
    const job = (async () => {
      const exec = this.executor();
      const schema = await this.host.schema();
      const kept = keeping ? await keeping.database(cells).catch(() => null) : null;
      const reused = kept
        ? await keeping!.toolboxes.reuse(kept, exec, schema, { descriptions: options.descriptions }, onProgress)
        : null;
      if (reused) return reused;
      const toolbox = await buildToolbox(exec, schema, {
        descriptions: options.descriptions,
        valueCellBudget: cells ?? Infinity,
        columnStats: (t, c) => this.host.columnStats(t.name, c.name),
        onProgress: (p) => {
          onProgress?.(p);
          this.keeping.tell({ phase: 'building', fraction: p.total ? p.done / p.total : 0 });
        },
      });
      // Not awaited: the answer need not wait; a one-shot CLI run waits before it exits (finishKeeping).
      if (kept) keptState = keeping!.toolboxes.keep(kept, toolbox, (p) => this.keeping.tell(p));
      return toolbox;
    })();
    if (keeping)
      this.keeping.track(
        job.then(
          (t) => (t.reused ? 'reused' : keptState),
          () => 'failed',
        ),
      );
    this.keep(job);
    return job;
  }

  /** What the last build's indexes became for the next run ('none' where nothing is kept). */
  finishKeeping(onProgress?: (p: KeepProgress) => void): Promise<KeptState> {
    return this.keeping.finish(onProgress);
  }

  private keep(job: Promise<Toolbox>): void {
    this.job = job;
    job.catch(() => {
      if (this.job === job) this.job = null;
    });
  }

  private toolbox(): Promise<Toolbox> {
    return this.job ?? this.build(this.options);
  }

  async setDescriptions(descriptions: ColumnDescriptions): Promise<Toolbox> {
    this.options = { ...this.options, descriptions };
    if (!this.job) return this.build(this.options);
    const next = this.job.then((t) => t.withDescriptions(descriptions));
    this.keep(next);
    return next;
  }

  async call(name: string, args: unknown, extras?: ToolCallExtras): Promise<ToolCallOutcome> {
    return (await this.toolbox()).call(name, args, undefined, extras);
  }

  async link(question: string, options: WaitOptions = {}): Promise<QuestionLink[]> {
    const toolbox = await this.within(options.waitMs);
    const links = toolbox ? toolbox.link(question) : linkByNames(question, await this.host.schema());
    return [...links, ...(await this.codeLinks(question, links))];
  }

  /**
   * Codes the question names ("EV-9E3779B1") stored in a column the server searches itself
   * (pg_trgm): the value index does not hold those columns, so the linker cannot see them.
   */
  private async codeLinks(question: string, links: readonly QuestionLink[]): Promise<QuestionLink[]> {
    const schema = await this.host.schema();
    const columns = schema.tables.flatMap((t) =>
      t.columns.filter((c) => c.textIndex === 'trigram').map((c) => ({ table: t.name, column: c.name })),
    );
    const codes = codeWords(question).filter(
      (w) => !links.some((l) => l.kind === 'value' && l.start <= w.start && l.end >= w.end),
    );
    const found = await codesInColumns(this.executor(), columns, codes);
    return found.map(({ code, table, column, value }) => ({
      start: code.start,
      end: code.end,
      text: code.text,
      kind: 'value' as const,
      table,
      column,
      value,
      score: value === code.text ? 1 : 0.9,
    }));
  }

  async grounding(options: WaitOptions = {}): Promise<Grounding> {
    const toolbox = await this.within(options.waitMs);
    return toolbox ? toolbox.grounding() : this.earlyGrounding();
  }

  /**
   * Before the indexes are ready: the server's own statistics of every column it can give within
   * EARLY_GROUNDING_MS (pg_stats answers at once; a table never analysed is sampled), no inferred keys.
   */
  private async earlyGrounding(): Promise<Grounding> {
    const schema = await this.host.schema();
    const deadline = Date.now() + EARLY_GROUNDING_MS;
    const stats: ColumnStats[] = [];
    for (const t of schema.tables)
      for (const c of t.columns) {
        if (Date.now() > deadline || t.error) continue;
        stats.push(await this.host.columnStats(t.name, c.name).catch(() => null as never));
      }
    const descriptions = [...(this.options.descriptions ?? new Map())].flatMap(([table, columns]) =>
      [...columns].map(([column, text]) => ({ table, column, text })),
    );
    return { stats: stats.filter(Boolean), inferredKeys: [], descriptions };
  }

  /** The toolbox if ready within `waitMs`, as on every engine (core/tools/wait-once.ts). */
  private within(waitMs: number | undefined): Promise<Toolbox | null> {
    return readyWithin(this.toolbox(), waitMs, this.waits);
  }
}
