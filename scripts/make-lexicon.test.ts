import { describe, expect, it } from 'vitest';
import { LEXICON } from '../src/core/retrieval/lexicon-data';
import { buildLexicon } from './make-lexicon';

describe('make-lexicon', () => {
  it('the committed lexicon is what the script makes from WordNet (npm run lexicon)', () => {
    expect(buildLexicon()).toBe(LEXICON);
  }, 30_000);

  it('relates words by synonym, derivation and attribute', () => {
    const lines = new Map(LEXICON.split('\n').map((l) => [l.split(' ')[0], l.split(' ').slice(1)]));
    expect(lines.get('tall')).toContain('height');
    expect(lines.get('heavi')).toContain('weight');
    expect(lines.get('old')).toContain('ag');
    expect(lines.get('inhabit')).toContain('popul');
  });
});
