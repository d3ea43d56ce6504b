import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { WordPostings } from './value-postings';

const docs = [
  'paris',
  'paris texas',
  'new york',
  'new york new york',
  'york',
  'new delhi',
  'texas road house',
  'paris hilton',
];

describe('WordPostings', () => {
  it('scores like MiniSearch (BM25+, times the number of query words matched)', () => {
    const postings = new WordPostings(docs);
    const mini = new MiniSearch<number>({
      fields: ['v'],
      idField: 'id',
      extractField: (d, f) => (f === 'id' ? d : docs[d]),
      tokenize: (t) => t.split(' '),
      processTerm: (t) => t || null,
    });
    docs.forEach((_, i) => mini.add(i));
    for (const query of ['paris', 'new york', 'paris texas', 'york delhi house']) {
      const words = query.split(' ');
      const ours = postings.search(
        words.map((w, i) => ({ word: postings.idOf(w)!, weight: 1, source: i })),
        10,
      );
      const theirs = mini.search(query);
      expect(ours.map((h) => h.doc)).toEqual(theirs.map((r) => r.id));
      ours.forEach((h, i) => expect(h.score).toBeCloseTo(theirs[i].score, 9));
    }
  });

  it('counts values per word, keeps the best `limit`, filters, and resets between searches', () => {
    const postings = new WordPostings([...docs, '']);
    expect(postings.documentCount).toBe(9);
    expect(postings.frequency('new')).toBe(3);
    expect(postings.frequency('nowhere')).toBe(0);
    const york = [{ word: postings.idOf('york')!, weight: 1, source: 0 }];
    expect(postings.search(york, 2)).toHaveLength(2);
    expect(
      postings
        .search(york, 10, (d) => d !== 4)
        .map((h) => h.doc)
        .sort(),
    ).toEqual([2, 3]);
    expect(
      postings
        .search(york, 10)
        .map((h) => h.doc)
        .sort(),
    ).toEqual([2, 3, 4]);
  });
});
