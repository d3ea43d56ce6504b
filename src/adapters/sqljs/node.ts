// In-process engine for Node (CLI, unit tests): sql.js finds its wasm next to its own module.
import initSqlJs from 'sql.js';
import { SqljsEngine } from './engine';

export async function createNodeEngine(): Promise<SqljsEngine> {
  return new SqljsEngine(await initSqlJs());
}
