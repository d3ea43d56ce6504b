import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from './edit-distance';

describe('editDistance', () => {
  it('counts a transposition as one edit', () => {
    expect(editDistance('pairs', 'paris')).toBe(1);
    expect(editDistance('jhon', 'john')).toBe(1);
  });
  it('counts substitutions, insertions and deletions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
  });
  it('stops early past the limit', () => {
    expect(editDistance('aaaaaaaa', 'bbbbbbbb', 2)).toBe(3);
  });
});

describe('closestNames', () => {
  it('suggests near misses and containing names, best first', () => {
    expect(closestNames('nme', ['name', 'id', 'city'])).toEqual(['name']);
    expect(closestNames('Custmer', ['customers', 'orders', 'Customer'])).toEqual(['Customer', 'customers']);
    expect(closestNames('name', ['first_name', 'age'])).toEqual(['first_name']);
    expect(closestNames('zzz', ['name', 'age'])).toEqual([]);
  });
});
