import { describe, expect, it } from 'vitest';
import { QUICK_CHECK_SKIPPED } from '../../core/db/file-check';
import { executorFor } from '../../core/executor';
import { reportText } from '../../core/format/schema-text';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { healthCheck } from './health-check';
import { createNodeEngine } from './node';

describe('healthCheck', () => {
  it('runs quick_check, or leaves it out for a very large file read in place and says how to run it', async () => {
    const engine = await createNodeEngine();
    const report = await engine.open({ id: 's', name: 'shop.sqlite', bytes: await buildDb(SHOP_SQL) });
    const exec = executorFor(engine, 's');
    expect((await healthCheck(exec)).quickCheck).toEqual(['ok']);
    const skipped = await healthCheck(exec, { integrity: false });
    expect(skipped.quickCheck).toEqual([QUICK_CHECK_SKIPPED]);
    expect(skipped.issues.map((i) => [i.level, i.code])).toEqual([['info', 'integrity_not_checked']]);
    expect(skipped.issues[0].message).toContain('PRAGMA quick_check');
    expect(reportText({ ...report, quickCheck: skipped.quickCheck })).toContain('integrity not checked (large file)');
  });
});
