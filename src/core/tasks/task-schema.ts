// The schema as the Fix and Optimize prompts carry it: Direct's `table(col, …)` block when the
// whole schema fits Direct's budget, else only the tables the SQL names. Optimize adds the indexes
// (what makes a rewrite faster in SQLite is mostly which index it can use).

import { DIRECT_MAX_SCHEMA_TOKENS, directSchemaTokens, simpleDdl } from '../agent/direct-prompt';
import { promptIdent } from '../prompt/schema-text';
import { tablesMentioned } from '../tools/sql-repair';
import type { Schema } from '../types';

export function schemaForTask(schema: Schema, sql: string, options: { indexes?: boolean } = {}): string {
  const named = new Set(tablesMentioned(sql, schema));
  const scoped =
    directSchemaTokens(schema) <= DIRECT_MAX_SCHEMA_TOKENS
      ? schema
      : { ...schema, tables: schema.tables.filter((t) => named.has(t.name)) };
  const block = simpleDdl(scoped);
  if (!options.indexes) return block;
  const indexes = scoped.tables.flatMap((t) =>
    t.indexes.map(
      (i) =>
        `# index ${promptIdent(i.name)} on ${promptIdent(t.name)}(${i.columns.map(promptIdent).join(', ')})${i.unique ? ' unique' : ''}${i.partial ? ' partial' : ''}`,
    ),
  );
  return indexes.length ? `${block}\n# Indexes:\n${indexes.join('\n')}\n#` : `${block}\n# Indexes: none\n#`;
}
