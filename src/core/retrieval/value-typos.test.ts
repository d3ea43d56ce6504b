import { mulberry32 } from '../random';
import { osaDistance } from '../text/edit-distance';
import { describe, expect, it } from 'vitest';
import { maxEdits, TypoNeighbours } from './value-typos';

const words = [
  'paris',
  'pairs',
  'john',
  'johan',
  'smith',
  'book',
  'boot',
  'cat',
  'oslo',
  'x2020',
  'ab',
  '',
  'wickmorar',
  'fenhaven',
  'belmarford',
];
const typos = new TypoNeighbours(words);
const near = (w: string) => typos.near(w).map((n) => n.word);

describe('TypoNeighbours', () => {
  it('finds words one substitution, insertion, deletion or swap away', () => {
    expect(near('jhon')).toContain('john'); // swap
    expect(near('smiht')).toEqual(['smith']); // swap at the end
    expect(near('smyth')).toEqual(['smith']); // substitution
    expect(near('smitth')).toEqual(['smith']); // insertion
    expect(near('smih')).toEqual(['smith']); // deletion
    expect(near('catt')).toEqual(['cat']); // insertion into a 3-letter word
    expect(near('paris')).toEqual(['pairs']);
    expect(near('bookk')).toEqual(['book']);
    expect(near('zmith')).toEqual(['smith']); // the first letter too
  });

  it('finds words two edits away in words of 7+ letters, anywhere in the word, closest first', () => {
    expect(maxEdits(6)).toBe(1);
    expect(maxEdits(7)).toBe(2);
    expect(near('gwickomrar')).toEqual(['wickmorar']); // an extra first letter and a swap
    expect(near('fnehavaen')).toEqual(['fenhaven']);
    expect(near('belmarfrod')).toEqual(['belmarford']);
    expect(typos.near('belmarfrod')[0].distance).toBe(1);
    expect(typos.near('bxlmarfxrd')[0]).toEqual({ word: 'belmarford', distance: 2 });
    expect(near('smthi')).toEqual([]); // two edits in a 5-letter word
  });

  it('finds words one edit from a 3-letter word, two-letter words among them', () => {
    expect(maxEdits(2)).toBe(0);
    expect(maxEdits(3)).toBe(1);
    expect(near('jhn')).toEqual(['john']); // insertion
    expect(near('cst')).toEqual(['cat']); // substitution
    expect(near('abb')).toEqual(['ab']); // deletion: 2-letter words are indexed
    expect(near('ab')).toEqual([]); // query under 3 letters
  });

  it('leaves out the word itself, short queries, three edits and words with digits', () => {
    expect(near('john')).toEqual(['johan']);
    expect(near('jh')).toEqual([]); // query under 3 letters
    expect(near('bxlmxrfxrd')).toEqual([]); // three edits
    expect(near('x2021')).toEqual([]);
    expect(typos.size).toBe(13);
  });

  it('finds exactly the words a full scan with the distance finds (the letter filters lose none)', () => {
    const random = mulberry32(11);
    // Few letters, so repeated letters (the second filter) are common.
    const word = () =>
      Array.from({ length: 2 + Math.floor(random() * 10) }, () => 'aabeilnorst'[Math.floor(random() * 11)]).join('');
    const words = [...new Set(Array.from({ length: 3000 }, word))];
    const index = new TypoNeighbours(words);
    for (let q = 0; q < 300; q++) {
      const query = q % 2 === 0 ? word() : words[q].slice(0, 2) + words[q].slice(3) + 'e';
      const edits = maxEdits(query.length);
      const expected = words.filter((w) => w !== query && osaDistance(query, w) <= edits).sort();
      expect(
        index
          .near(query)
          .map((n) => n.word)
          .sort(),
        query,
      ).toEqual(expected);
    }
  });
});
