// @vitest-environment jsdom
// Importing description CSVs (issue item 11): files over the limit are refused by their size
// without being read, the others parsed by the parse worker's service against the table names.

import { describe, expect, it, vi } from 'vitest';
import type { ImportPlan } from '../../core/descriptions/import';
import { schemaOf } from '../../test-support/schema-of';
import { unreadFile } from '../../test-support/unread-file';
import type { FileParsers } from '../../worker/parse-client';
import type { PageEngine } from '../services/types';
import { bindServices } from '../services/current';
import { useApp } from '../store/app-store';
import { fakeServices } from '../test-support/render';
import { importDescriptionFiles } from './descriptions';

describe('importDescriptionFiles', () => {
  it('refuses a file over 10 MB by its size and hands the rest to the parse service', async () => {
    const plan: ImportPlan = { tables: [], skipped: [], unknownColumns: [], describedColumns: 0 };
    const descriptionPlan = vi.fn<FileParsers['descriptionPlan']>(async () => plan);
    const engine = {
      introspect: async () => schemaOf({ pets: ['id integer pk', 'species'] }),
    } as unknown as PageEngine;
    bindServices(
      fakeServices({
        engine,
        parseFiles: {
          runFile: () => Promise.reject(new Error('not this one')),
          examplesFile: () => Promise.reject(new Error('not this one')),
          questionFile: () => Promise.reject(new Error('not this one')),
          descriptionPlan,
          tablePreview: () => Promise.reject(new Error('not this one')),
        },
      }),
    );
    useApp.setState({ notices: [] });
    const { file: big, reads } = unreadFile('owners.csv', 10_200_000);
    const small = new File(['original_column_name\nspecies\n'], 'pets.csv');
    await importDescriptionFiles('db-descriptions', [big, small]);
    expect(reads).toEqual([]);
    expect(descriptionPlan).toHaveBeenCalledWith(
      { tables: [{ name: 'pets', columns: [{ name: 'id' }, { name: 'species' }] }] },
      [small],
    );
    expect(useApp.getState().notices.at(-1)?.message).toContain(
      'owners.csv (10.2 MB, more than the 10 MB a description file may have)',
    );
  });
});
