// A throw-away PostgreSQL cluster for a Vitest file (scripts/pg-cluster.mjs), shared by its suites.
//
//   describe.skipIf(pgSkipReason)('something on PostgreSQL', () => {
//     const pg = usePgCluster();
//     it('…', async () => { const client = new pg.Client(pg.get().url); … });
//   });
//
// Without PostgreSQL the suites skip locally (with a note saying how to install it), but on CI
// (CI=true) they run and fail: CI must exercise them for real.

import { afterAll, beforeAll } from 'vitest';
import { findPgBin, startCluster, type Cluster } from '../../scripts/pg-cluster.mjs';

export type { Cluster };
export { databaseUrl } from '../../scripts/pg-cluster.mjs';

const missing = findPgBin() === null;
/** Why PostgreSQL suites skip here, or null when they run. */
export const pgSkipReason: string | null =
  missing && process.env.CI !== 'true'
    ? 'PostgreSQL not installed: `bash scripts/ensure-postgres.sh` installs it (tests skipped)'
    : null;
if (pgSkipReason) console.warn(pgSkipReason);

// Vitest gives each test file its own module instance, so this is one cluster per file.
let shared: Promise<Cluster> | null = null;
let users = 0;

/** Starts the file's cluster before the surrounding suite (if not yet running) and stops it after the last one. */
export function usePgCluster(): { get(): Cluster } {
  let cluster: Cluster | null = null;
  beforeAll(async () => {
    users++;
    shared ??= startCluster();
    cluster = await shared;
  }, 60_000);
  afterAll(async () => {
    if (--users > 0 || !shared) return;
    const starting = shared;
    shared = null;
    await (await starting.catch(() => null))?.stop();
  }, 60_000);
  return {
    get() {
      if (!cluster) throw new Error('the PostgreSQL cluster is not running (usePgCluster() outside a describe?)');
      return cluster;
    },
  };
}
