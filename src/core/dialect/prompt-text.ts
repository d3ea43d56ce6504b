// Prompt text written for SQLite, said for the database's engine: the engine's name where the
// text names SQLite, and the facts every prompt about that engine states. For SQLite the text is
// returned as it is (its prompts were written for it, and are measured as they are).

import { dialectOf } from './registry';
import type { Schema } from '../types';
import type { DialectId } from './types';

export function inDialect(text: string, dialect: DialectId | undefined): string {
  if (!dialect || dialect === 'sqlite') return text;
  return text.replace(/\bSQLite\b/g, dialectOf(dialect).label);
}

/** `PostgreSQL facts:` and its lines for this database, or '' for SQLite. */
export function dialectFacts(schema: Schema): string {
  const dialect = dialectOf(schema.dialect);
  const facts = dialect.promptFacts(schema.tables.flatMap((t) => [t.name, ...t.columns.map((c) => c.name)]));
  return facts.length ? `${dialect.label} facts:\n${facts.map((f) => `- ${f}`).join('\n')}` : '';
}
