// PostgreSQL as a dialect. Identifiers quote as in SQLite ("a""b"); literals too, with
// standard_conforming_strings on (the default since 9.1, and the engine sets it), so a backslash
// in a literal is just a backslash.

import { quoteIdent, quoteLiteral } from '../../sql/quote';
import type { Dialect } from '../types';
import { assertPostgresRead, POSTGRES_READ_STATEMENTS } from './gate';

export const postgresDialect: Dialect = {
  id: 'postgres',
  label: 'PostgreSQL',
  quoteIdent,
  quoteLiteral,
  assertRead: assertPostgresRead,
  readStatements: POSTGRES_READ_STATEMENTS,
  limit: (rows, offset = 0) => ` LIMIT ${rows}${offset > 0 ? ` OFFSET ${offset}` : ''}`,
};
