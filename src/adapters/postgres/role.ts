// What the role Dowser connected as could do, said on connect: Dowser only reads (every statement
// in a read-only transaction), but a role that could write or is a superuser is one mistake away
// from damage in any other tool, and a read-only role makes the database itself the guarantee.

import type { OpenIssue } from '../../core/types';
import type { ReadRunner } from './session';

export interface RoleFacts {
  user: string;
  version: string;
  superuser: boolean;
  /** Some table of the schemas read can be changed by this role (a privilege, or owning it). */
  canWrite: boolean;
  trigrams: boolean;
  sizeBytes: number;
}

export async function inspectRole(run: ReadRunner, schemas: readonly string[]): Promise<RoleFacts> {
  const [[user, version, superuser, canWrite, trigrams, size]] = await run.rows(
    `SELECT current_user, current_setting('server_version'),
            (SELECT rolsuper FROM pg_roles WHERE rolname = current_user),
            EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                     WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p')
                       AND has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')),
            EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'),
            pg_database_size(current_database())`,
    [schemas],
  );
  return {
    user: String(user),
    version: String(version),
    superuser: superuser === 'true',
    canWrite: canWrite === 'true',
    trigrams: trigrams === 'true',
    sizeBytes: Number(size),
  };
}

const HOW_TO = 'docs/how-to/postgres-read-only-role.md shows how to make a read-only role';

export function roleIssues(role: RoleFacts, target: string): OpenIssue[] {
  if (role.superuser)
    return [
      {
        level: 'warning',
        code: 'superuser',
        message: `${target}: the role ${role.user} is a superuser, who could change anything on this server. Dowser runs every statement read-only, but connect with a read-only role where you can (${HOW_TO}).`,
      },
    ];
  if (role.canWrite)
    return [
      {
        level: 'info',
        code: 'role_can_write',
        message: `${target}: the role ${role.user} may change some of these tables. Dowser runs every statement read-only; a read-only role makes the database itself refuse writes (${HOW_TO}).`,
      },
    ];
  return [];
}
