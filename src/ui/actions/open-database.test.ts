// @vitest-environment jsdom
// A database picked or dropped with its -journal or -wal (issue: a hot journal was silently
// ignored): the page cannot see files beside the one it is given, so the ones given together are
// sent with it, and a sidecar alone is explained.

import { describe, expect, it } from 'vitest';
import type { OpenRequest } from '../../core/engine';
import type { PageEngine } from '../services/types';
import { bindServices } from '../services/current';
import { useApp } from '../store/app-store';
import { fakeServices } from '../test-support/render';
import { openFiles } from './open-database';

/** Opens `files` with an engine that keeps each request and refuses it (nothing else is needed). */
async function requestsFor(files: File[]): Promise<OpenRequest[]> {
  const requests: OpenRequest[] = [];
  const engine = {
    open: async (request: OpenRequest) => {
      requests.push(request);
      throw new Error('not opened in this test');
    },
  } as unknown as PageEngine;
  bindServices(fakeServices({ engine }));
  useApp.setState({ notices: [] });
  await openFiles(files);
  return requests;
}

const file = (name: string) => new File([new Uint8Array(8)], name);

describe('openFiles', () => {
  it('sends the -journal and -wal picked with a database along with it', async () => {
    const [db, journal, wal, shm] = ['shop.db', 'shop.db-journal', 'SHOP.DB-wal', 'shop.db-shm'].map(file);
    const requests = await requestsFor([journal, db, wal, shm]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ name: 'shop.db' });
    expect(requests[0].bytes).toBe(db);
    expect(requests[0].journal).toBe(journal);
    expect(requests[0].wal).toBe(wal);
    expect(useApp.getState().notices.filter((n) => /sidecar/.test(n.message))).toEqual([]);
  });

  it('says that a sidecar alone is read with its database, and opens nothing for it', async () => {
    const requests = await requestsFor([file('x.sqlite-wal')]);
    expect(requests).toEqual([]);
    expect(useApp.getState().notices.at(-1)).toMatchObject({
      level: 'info',
      message: expect.stringContaining('Pick or drop "x.sqlite" and "x.sqlite-wal" together'),
    });
  });
});
