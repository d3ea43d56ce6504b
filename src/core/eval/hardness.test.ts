import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hardnessOfSql, spiderHardness, type SpiderSql } from './hardness';

const SPIDER_DEV = resolve(fileURLToPath(new URL('../../..', import.meta.url)), '../shared/datasets/spider/dev.json');

describe('Spider hardness from SQL text', () => {
  it.each([
    ['SELECT count(*) FROM singer', 'easy'],
    ['SELECT name FROM singer WHERE age > 20', 'easy'],
    ['SELECT name, country, age FROM singer ORDER BY age DESC', 'medium'],
    [
      'SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014',
      'medium',
    ],
    ['SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert)', 'hard'],
    ['SELECT name FROM singer WHERE age > 40 INTERSECT SELECT name FROM singer WHERE age < 50', 'hard'],
    [
      'SELECT T2.name, count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id GROUP BY T1.stadium_id ORDER BY count(*) DESC LIMIT 1',
      'extra',
    ],
    ["SELECT name FROM singer WHERE country = 'France' OR country LIKE '%land' OR age BETWEEN 20 AND 30", 'extra'],
  ])('%s is %s', (sql, level) => {
    expect(hardnessOfSql(sql)).toBe(level);
  });

  it.skipIf(!existsSync(SPIDER_DEV))(
    'agrees with the official level (from the parsed sql) on every Spider dev question (needs ../shared)',
    () => {
      const dev = JSON.parse(readFileSync(SPIDER_DEV, 'utf8')) as Array<{ query: string; sql: SpiderSql }>;
      const counts: Record<string, number> = {};
      let agree = 0;
      for (const q of dev) {
        const official = spiderHardness(q.sql);
        counts[official] = (counts[official] ?? 0) + 1;
        if (hardnessOfSql(q.query) === official) agree++;
      }
      // The published Spider dev split: 248 easy, 446 medium, 174 hard, 166 extra.
      expect(counts).toEqual({ easy: 248, medium: 446, hard: 174, extra: 166 });
      expect(agree).toBe(dev.length);
    },
  );
});
