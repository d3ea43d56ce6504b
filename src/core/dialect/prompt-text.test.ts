import { describe, expect, it } from 'vitest';
import { AUTO_SYSTEM, autoPrompt } from '../agent/auto-prompt';
import { DIRECT_SYSTEM, directPrompt } from '../agent/direct-prompt';
import { buildAgentPrompt } from '../agent/prompt';
import { runPolicy } from '../privacy/disclose';
import type { Schema } from '../types';

const table = (name: string, columns: string[]) => ({
  name,
  kind: 'table' as const,
  sql: null,
  columns: columns.map((c, i) => ({
    name: c,
    declaredType: 'integer',
    affinity: 'INTEGER' as const,
    notNull: false,
    defaultValue: null,
    pkIndex: i === 0 ? 1 : 0,
    hidden: false,
  })),
  primaryKey: [columns[0]],
  withoutRowid: false,
  foreignKeys: [],
  indexes: [],
  rowCount: 3,
});

const onSqlite: Schema = { tables: [table('orders', ['id', 'total'])], foreignKeys: [] };
const onPostgres: Schema = { ...onSqlite, dialect: 'postgres' };
const question = 'How many orders?';

function texts(schema: Schema): string[] {
  const policy = runPolicy('full', question);
  const agent = buildAgentPrompt({ question, schema, mode: 'native' });
  return [
    ...autoPrompt({ question, schema, grounding: null, privacy: policy }).map((m) => m.content),
    ...directPrompt({ question, schema }).map((m) => m.content),
    agent.system,
    agent.user,
    ...(agent.tools ?? []).map((t) => t.description),
    buildAgentPrompt({ question, schema, mode: 'text' }).system,
  ];
}

describe('prompts in the database engine’s dialect', () => {
  it('leave SQLite prompts as they were written', () => {
    const [autoSystem, , directSystem] = texts(onSqlite);
    expect(autoSystem).toBe(AUTO_SYSTEM);
    expect(directSystem).toBe(DIRECT_SYSTEM);
    expect(texts(onSqlite).join('\n')).not.toContain('PostgreSQL');
  });

  it('name PostgreSQL, never SQLite, and state its facts', () => {
    const all = texts(onPostgres).join('\n');
    expect(all).not.toMatch(/SQLite/);
    expect(all).toContain('one read-only PostgreSQL query');
    expect(all).toContain('PostgreSQL facts:');
    expect(all).toContain('ILIKE');
    // No name here folds or splits: the quoting fact is left out…
    expect(all).not.toContain('double-quote names');
    // …and said once one does.
    const mixed: Schema = { ...onPostgres, tables: [table('Orders', ['id', 'Total Paid'])] };
    expect(texts(mixed).join('\n')).toContain('double-quote names with capitals or spaces');
  });
});
