import 'fake-indexeddb/auto';
import { createStore, type UseStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { emptyGlossary, withImportedTable, withNote } from '../../core/descriptions/glossary';
import { createGlossaryStore } from './glossary-store';

let n = 0;
const freshStore = (): UseStore => createStore(`dowser-glossary-test-${++n}`, 'glossaries');

describe('glossary store', () => {
  it('keeps notes and imported descriptions per database name', async () => {
    const store = freshStore();
    const g = withNote(
      withImportedTable(emptyGlossary(), 'pets', [
        ['species', { expandedName: '', description: 'kind of animal', dataFormat: 'text', valueDescription: '' }],
      ]),
      'people',
      'city',
      'home town',
    );
    expect(await createGlossaryStore(store).save('tiny.sqlite', g)).toBeNull();
    // A new page (a new store object over the same database) finds it again.
    const again = createGlossaryStore(store);
    expect(await again.load('tiny.sqlite')).toEqual({ glossary: g, problem: null });
    expect(await again.load('other.sqlite')).toEqual({ glossary: emptyGlossary(), problem: null });
  });

  it('turns a full quota into a message, and an unreadable store into an empty glossary with a message', async () => {
    const store = freshStore();
    const failing: UseStore = (mode) =>
      store(mode, () => {
        throw new DOMException('quota', 'QuotaExceededError');
      });
    const glossary = createGlossaryStore(failing);
    expect(await glossary.save('big.sqlite', emptyGlossary())).toMatch(
      /could not be saved on this device \(not enough browser storage\); they last for this session only/,
    );
    const loaded = await glossary.load('big.sqlite');
    expect(loaded.glossary).toEqual(emptyGlossary());
    expect(loaded.problem).toMatch(/could not be read/);
  });
});
