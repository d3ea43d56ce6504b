// Types of pg-cluster.mjs, for the PostgreSQL tests written in TypeScript.

export interface Cluster {
  /** postgresql://dowser_admin:<password>@127.0.0.1:<port>/postgres */
  url: string;
  host: '127.0.0.1';
  port: number;
  /** The superuser, dowser_admin. */
  user: string;
  password: string;
  /** The cluster's folder: data, log and socket; removed by stop(). */
  dir: string;
  socketDir: string;
  /** The PostgreSQL bin folder in use. */
  bin: string;
  stop(): Promise<void>;
}

/** The PostgreSQL bin folder holding initdb, or null when PostgreSQL is not installed. */
export function findPgBin(): string | null;
/** Throws "PostgreSQL not found: run scripts/ensure-postgres.sh" when the binaries are missing. */
export function startCluster(options?: { dir?: string; stopOnExit?: boolean }): Promise<Cluster>;
export function stopClusterSync(dir: string, bin?: string | null): void;
/** The superuser's URL of another database of the cluster. */
export function databaseUrl(cluster: Cluster, database: string): string;
/** psql output, unaligned and without headers (-A -t). */
export function runSql(cluster: Cluster, sql: string, database?: string): Promise<string>;
