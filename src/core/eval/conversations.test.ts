import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clarifiedUtterance, conversationTurns, parseGoldFile, untokenizeSql } from './conversations';

describe('SParC files', () => {
  it('joins the operators the tokenized gold splits, never inside strings', () => {
    expect(untokenizeSql('SELECT * FROM t WHERE a ! = 1 AND b > = 2 AND c < = 3 AND d < > 4')).toBe(
      'SELECT * FROM t WHERE a != 1 AND b >= 2 AND c <= 3 AND d <> 4',
    );
    expect(untokenizeSql("SELECT * FROM t WHERE name = '! = x' AND a > 1")).toBe(
      "SELECT * FROM t WHERE name = '! = x' AND a > 1",
    );
  });

  it('reads interactions of the gold file and pairs them with dev.json turn by turn', () => {
    const gold = 'SELECT 1\tdb_a\nSELECT 2\tdb_a\n\nSELECT 3\tdb_b\n';
    expect(parseGoldFile(gold)).toEqual([
      [
        { sql: 'SELECT 1', dbId: 'db_a' },
        { sql: 'SELECT 2', dbId: 'db_a' },
      ],
      [{ sql: 'SELECT 3', dbId: 'db_b' }],
    ]);
    const dev = [
      { database_id: 'db_a', interaction: [{ utterance: 'All rows?' }, { utterance: 'Only the second?' }] },
      { database_id: 'db_b', interaction: [{ utterance: 'Three?' }] },
    ];
    expect(conversationTurns(dev, gold).map((t) => [t.interaction, t.turn, t.dbId, t.question, t.goldSql])).toEqual([
      [0, 0, 'db_a', 'All rows?', 'SELECT 1'],
      [0, 1, 'db_a', 'Only the second?', 'SELECT 2'],
      [1, 0, 'db_b', 'Three?', 'SELECT 3'],
    ]);
    expect(() => conversationTurns(dev.slice(0, 1), gold)).toThrow('1 interactions, the gold file 2');
  });

  // Issue 37, item 6: CoSQL's "question | asked back | answer" reaches the model as who said what.
  it("reads a turn in which the system asked back as the person's question, the question asked, the answer", () => {
    const u = 'Show the teachers of each course | did you mean their names? | yes';
    expect(clarifiedUtterance(u)).toBe(
      'Show the teachers of each course (The person was asked "did you mean their names?" and answered "yes".)',
    );
    expect(clarifiedUtterance('Which ones? | And their ages?')).toBe('Which ones? And their ages?');
    expect(clarifiedUtterance('What is a|b?')).toBe('What is a|b?');
    const dev = [{ database_id: 'db_a', interaction: [{ utterance: u }] }];
    expect(conversationTurns(dev, 'SELECT 1\tdb_a\n')[0].question).toContain('was asked "did you mean');
  });

  const sparc = resolve(fileURLToPath(new URL('../../..', import.meta.url)), '../shared/datasets/sparc');
  it.skipIf(!existsSync(join(sparc, 'dev.json')))('reads SParC dev whole: 422 interactions, 1,203 turns', () => {
    const turns = conversationTurns(
      JSON.parse(readFileSync(join(sparc, 'dev.json'), 'utf8')),
      readFileSync(join(sparc, 'dev_gold.txt'), 'utf8'),
    );
    expect(new Set(turns.map((t) => t.interaction)).size).toBe(422);
    expect(turns).toHaveLength(1203);
    expect(turns.some((t) => /[!<>]\s+=/.test(t.goldSql))).toBe(false);
  });
});
