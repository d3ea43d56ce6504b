// What the toolbox holds that a tool may work with: each tool takes its part of it
// (`Tool.contextOf`), so a new tool needs no line in the toolbox (issue 27).

import type { SqlExecutor } from '../executor';
import type { ColumnIndex, ValueLink } from '../retrieval/column-index';
import type { ValueIndex } from '../retrieval/value-index';
import type { JoinGraph } from '../schema/join-graph';
import type { UnmatchedKey } from '../schema/key-health';
import type { Schema } from '../types';
import type { ColumnEvidence } from './sql-repair';

export interface ToolParts {
  schema: Schema;
  /** The database, read-only (scans where the engine has them). */
  exec: SqlExecutor;
  columns: ColumnIndex;
  values: ValueIndex;
  graph: JoinGraph;
  /** Declared keys whose values never meet, by keyLabel. */
  unmatched: ReadonlyMap<string, UnmatchedKey>;
  /** Types, values and keys that repair hints cite. */
  evidence: ColumnEvidence;
  /** The stored values a query names (through the linker). */
  valueLinks(query: string): ValueLink[];
  /** Cosine similarity per indexed column when an embedding model is loaded; absent: lexical only. */
  semantic?: (query: string, signal?: AbortSignal) => Promise<Float32Array | null>;
}
