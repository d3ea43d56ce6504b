// A server database's indexes kept between runs (issue 36): reused while its tables are unchanged,
// built again after a write, a grant or a write during the build, and never shared between roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql } from '../../../scripts/pg-cluster.mjs';
import type { ToolboxSnapshot, ToolboxStore } from '../../core/tools/toolbox-snapshot';
import { pgSkipReason, usePgCluster } from '../../test-support/pg-cluster';
import { makeShop, READER } from '../../test-support/pg-fixtures';
import { xxhashContentHasher } from '../content-hash/xxhash';
import { readChangeState } from './change-state';
import { PostgresEngine } from './engine';
import type { ReadRunner } from './session';

/** A store in memory; `beforeGet` runs when a build looks for a snapshot (after the state was read). */
function memoryStore() {
  const kept = new Map<string, ToolboxSnapshot>();
  const hooks: { beforeGet?: () => Promise<void> } = {};
  const store: ToolboxStore = {
    async get(key) {
      await hooks.beforeGet?.();
      return kept.get(key) ?? null;
    },
    async put(s) {
      kept.set(s.key, s);
      return true;
    },
    async remove(key) {
      kept.delete(key);
    },
  };
  return { store, kept, hooks };
}

describe.skipIf(pgSkipReason)('kept indexes on a server', () => {
  const cluster = usePgCluster();
  let urls: { admin: string; reader: string };
  const { store, kept, hooks } = memoryStore();
  const engines: PostgresEngine[] = [];

  /** A run of the CLI: a new engine on the same store, the reader connected and its indexes built. */
  async function run(who: 'reader' | 'admin' = 'reader') {
    const engine = new PostgresEngine({ toolboxStore: store, contentHasher: xxhashContentHasher(), keepFromCells: 0 });
    engines.push(engine);
    const target =
      who === 'reader'
        ? { url: urls.reader, passwordEnv: 'PW', env: { PW: READER.password } }
        : { url: urls.admin, env: {} };
    await engine.connect({ id: 'db', target });
    const summary = await engine.buildTools('db');
    const state = await engine.finishKeeping('db');
    const search = async (query: string) => (await engine.callTool('db', 'search_value', { query })).observation;
    return { engine, summary, state, search };
  }

  /** Runs `sql` as the superuser and waits until the server's counters show a write. */
  async function write(sql: string) {
    const counted = () =>
      runSql(cluster.get(), 'SELECT sum(n_tup_ins + n_tup_upd + n_tup_del) FROM pg_stat_user_tables', 'shop');
    const before = await counted();
    await runSql(cluster.get(), sql, 'shop');
    for (let i = 0; i < 150 && (await counted()) === before; i++) await new Promise((r) => setTimeout(r, 100));
  }

  beforeAll(async () => {
    urls = await makeShop(cluster.get());
  }, 60_000);
  afterAll(() => Promise.all(engines.map((e) => e.closeAll())));

  it('keeps what a build made and gives it to the next run while the tables are unchanged', async () => {
    const first = await run();
    expect(first.summary.reused).toBe(false);
    expect(first.state).toBe('kept');
    expect(kept.size).toBe(1);
    const second = await run();
    expect(second.summary.reused).toBe(true);
    expect(second.state).toBe('reused');
    expect(await second.search('Oslo')).toBe(await first.search('Oslo'));
    expect(await second.search('Customer 17')).toContain('Customer 17');
  });

  it('builds again after a write, and the new value is found', async () => {
    await write(`INSERT INTO customers (name, "City Name") VALUES ('Quokka Zanzibar', 'Reykjavik')`);
    const after = await run();
    expect(after.summary.reused).toBe(false);
    expect(after.state).toBe('kept');
    expect(await after.search('Reykjavik')).toContain('"Reykjavik"');
    expect((await run()).summary.reused).toBe(true);
  });

  it('builds again when what the role may read changes, though no row did', async () => {
    await runSql(cluster.get(), `REVOKE SELECT ON secret FROM ${READER.user}`, 'shop');
    const revoked = await run();
    expect(revoked.summary.reused).toBe(false);
    await runSql(cluster.get(), `GRANT SELECT ON secret TO ${READER.user}`, 'shop');
    expect((await run()).summary.reused).toBe(false);
  });

  it('keeps nothing when a table was written while the build read it', async () => {
    await write(`UPDATE customers SET joined = joined + 1 WHERE id = 1`); // a state with no snapshot yet
    hooks.beforeGet = async () => {
      hooks.beforeGet = undefined;
      await write(`UPDATE customers SET name = 'Quokka Zanzibar II' WHERE name = 'Quokka Zanzibar'`);
    };
    const during = await run();
    expect(during.summary.reused).toBe(false);
    expect(during.state).toBe('not-kept');
    expect((await run()).summary.reused).toBe(false);
  });

  it("never gives one role's indexes to another", async () => {
    const keys = kept.size;
    const admin = await run('admin');
    expect(admin.summary.reused).toBe(false);
    expect(kept.size).toBe(keys + 1);
  });
});

/** A runner that answers the first statement of readChangeState with `first`, the rest with no rows. */
function fakeRunner(first: unknown[]): ReadRunner {
  let n = 0;
  return {
    rows: async () => (n++ === 0 ? [first as never] : [[null]]),
    cursor: () => Promise.reject(new Error('not used')),
    stream: () => Promise.reject(new Error('not used')),
  };
}

describe('change state where the counters cannot tell', () => {
  const row = (o: { tracking?: string; foreign?: number; foreignRead?: number; views?: number }) => [
    o.tracking ?? 'on',
    'false',
    null,
    'reader',
    '16384',
    null,
    o.foreign ?? 0,
    o.foreignRead ?? 0,
    o.views ?? 0,
  ];
  it('keeps nothing with track_counts off, a foreign table read, or a view beside a foreign table', async () => {
    const why = async (r: unknown[]) => {
      const s = await readChangeState(fakeRunner(r), ['public']);
      return s.counted ? 'counted' : s.why;
    };
    expect(await why(row({ tracking: 'off' }))).toMatch(/track_counts/);
    expect(await why(row({ foreign: 1, foreignRead: 1 }))).toMatch(/foreign table/);
    expect(await why(row({ foreign: 1, views: 2 }))).toMatch(/view may read a foreign table/);
    expect(await why(row({ foreign: 1 }))).toBe('counted');
    expect(await why(row({}))).toBe('counted');
  });
});
