// What a CLI command holds once its --db is open: a file's engine in a worker thread
// (open-database.ts) or a server's in this process (server-database.ts), behind one shape.

import type { DbEngine } from '../core/engine';
import type { OpenReport } from '../core/types';

/** What a CLI command uses of an engine: the contract, Stop, the time limit it was given, and its end. */
export type CliEngine = DbEngine & { cancel(): Promise<void>; queryTimeoutMs: number; dispose(): void };

export interface OpenedDatabase {
  engine: CliEngine;
  id: string;
  report: OpenReport;
  close(): Promise<void>;
}
