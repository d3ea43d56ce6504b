// What tells that a server database's kept indexes are still its own (issue 36): a file has bytes
// to take a checksum of, a server has none we could read in time, so its "content" is its change
// state written out as text — every user table's write counters and storage (pg_stat_user_tables'
// inserted, updated and deleted rows, which count every write, committed or not, and pg_class's
// relfilenode, which TRUNCATE, VACUUM FULL and rewriting ALTERs change), when the counters were
// last reset, the database's oid (a database dropped and made again), the columns read, and what
// the role may see (table and column grants, row-level security and its policies, the roles it
// has): a change to any of them makes another state, and the index is built again.
//
// Counters reach pg_stat a little after a write commits, never before, so a late counter only
// makes a state that is later found changed: an index is rebuilt for nothing, never reused for
// data it does not hold. Where the counters do not count, nothing is kept: with track_counts off,
// and on a standby (replayed writes are not counted there) unless nothing was replayed since —
// its replay position is part of the state; a foreign table (its rows live elsewhere) in the
// schemas read, or one anywhere when a view is read (it may read one).

import type { ReadRunner } from './session';

export type ChangeState = { counted: true; text: string } | { counted: false; why: string };

/** One read of the database's change state, in the caller's read transaction. */
export async function readChangeState(run: ReadRunner, schemas: readonly string[]): Promise<ChangeState> {
  const [[tracking, standby, replayed, role, database, reset, foreign, foreignRead, viewsRead]] = await run.rows(
    `SELECT current_setting('track_counts'), pg_is_in_recovery(),
            CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END,
            current_user::text,
            (SELECT oid::text FROM pg_database WHERE datname = current_database()),
            (SELECT stats_reset::text FROM pg_stat_database WHERE datname = current_database()),
            (SELECT count(*) FROM pg_foreign_table),
            (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relkind = 'f' AND n.nspname = ANY($1::text[])),
            (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relkind IN ('v', 'm') AND n.nspname = ANY($1::text[]))`,
    [schemas],
  );
  if (tracking !== 'on') return { counted: false, why: 'the server does not count writes (track_counts is off)' };
  if (Number(foreignRead) > 0) return { counted: false, why: 'a foreign table’s rows live on another server' };
  if (Number(foreign) > 0 && Number(viewsRead) > 0)
    return { counted: false, why: 'a view may read a foreign table, whose rows live on another server' };
  const tables = await run.rows(
    `SELECT s.relid::text, c.relfilenode::text, s.n_tup_ins::text, s.n_tup_upd::text, s.n_tup_del::text
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE s.schemaname NOT LIKE 'pg\\_temp\\_%' AND s.schemaname NOT LIKE 'pg\\_toast\\_temp\\_%'
      ORDER BY s.relid`,
  );
  const read = await run.rows(
    `SELECT c.oid::text, n.nspname, c.relname, c.relkind::text, c.relacl::text, c.relrowsecurity, c.relforcerowsecurity,
            (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || coalesce(a.attacl::text, ''),
                               ', ' ORDER BY a.attnum)
               FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
            CASE WHEN c.relkind IN ('v', 'm') THEN md5(pg_get_viewdef(c.oid)) END
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p', 'v', 'm')
      ORDER BY c.oid`,
    [schemas],
  );
  const policies = await run.rows(
    `SELECT polrelid::text, polname, polcmd::text, polpermissive, polroles::text,
            pg_get_expr(polqual, polrelid), pg_get_expr(polwithcheck, polrelid)
       FROM pg_policy ORDER BY polrelid, polname`,
  );
  const [[roles]] = await run.rows(
    `SELECT string_agg(oid::text, ',' ORDER BY oid) FROM pg_roles WHERE pg_has_role(current_user, oid, 'USAGE')`,
  );
  const lines = [
    `role ${role} of ${roles}; database ${database}; counters reset ${reset ?? 'never'}`,
    ...(standby === 'true' ? [`standby replayed to ${replayed}`] : []),
    `schemas ${schemas.join(', ')}`,
    ...tables.map((r) => `counts ${r.join(' ')}`),
    ...read.map((r) => `reads ${r.map(String).join(' | ')}`),
    ...policies.map((r) => `policy ${r.map(String).join(' | ')}`),
  ];
  return { counted: true, text: lines.join('\n') };
}
