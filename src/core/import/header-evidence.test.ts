// The header decided on evidence (issue 35, item 1), over a varied set of made-up files: with and
// without a header, all-text tables, numeric tables, one column, wide files, the red-team's shape.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { headerEvidence, shapeOf, type HeaderVerdict } from './header-evidence';

const rowsOf = (csv: string) => Papa.parse<string[]>(csv.trim(), { skipEmptyLines: true }).data;
const verdictOf = (csv: string) => {
  const [first, ...below] = rowsOf(csv);
  return headerEvidence(first, below);
};

const FILES: Array<[string, HeaderVerdict, string]> = [
  [
    'contacts, first line a person (the red-team shape)',
    'data',
    `Brannoch Velstrade,Quimbury,tarnwise,ollendrake@example.net
Isolde Farrowgate,Pellinmoor,cobaltine,wistermane@example.net
Corwen Haldane,Ashcombe,lumivex,fernhollow@example.net
Maelis Trennick,Dovecastle,quarrel,brightwater@example.net`,
  ],
  [
    'contacts with lower-case names',
    'header',
    `name,town,word,email
Brannoch Velstrade,Quimbury,tarnwise,ollendrake@example.net
Isolde Farrowgate,Pellinmoor,cobaltine,wistermane@example.net`,
  ],
  [
    'contacts with capitalised names',
    'header',
    `Name,Town,Word,Email
Brannoch Velstrade,Quimbury,tarnwise,ollendrake@example.net
Isolde Farrowgate,Pellinmoor,cobaltine,wistermane@example.net`,
  ],
  [
    'sales with codes, counts and prices',
    'header',
    `region,zip,units,price
North,00501,3,9.5
South,10001,,12`,
  ],
  ['a numeric table without names', 'data', `1,2.5,3\n4,5,6\n7,8.25,9`],
  [
    'stock prices under a header',
    'header',
    `Date,Open,High,Low,Close
2024-01-02,187.15,188.44,183.89,185.64
2024-01-03,184.22,185.88,183.43,184.25`,
  ],
  [
    'a log without a header: dates, levels, messages',
    'data',
    `2024-01-02 10:01:00,INFO,started
2024-01-02 10:02:13,WARN,disk low
2024-01-02 10:05:40,INFO,stopped`,
  ],
  ['one column of e-mails under a name', 'header', `email\nada@example.org\nbo@example.org\ncy@example.org`],
  ['one column of full names, no header', 'data', `Ada Lovelace\nGrace Hopper\nAlan Turing\nEdsger Dijkstra`],
  [
    'all text, snake_case names',
    'header',
    `first_name,last_name,home_city
Ada,Lovelace,London
Grace,Hopper,New York`,
  ],
  [
    'all text, no header, a value repeated below',
    'data',
    `open,low
closed,high
open,high
closed,low`,
  ],
  ['an id column and text', 'header', `id,label\n1,first\n2,second\n3,third`],
  ['codes shaped alike, named', 'header', `sku,colour,qty\nAB-1234,red,3\nCD-5678,blue,12\nEF-9012,green,7`],
  ['codes shaped alike, no name', 'data', `AB-1234,red\nCD-5678,blue\nEF-9012,green`],
];

describe('headerEvidence', () => {
  for (const [name, verdict, csv] of FILES)
    it(`${name}: ${verdict}`, () => {
      const e = verdictOf(csv);
      expect(e.verdict, e.reason).toBe(verdict);
      expect(e.reason.length).toBeGreaterThan(10);
    });

  it('a wide file: 500 named columns of numbers is a header, the numbers alone are data', () => {
    const names = Array.from({ length: 500 }, (_, i) => `m${i + 1}`).join(',');
    const row = (k: number) => Array.from({ length: 500 }, (_, i) => String(i * k)).join(',');
    expect(verdictOf(`${names}\n${row(1)}\n${row(2)}`).verdict).toBe('header');
    expect(verdictOf(`${row(3)}\n${row(1)}\n${row(2)}`).verdict).toBe('data');
  });

  it('a file of one row, or an even split, is unsure', () => {
    expect(verdictOf('Brannoch Velstrade,Quimbury').verdict).toBe('unsure');
    // "Name" looks like a name among names; "City" unlike the full names below: one vote each way.
    const even = verdictOf('City,Name\nLondon,Ada Lovelace\nParis,Grace Hopper');
    expect(even).toEqual({
      verdict: 'unsure',
      reason: expect.stringContaining('as much speaks for names as for data'),
    });
    // "colour" is a lower-case word above lower-case words: only the codes' column speaks.
    expect(verdictOf('sku,colour\nAB-1234,red\nCD-5678,blue\nEF-9012,green').verdict).toBe('unsure');
  });

  it('says why in words a person reads', () => {
    expect(verdictOf('name,town\nAda Lovelace,London\nBo Li,Paris').reason).toBe(
      'its values are shaped unlike the rows below (2 of 2 columns)',
    );
    expect(verdictOf('id,amount\n1,9.5\n2,12').reason).toBe(
      'columns below it hold numbers or dates where it holds words (2 of 2 columns)',
    );
    expect(verdictOf('Ada Lovelace,London\nBo Li,Paris\nCy Young,Rome').reason).toBe(
      'its values look like the rows below',
    );
  });
});

describe('shapeOf', () => {
  it('collapses runs of character classes', () => {
    expect(shapeOf('Quillfeather Moravec')).toBe('Aa Aa');
    expect(shapeOf('kestrelmoss@example.com')).toBe('a@a.a');
    expect(shapeOf('first_name')).toBe('a_a');
    expect(shapeOf('B-12')).toBe('A-9');
    expect(shapeOf('firstName')).toBe('aA');
    expect(shapeOf('東京')).toBe('L');
    expect(shapeOf('12.5')).toBe('9.9');
  });
});
