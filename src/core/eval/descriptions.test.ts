import { describe, expect, it } from 'vitest';
import { descriptionTexts } from './descriptions';

describe('descriptionTexts', () => {
  it('joins the parts into one line per column, keyed in lower case', () => {
    const m = new Map([
      [
        'Player',
        new Map([
          ['player_name', { expandedName: 'player name', description: "the player's name", dataFormat: 'text', valueDescription: '' }],
          ['preferred_foot', { expandedName: 'preferred foot', description: 'foot', dataFormat: 'text', valueDescription: '• left\n• right' }],
          ['id', { expandedName: '', description: '', dataFormat: 'integer', valueDescription: '' }],
        ]),
      ],
    ]);
    const t = descriptionTexts(m);
    expect([...t.keys()]).toEqual(['player']);
    expect(Object.fromEntries(t.get('player')!)).toEqual({
      player_name: "the player's name",
      preferred_foot: 'foot; • left • right',
    });
  });
});
