import 'fake-indexeddb/auto';
import { createStore, type UseStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { createRecentFiles } from './recent-files';

let n = 0;
const freshStore = (): UseStore => createStore(`dowser-test-${++n}`, 'files');

describe('recent files', () => {
  it('remembers names, newest first, and stores bytes only when asked', async () => {
    const recent = createRecentFiles(freshStore());
    expect(await recent.remember('a.sqlite', new Uint8Array([1, 2, 3]), false)).toBeNull();
    expect(await recent.remember('b.sqlite', new Uint8Array([4, 5]), true)).toBeNull();
    const list = await recent.list();
    expect(list.map((f) => [f.name, f.sizeBytes, f.stored])).toEqual([
      ['b.sqlite', 2, true],
      ['a.sqlite', 3, false],
    ]);
    expect(await recent.load('a.sqlite')).toBeNull();
    expect([...((await recent.load('b.sqlite')) as Uint8Array)]).toEqual([4, 5]);
  });

  it('moves a reopened file to the top and keeps one entry per name', async () => {
    const recent = createRecentFiles(freshStore());
    await recent.remember('a.sqlite', new Uint8Array(1), false);
    await recent.remember('b.sqlite', new Uint8Array(1), false);
    await recent.remember('a.sqlite', new Uint8Array(1), false);
    expect((await recent.list()).map((f) => f.name)).toEqual(['a.sqlite', 'b.sqlite']);
  });

  it('forgets a file and its stored bytes', async () => {
    const recent = createRecentFiles(freshStore());
    await recent.remember('a.sqlite', new Uint8Array([9]), true);
    await recent.forget('a.sqlite');
    expect(await recent.list()).toEqual([]);
    expect(await recent.load('a.sqlite')).toBeNull();
  });

  it('reports a full quota in plain words and still remembers the name', async () => {
    const store = freshStore();
    // A store whose writes of file bytes fail like a browser over its quota.
    const quotaStore: UseStore = (mode, callback) =>
      store(mode, (s) => {
        if (mode === 'readwrite') {
          const put = s.put.bind(s);
          s.put = ((value: unknown, key?: IDBValidKey) => {
            if (typeof key === 'string' && key.startsWith('file:'))
              throw new DOMException('quota', 'QuotaExceededError');
            return put(value, key);
          }) as typeof s.put;
        }
        return callback(s);
      });
    const recent = createRecentFiles(quotaStore);
    const problem = await recent.remember('big.sqlite', new Uint8Array(10), true);
    expect(problem).toMatch(/Not enough browser storage to keep "big\.sqlite"/);
    expect((await recent.list()).map((f) => [f.name, f.stored])).toEqual([['big.sqlite', false]]);
  });
});
