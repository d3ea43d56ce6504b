// Every dialect, by id: the one line a new engine adds here.

import { postgresDialect } from './postgres/dialect';
import { sqliteDialect } from './sqlite/dialect';
import type { Dialect, DialectId } from './types';

export const DIALECTS: Readonly<Record<DialectId, Dialect>> = {
  sqlite: sqliteDialect,
  postgres: postgresDialect,
};

/** The dialect of a database; one opened before dialects existed is SQLite. */
export function dialectOf(id: DialectId | undefined): Dialect {
  return DIALECTS[id ?? 'sqlite'];
}
