import { describe, expect, it } from 'vitest';
import { TypoNeighbours } from './value-typos';

const words = ['paris', 'pairs', 'john', 'johan', 'smith', 'book', 'boot', 'cat', 'oslo', 'x2020', 'ab'];
const typos = new TypoNeighbours(words);

describe('TypoNeighbours', () => {
  it('finds words one substitution, insertion, deletion or swap away', () => {
    expect(typos.near('jhon')).toContain('john'); // swap
    expect(typos.near('smiht')).toEqual(['smith']); // swap at the end
    expect(typos.near('smyth')).toEqual(['smith']); // substitution
    expect(typos.near('smitth')).toEqual(['smith']); // insertion
    expect(typos.near('smih')).toEqual(['smith']); // deletion
    expect(typos.near('catt')).toEqual(['cat']); // insertion into a 3-letter word
    expect(typos.near('paris').sort()).toEqual(['pairs']);
    expect(typos.near('bookk')).toEqual(['book']);
  });

  it('leaves out the word itself, words two edits away, short queries and words with digits', () => {
    expect(typos.near('john')).toEqual(['johan']);
    expect(typos.near('jhn')).toEqual([]); // query under 4 letters
    expect(typos.near('smthi')).toEqual([]); // two edits
    expect(typos.near('x2021')).toEqual([]);
    expect(typos.size).toBe(9);
  });
});
