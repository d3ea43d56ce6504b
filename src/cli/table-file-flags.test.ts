// --header and --encoding, and the terminal's question when Dowser cannot tell (issue 35, item 1).
// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, type FixtureDir } from './red-team/import-fixtures';
import { headerFor, parseTableFileFlags } from './table-file-flags';
import type { Terminal } from './ask/person';

let files: FixtureDir;
beforeAll(() => {
  files = fixtureDir('table-file-flags');
});
afterAll(() => files.remove());

const AUTO = { header: 'auto', encoding: 'auto' } as const;

function terminal(answer: string): Terminal & { asked: string[] } {
  const asked: string[] = [];
  return { isTTY: true, asked, ask: async (prompt) => (asked.push(prompt), answer) };
}

describe('the header at a terminal', () => {
  it('asks only when the evidence cannot tell; y names the columns, Enter reads the row as data', async () => {
    // "City" is unlike the full names below it, "Name" like them: one vote each way.
    const unsure = files.write('even.csv', 'City,Name\nLondon,Ada Lovelace\nParis,Grace Hopper\n');
    const yes = terminal('y');
    expect(await headerFor(unsure, AUTO, yes)).toBe('yes');
    expect(yes.asked[0]).toMatch(
      /^even\.csv: Dowser cannot tell whether the first row names the columns \(.+\)\. Does it\? \[y\/N\] $/,
    );
    expect(await headerFor(unsure, AUTO, terminal(''))).toBe('no');
    const clear = files.write('clear.csv', 'id,amount\n1,9.5\n2,12\n');
    const never = terminal('y');
    expect(await headerFor(clear, AUTO, never)).toBe('auto');
    expect(never.asked).toEqual([]);
    expect(await headerFor(unsure, AUTO, null)).toBe('auto');
    expect(await headerFor(unsure, { ...AUTO, header: 'no' }, yes)).toBe('no');
  });

  it('parses the flags, case aside, and refuses others', () => {
    expect(parseTableFileFlags({})).toEqual(AUTO);
    expect(parseTableFileFlags({ header: 'YES', encoding: 'UTF-16' })).toEqual({ header: 'yes', encoding: 'utf-16' });
    expect(() => parseTableFileFlags({ header: 'first' })).toThrow('--header must be yes, no or auto, not "first"');
  });
});
