// The database a question runs on, one per concurrency slot. Each slot has its own engine in a
// worker thread (the same RestartableEngine the page uses): sql.js cannot interrupt a query, so a
// runaway query — the model's or a reference's — is stopped by ending that worker, which must not
// take another slot's questions down with it. A slot keeps its database open and its retrieval
// tools built while its questions stay on that database.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { AgentTools } from '../../core/agent/loop';
import { descriptionTexts } from '../../core/descriptions/bird-csv';
import type { TimedQuery } from '../../core/eval/score-answer';
import type { QuestionLink } from '../../core/retrieval/linker';
import { DowserError } from '../../core/errors';
import type { Schema } from '../../core/types';
import { RestartableEngine, type SpawnedWorker } from '../../worker/db-client';
import { spawnNodeDbWorker } from '../../worker/node/spawn';
import { readBirdDescriptions, type DatasetSource } from './datasets';

export interface EvalDatabase {
  dbId: string;
  schema: Schema;
  tools: AgentTools;
  link(question: string): Promise<QuestionLink[]>;
  /** For scoring: the whole result up to the row cap, within the given time. */
  query: TimedQuery;
  /** For scoring the reference on the dataset's SQLite file, when questions are asked on a server. */
  goldQuery?: TimedQuery;
}

/** Where a run's questions find their databases: one per concurrency slot. */
export interface EvalSlot {
  use(dbId: string): Promise<EvalDatabase>;
  dispose(): void;
}

/** A question whose database cannot be had: skipped with this reason. */
export class MissingDatabase extends Error {}

/** The agent's own limit on one tool call; the engine's matches it. */
const TOOL_LIMIT_MS = 30_000;
const WORKER_START_MS = 120_000;

export class DatabaseSlot implements EvalSlot {
  private engine: RestartableEngine | null = null;
  private current: EvalDatabase | null = null;
  /** The worker was replaced (a query ran out of time) and may still be starting. */
  private restarted = false;

  constructor(
    private readonly source: DatasetSource,
    private readonly options: {
      maxResultRows: number;
      toolLimitMs?: number;
      spawn?: () => SpawnedWorker;
      /** Only the reference runs here (the questions are asked elsewhere): no tools are built. */
      referenceOnly?: boolean;
    },
  ) {}

  async use(dbId: string): Promise<EvalDatabase> {
    if (this.current?.dbId === dbId) return this.current;
    const engine = (this.engine ??= new RestartableEngine(this.options.spawn ?? spawnNodeDbWorker, {
      queryTimeoutMs: this.options.toolLimitMs ?? TOOL_LIMIT_MS,
    }));
    if (this.current) {
      await engine.close(this.current.dbId).catch(() => undefined);
      this.current = null;
    }
    const path = this.source.databasePath(dbId);
    let bytes: Uint8Array;
    try {
      const b = readFileSync(path);
      bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch {
      throw new MissingDatabase(`no database file: ${path}`);
    }
    try {
      await engine.open({ id: dbId, name: basename(path), bytes });
    } catch (e) {
      throw new MissingDatabase(`the database cannot be opened: ${e instanceof Error ? e.message : String(e)}`);
    }
    const schema = await engine.introspect(dbId);
    const dir = this.source.descriptionsDir(dbId);
    if (!this.options.referenceOnly)
      await engine.buildTools(dbId, dir ? { descriptions: descriptionTexts(readBirdDescriptions(dir)) } : {});
    this.current = {
      dbId,
      schema,
      tools: {
        call: (name, args) => this.watch(engine.callTool(dbId, name, args)),
        // Auto's grounded request: the column statistics and inferred keys the tools were built with.
        grounding: () => this.watch(engine.grounding(dbId)),
      },
      link: (question) => engine.linkQuestion(dbId, question),
      query: async (sql, limitMs) => {
        // A query's time limit must not include starting a new worker and reopening the file.
        if (this.restarted) {
          this.restarted = false;
          await engine.query(dbId, 'SELECT 1', {}, WORKER_START_MS);
        }
        return this.watch(engine.query(dbId, sql, { maxRows: this.options.maxResultRows }, limitMs));
      },
    };
    return this.current;
  }

  /** A time-out replaces the worker (db-client.ts): the next query waits for the new one first. */
  private async watch<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (e) {
      if (e instanceof DowserError && e.code === 'timeout') this.restarted = true;
      throw e;
    }
  }

  dispose(): void {
    this.engine?.dispose();
    this.engine = null;
    this.current = null;
  }
}
