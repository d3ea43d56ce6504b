import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pgSkipReason, usePgCluster } from '../src/test-support/pg-cluster';
import { runSql, startCluster } from './pg-cluster.mjs';

// Resolves with the socket error code, or 'connected'.
function probe(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve('connected')));
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(pgSkipReason)('a throw-away PostgreSQL cluster', () => {
  it('serves on loopback with a password, then stops and leaves nothing', async () => {
    const cluster = await startCluster();
    try {
      const [row] = await query(cluster.url, 'SELECT current_user, version()');
      expect(row.current_user).toBe('dowser_admin');
      expect(row.version).toMatch(/^PostgreSQL \d+/);
      expect((await query(cluster.url, 'SHOW listen_addresses'))[0].listen_addresses).toBe('127.0.0.1');

      const wrong = new URL(cluster.url);
      wrong.password = 'not-the-password';
      await expect(query(wrong.href, 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.dir)).toBe(false);
    expect(await probe(cluster.port)).toBe('ECONNREFUSED');
  }, 60_000);
});

describe.skipIf(pgSkipReason)('usePgCluster and runSql', () => {
  const cluster = usePgCluster();

  it('creates a database that pg can then use', async () => {
    await runSql(cluster.get(), 'CREATE DATABASE fixture_a; CREATE DATABASE fixture_b;');
    const names = await runSql(
      cluster.get(),
      "SELECT datname FROM pg_database WHERE datname LIKE 'fixture_%' ORDER BY 1",
    );
    expect(names.trim().split('\n')).toEqual(['fixture_a', 'fixture_b']);
    const url = new URL(cluster.get().url);
    url.pathname = '/fixture_a';
    expect((await query(url.href, 'SELECT current_database() AS db'))[0].db).toBe('fixture_a');
  });

  it('stops at the first failing statement', async () => {
    await expect(runSql(cluster.get(), 'SELECT 1/0; CREATE DATABASE never_made;')).rejects.toThrow(/division by zero/);
    expect(await runSql(cluster.get(), "SELECT count(*) FROM pg_database WHERE datname = 'never_made'")).toBe('0\n');
  });
});
