import { describe, expect, it } from 'vitest';
import { schemaOf } from '../../test-support/schema-of';
import { comparedLiterals, tableAliases } from './compared-literals';

describe('comparedLiterals', () => {
  it('finds the text a column is compared with, on either side, in lists and negations', () => {
    const sql = `SELECT * FROM pets p JOIN owners AS o ON o.id = p.owner
      WHERE p.kind = 'kitten' AND 'Oslo' = o.city AND o.state IN ('NY', 'CA') AND p.name != 'x'
      AND p.tag <> 'y' AND p.size NOT IN ('L') AND p.code == 'Z' AND p.note = 'it''s'`;
    expect(comparedLiterals(sql).map((l) => [l.qualifier, l.column, l.value])).toEqual([
      ['p', 'kind', 'kitten'],
      ['o', 'city', 'Oslo'],
      ['o', 'state', 'NY'],
      ['o', 'state', 'CA'],
      ['p', 'name', 'x'],
      ['p', 'tag', 'y'],
      ['p', 'size', 'L'],
      ['p', 'code', 'Z'],
      ['p', 'note', "it's"],
    ]);
  });

  it('leaves out patterns, expressions, other comparisons and CASE results, and notes COLLATE NOCASE', () => {
    const sql = `SELECT CASE WHEN a = 1 THEN 'yes' ELSE 'no' END FROM t
      WHERE name LIKE 'A%' AND lower(city) = 'oslo' AND day >= '2020-01-01' AND "Kind" = 'Cat' COLLATE NOCASE`;
    expect(comparedLiterals(sql)).toEqual([{ qualifier: null, column: 'Kind', value: 'Cat', noCase: true }]);
  });

  it('reads a query that does not parse', () => {
    expect(comparedLiterals("SELEC x FROM t WHERE kind = 'cat' AND")).toEqual([
      { qualifier: null, column: 'kind', value: 'cat', noCase: false },
    ]);
  });
});

describe('tableAliases', () => {
  const schema = schemaOf({ Pets: [], owners: [] });
  it('maps aliases and table names to the schema tables', () => {
    const map = tableAliases('SELECT * FROM pets p JOIN "owners" AS o ON o.id = p.owner, owners WHERE 1', schema);
    expect(Object.fromEntries(map)).toEqual({ pets: 'Pets', p: 'Pets', owners: 'owners', o: 'owners' });
  });
});
