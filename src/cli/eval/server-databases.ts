// Evaluation on a server engine (issue 36): each question is asked on the dataset's database
// copied into PostgreSQL (`dowser copy-to-postgres`), through the same PostgresEngine the CLI uses,
// and scored against the reference run on the dataset's own SQLite file (the results compared
// after score-answer.ts `serverValues`). `--db-url` names the server database of each db_id.

import { PostgresEngine } from '../../adapters/postgres/engine';
import { agentToolsOf } from '../ask/agent-tools';
import { DatabaseSlot, MissingDatabase, type EvalDatabase, type EvalSlot } from './eval-databases';
import type { DatasetSource } from './datasets';

/** The agent's own limit on one tool call, as on SQLite. */
const TOOL_LIMIT_MS = 30_000;

/**
 * `postgres://u@h/spider_{db}` with `{db}` as the question's database id, lower-cased as
 * `dowser copy-to-postgres --spider` names the databases (PostgreSQL folds unquoted names).
 */
export function serverUrlFor(template: string, dbId: string): string {
  return template.replaceAll('{db}', encodeURIComponent(dbId.toLowerCase()));
}

export class ServerDatabaseSlot implements EvalSlot {
  private readonly engine = new PostgresEngine();
  private readonly reference: DatabaseSlot;
  private current: EvalDatabase | null = null;

  constructor(
    source: DatasetSource,
    private readonly options: { urlTemplate: string; maxResultRows: number; toolLimitMs?: number },
  ) {
    this.reference = new DatabaseSlot(source, { maxResultRows: options.maxResultRows, referenceOnly: true });
    this.engine.queryTimeoutMs = options.toolLimitMs ?? TOOL_LIMIT_MS;
  }

  async use(dbId: string): Promise<EvalDatabase> {
    if (this.current?.dbId === dbId) return this.current;
    if (this.current) await this.engine.close(this.current.dbId).catch(() => undefined);
    this.current = null;
    const reference = await this.reference.use(dbId);
    let report;
    try {
      report = await this.engine.connect({
        id: dbId,
        target: { url: serverUrlFor(this.options.urlTemplate, dbId), env: process.env },
      });
    } catch (e) {
      throw new MissingDatabase(`the server database cannot be reached: ${e instanceof Error ? e.message : String(e)}`);
    }
    const engine = this.engine;
    const schema = await engine.introspect(dbId);
    await engine.buildTools(dbId);
    this.current = {
      dbId,
      schema,
      // The CLI's own wrapper (Stop cancels the server's statement); the indexes are built above.
      tools: agentToolsOf({ engine, id: dbId, report, close: () => engine.close(dbId) }),
      link: (question) => engine.linkQuestion(dbId, question),
      query: (sql, limitMs) => engine.query(dbId, sql, { maxRows: this.options.maxResultRows }, limitMs),
      goldQuery: reference.query,
    };
    return this.current;
  }

  dispose(): void {
    this.engine.dispose();
    this.reference.dispose();
    this.current = null;
  }
}
