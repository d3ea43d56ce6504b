import { describe, expect, it } from 'vitest';
import { osaDistance, similarity, withinEdits } from './edit-distance';

describe('osaDistance', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(osaDistance('paris', 'pairs')).toBe(1);
    expect(osaDistance('john', 'jhon')).toBe(1);
  });

  it('counts substitutions, insertions and deletions', () => {
    expect(osaDistance('kitten', 'sitting')).toBe(3);
    expect(osaDistance('', 'abc')).toBe(3);
    expect(osaDistance('same', 'same')).toBe(0);
  });

  it('stops early past the maximum', () => {
    expect(osaDistance('abcdef', 'uvwxyz', 1)).toBe(2);
    expect(osaDistance('a', 'abcd', 2)).toBe(3);
    expect(osaDistance('aaaaaaaa', 'bbbbbbbb', 2)).toBe(3);
  });

  it('agrees with withinEdits', () => {
    for (const [a, b] of [
      ['paris', 'pairs'],
      ['kitten', 'sitting'],
      ['abc', 'abd'],
      ['', 'ab'],
    ])
      for (const max of [1, 2]) expect(withinEdits(a, b, max)).toBe(osaDistance(a, b) <= max);
  });

  it('gives a similarity that falls with the distance', () => {
    expect(similarity('paris', 'paris')).toBe(1);
    expect(similarity('paris', 'pairs')).toBeCloseTo(0.8);
    expect(similarity('paris', 'zzzzzzzzzz')).toBeLessThan(0.5);
  });
});
