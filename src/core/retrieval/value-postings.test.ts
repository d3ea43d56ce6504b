import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { PostingsBuilder, type Postings } from './value-postings';
import { mulberry32 } from '../random';
import { normalizeValue } from './value-text';
import { hashRange, Vocabulary } from './value-vocab';

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

function build(texts: string[]): { postings: Postings; vocab: Vocabulary } {
  const vocab = new Vocabulary();
  const builder = new PostingsBuilder();
  for (const t of texts) {
    builder.addDocument(vocab.terms, vocab.tokenize(t));
  }
  return { postings: builder.finish(vocab.size), vocab };
}

describe('PostingsBuilder and Postings', () => {
  it('scores like MiniSearch (BM25+, times the number of query words matched)', () => {
    const { postings, vocab } = build(docs);
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
        words.map((w, i) => ({ term: vocab.termId(w)!, weight: 1, source: i })),
        10,
      );
      const theirs = mini.search(query);
      expect(ours.map((h) => h.doc)).toEqual(theirs.map((r) => r.id));
      ours.forEach((h, i) => expect(h.score).toBeCloseTo(theirs[i].score, 9));
    }
  });

  it('counts values per word, keeps the best `limit`, filters, and resets between searches', () => {
    const { postings, vocab } = build([...docs, '']);
    expect(postings.documentCount).toBe(9);
    expect(postings.frequency(vocab.termId('new'))).toBe(3);
    expect(postings.frequency(vocab.termId('nowhere'))).toBe(0);
    const york = [{ term: vocab.termId('york')!, weight: 1, source: 0 }];
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

  it("adds each term's best documents on that term alone when asked, so one term is not crowded out", () => {
    // 40 one-word names share the rare neighbours; the sentence holding the common word would
    // never make the top 5 of the sum.
    const texts = [
      ...Array.from({ length: 40 }, (_, i) => ['pakel', 'panel', 'padel', 'pamel'][i % 4]),
      'where is my parcel',
      ...Array.from({ length: 60 }, (_, i) => `parcel number ${i} was left at the door of the house`),
    ];
    const { postings, vocab } = build(texts);
    const terms = ['pakel', 'panel', 'padel', 'pamel', 'parcel'].map((w) => ({
      term: vocab.termId(w)!,
      weight: 0.6,
      source: 0,
    }));
    expect(postings.search(terms, 5).map((h) => h.doc)).not.toContain(40);
    const withQuota = postings.search(terms, 5, undefined, 2);
    expect(withQuota.slice(0, 5)).toEqual(postings.search(terms, 5));
    expect(withQuota.map((h) => h.doc)).toContain(40);
    expect(withQuota.length).toBeLessThanOrEqual(5 + 5 * 2);
    expect(new Set(withQuota.map((h) => h.doc)).size).toBe(withQuota.length);
  });

  it('lists each document once per term, for short values and long texts with repeated words', () => {
    const rnd = mulberry32(3);
    const builder = new PostingsBuilder();
    const expected = new Map<number, number[]>();
    const lengths: number[] = [];
    for (let doc = 0; doc < 3000; doc++) {
      // Mostly a few terms; some texts of hundreds, past the builder's first scratch size.
      const n = rnd() < 0.6 ? Math.floor(rnd() * 9) : Math.floor(rnd() * (doc % 100 === 0 ? 700 : 60));
      const terms = Array.from({ length: n }, () => (rnd() < 0.5 ? Math.floor(rnd() * 20) : Math.floor(rnd() * 5000)));
      builder.addDocument(terms);
      const distinct = [...new Set(terms)];
      lengths.push(distinct.length);
      for (const t of distinct) expected.set(t, [...(expected.get(t) ?? []), doc]);
    }
    const postings = builder.finish(5000);
    expect(Array.from(postings.toData().docLength)).toEqual(lengths);
    for (let t = 0; t < 5000; t++) {
      const docs: number[] = [];
      postings.forEachDoc(t, (d) => void docs.push(d));
      expect(docs, `term ${t}`).toEqual(expected.get(t) ?? []);
      expect(postings.frequency(t)).toBe(docs.length);
    }
  });

  it('keeps long posting lists whole across slices and large document ids', () => {
    const texts = Array.from({ length: 30_000 }, (_, i) => (i % 3 === 0 ? `common w${i % 7} rare${i}` : `common x`));
    const { postings, vocab } = build(texts);
    const seen: number[] = [];
    postings.forEachDoc(vocab.termId('common')!, (d) => void seen.push(d));
    expect(seen).toHaveLength(30_000);
    expect(seen.every((d, i) => d === i)).toBe(true);
    const rare: number[] = [];
    postings.forEachDoc(vocab.termId('rare29997')!, (d) => void rare.push(d));
    expect(rare).toEqual([29_997]);
    expect(postings.frequency(vocab.termId('x'))).toBe(20_000);
  });
});

describe('Vocabulary', () => {
  it('cuts text as normalizeValue does and keeps codes in buckets, not as words', () => {
    const vocab = new Vocabulary();
    const count = vocab.tokenize('Café de l’Ouest, SO-2019-0012345');
    expect(count).toBe(7);
    const seen = [...vocab.terms.subarray(0, count)];
    expect(vocab.words.filter((w) => w !== '')).toEqual(['cafe', 'de', 'l', 'ouest', 'so']);
    expect(vocab.termId('2019')).toBe(seen[5]);
    expect(vocab.termId('0012345')).toBe(seen[6]);
    expect(vocab.isWord(seen[6])).toBe(false);
    expect(vocab.wordId('ouest')).toBe(seen[3]);
    expect(vocab.termId('nowhere')).toBeUndefined();
  });

  it('gives a word one id in any case, and a text beyond ASCII the same words as normalizeValue', () => {
    const vocab = new Vocabulary();
    const texts = ['PARIS Texas', 'paris texas', 'Señor PARÍS, texas', 'a São Paulo', 'x'.repeat(300)];
    for (const t of texts) {
      const count = vocab.tokenize(t);
      const words = normalizeValue(t).split(' ');
      expect(count).toBe(words.length);
      expect([...vocab.terms.subarray(0, count)]).toEqual(words.map((w) => vocab.wordId(w)));
      expect(vocab.lastNormHash).toBe(hashRange(normalizeValue(t), 0, normalizeValue(t).length));
    }
    expect(vocab.wordId('Paris')).toBe(vocab.wordId('paris'));
    expect(vocab.words.filter((w) => w === 'paris')).toHaveLength(1);
    expect(vocab.wordId('pari')).toBeUndefined();
  });
});
