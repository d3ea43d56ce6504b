import { describe, expect, it } from 'vitest';
import { resolveToolName } from './tool-name';

const offered = ['submit_plan', 'search_value', 'execute_sql', 'done'];

describe('resolveToolName', () => {
  it.each([
    ['search_value', 'search_value'],
    ['SearchValue', 'search_value'],
    ['search-value', 'search_value'],
    ['Search_Value', 'search_value'],
    ['functions.search_value', 'search_value'],
    ['tools:execute_sql', 'execute_sql'],
    ['DONE', 'done'],
  ])('%s is %s', (written, meant) => expect(resolveToolName(written, offered)).toBe(meant));

  it('leaves a name that is no offered tool as written', () => {
    expect(resolveToolName('drop_table', offered)).toBe('drop_table');
    expect(resolveToolName('search', offered)).toBe('search');
  });
});
