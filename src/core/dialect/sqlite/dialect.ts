// SQLite as a dialect: the functions the code used before the port existed, unchanged.

import { quoteIdent, quoteLiteral } from '../../sql/quote';
import { assertSingleReadStatement } from '../../sql/statements';
import type { Dialect } from '../types';

export const sqliteDialect: Dialect = {
  id: 'sqlite',
  label: 'SQLite',
  quoteIdent,
  quoteLiteral,
  assertRead: assertSingleReadStatement,
  readStatements: 'SELECT, WITH … SELECT, VALUES, EXPLAIN and read-only PRAGMA',
  limit: (rows, offset = 0) => ` LIMIT ${rows}${offset > 0 ? ` OFFSET ${offset}` : ''}`,
};
