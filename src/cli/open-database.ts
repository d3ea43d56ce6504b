// Opens a database file for a CLI command: read into memory, then handed to the in-process
// sql.js engine. Nothing is ever written back to the file.

import { basename } from 'node:path';
import type { SqljsEngine } from '../adapters/sqljs/engine';
import { createNodeEngine } from '../adapters/sqljs/node';
import { DowserError } from '../core/errors';
import type { OpenReport } from '../core/types';
import type { CliIo } from './command';

export interface OpenedDatabase {
  engine: SqljsEngine;
  id: string;
  report: OpenReport;
  close(): Promise<void>;
}

const ID = 'cli';

export async function openDatabase(io: CliIo, path: string): Promise<OpenedDatabase> {
  let bytes: Uint8Array;
  try {
    bytes = io.readFile(path);
  } catch (e) {
    throw new DowserError('open_failed', `Cannot read "${path}": ${e instanceof Error ? e.message : String(e)}`);
  }
  const engine = await createNodeEngine();
  const report = await engine.open({ id: ID, name: basename(path), bytes });
  return { engine, id: ID, report, close: () => engine.close(ID) };
}
