// Databases built to hurt (issue 11): generated at test time rather than committed, as some are
// large. Plain sql.js, no engine involved.

import initSqlJs from 'sql.js';

async function build(fill: (run: (sql: string) => void) => void): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run('BEGIN');
  fill((sql) => db.run(sql));
  db.run('COMMIT');
  const bytes = db.export();
  db.close();
  return bytes;
}

/** `count` tables t0…, each with three columns and a foreign key to the one before. */
export function manyTablesDb(count: number): Promise<Uint8Array> {
  return build((run) => {
    for (let i = 0; i < count; i++)
      run(
        `CREATE TABLE t${i} (id INTEGER PRIMARY KEY, name TEXT, parent INTEGER REFERENCES t${Math.max(0, i - 1)}(id))`,
      );
  });
}

/** v0 reads a two-row table, each v(n) reads v(n-1): a view's columns cost compiling all below it. */
export function nestedViewsDb(count: number): Promise<Uint8Array> {
  return build((run) => {
    run('CREATE TABLE base (x)');
    run('INSERT INTO base VALUES (1), (2)');
    run('CREATE VIEW v0 AS SELECT x FROM base');
    for (let i = 1; i < count; i++) run(`CREATE VIEW v${i} AS SELECT x FROM v${i - 1}`);
  });
}

/** Table t (id, body): row 1 holds a text of `chars` characters, row 2 a short one. */
export function hugeCellDb(chars: number): Promise<Uint8Array> {
  return build((run) => {
    run('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
    run(`INSERT INTO t VALUES (1, printf('%.*c', ${chars}, 'x')), (2, 'short')`);
  });
}
