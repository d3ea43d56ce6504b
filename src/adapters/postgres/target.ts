// Which PostgreSQL server and database to connect to, and the password, kept apart from every
// text that is shown. A target comes from a `postgres://` URL or libpq's variables (PGHOST,
// PGPORT, PGDATABASE, PGUSER, PGSSLMODE, as pg reads them). The password comes from the URL, the
// variable `--password-env` names, PGPASSWORD, or ~/.pgpass (PGPASSFILE), in that order, and is
// handed to pg only when the server asks for one. It is never printed, logged or written: what
// people see is `describeTarget` (user@host:port/database), and `redactUrl` for a URL they typed.

import pgpass from 'pgpass';
import type { ClientConfig } from 'pg';
import { DowserError } from '../../core/errors';

export interface ServerTarget {
  /** The URL as given (may hold a password: never shown; see redactUrl). */
  url?: string;
  /** A variable holding the password (`--password-env NAME`). */
  passwordEnv?: string;
  /** Schemas to read, in search-path order; default: the role's search path. */
  schemas?: string[];
  /** The environment libpq's variables are read from (process.env in the CLI). */
  env: Record<string, string | undefined>;
}

export const SERVER_URL = /^postgres(ql)?:\/\//i;

/** True when `--db` names a server rather than a file. */
export function isServerUrl(db: string): boolean {
  return SERVER_URL.test(db);
}

interface Parts {
  user?: string;
  password?: string;
  host?: string;
  port?: string;
  database?: string;
  params: URLSearchParams;
}

function parseUrl(url: string): Parts {
  // `postgres://` alone: everything from libpq's variables.
  if (url.replace(SERVER_URL, '') === '') return { params: new URLSearchParams() };
  let u: URL;
  // postgres:///db (no host: libpq's variables or its default say which).
  const noHost = /^postgres(ql)?:\/\/\//i.test(url);
  try {
    // URL does not know the postgres: scheme's hosts; parsed as http it splits the same way.
    u = new URL(noHost ? url.replace(SERVER_URL, 'http://no-host') : url.replace(SERVER_URL, 'http://'));
  } catch {
    throw new DowserError('open_failed', `This is not a PostgreSQL URL: ${redactUrl(url)}`);
  }
  const decode = (s: string) => (s ? decodeURIComponent(s) : undefined);
  return {
    user: decode(u.username),
    password: decode(u.password),
    host:
      u.hostname && !noHost
        ? decodeURIComponent(u.hostname.replace(/^\[|\]$/g, ''))
        : u.searchParams.get('host') || undefined,
    port: u.port || undefined,
    database: decode(u.pathname.replace(/^\//, '')),
    params: u.searchParams,
  };
}

/** The URL with its password replaced, for messages about it. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/?#]*):[^@/?#]*@/i, '$1:[redacted]@');
}

/** True when the URL itself carries a password (visible in the process list and shell history). */
export function urlHasPassword(url: string): boolean {
  return redactUrl(url) !== url;
}

/** Host, port, database and user as pg would resolve them (URL first, then libpq's variables). */
export function resolvedTarget(target: ServerTarget): { host: string; port: number; database: string; user: string } {
  const p = target.url ? parseUrl(target.url) : { params: new URLSearchParams() };
  const env = target.env;
  const user = p.user ?? env.PGUSER ?? env.USER ?? 'postgres';
  return {
    host: p.host ?? env.PGHOST ?? 'localhost',
    port: Number(p.port ?? env.PGPORT ?? 5432),
    database: p.database ?? env.PGDATABASE ?? user,
    user,
  };
}

/** `user@host:port/database`: how a server database is named wherever it is shown. */
export function describeTarget(target: ServerTarget): string {
  const t = resolvedTarget(target);
  return `${t.user}@${t.host}:${t.port}/${t.database}`;
}

/** pg's connection settings for a target; the password is looked up only when the server asks. */
export function clientConfig(target: ServerTarget): ClientConfig {
  const t = resolvedTarget(target);
  const parts = target.url ? parseUrl(target.url) : null;
  const sslmode = parts?.params.get('sslmode') ?? target.env.PGSSLMODE;
  return {
    host: t.host,
    port: t.port,
    database: t.database,
    user: t.user,
    password: parts?.password ?? (() => passwordFor(target, t)),
    ssl: sslFor(sslmode),
    application_name: 'dowser',
    connectionTimeoutMillis: 15_000,
  };
}

/** libpq's sslmode as pg's `ssl`: disable and allow/prefer connect in the clear (pg cannot fall back). */
function sslFor(mode: string | null | undefined): ClientConfig['ssl'] {
  switch (mode ?? 'prefer') {
    case 'disable':
    case 'allow':
    case 'prefer':
      return false;
    case 'require':
      return { rejectUnauthorized: false };
    case 'verify-ca':
    case 'verify-full':
      return { rejectUnauthorized: true };
    default:
      throw new DowserError(
        'open_failed',
        `sslmode must be disable, allow, prefer, require, verify-ca or verify-full, not "${mode}"`,
      );
  }
}

async function passwordFor(
  target: ServerTarget,
  t: { host: string; port: number; database: string; user: string },
): Promise<string> {
  if (target.passwordEnv) {
    const value = target.env[target.passwordEnv];
    if (value === undefined)
      throw new DowserError('open_failed', `The server asks for a password, and ${target.passwordEnv} is not set.`);
    return value;
  }
  if (target.env.PGPASSWORD !== undefined) return target.env.PGPASSWORD;
  const fromFile = await new Promise<string | undefined>((resolve) => pgpass({ ...t }, resolve));
  if (fromFile !== undefined) return fromFile;
  throw new DowserError(
    'open_failed',
    `The server asks for a password for ${t.user}: set PGPASSWORD, add a line to ~/.pgpass, or name a variable that holds it with --password-env.`,
  );
}
