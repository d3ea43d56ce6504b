import { describe, expect, it } from 'vitest';
import { unmark } from '../privacy/marks';
import { ambiguitySignal, ASK_USER_RULE, NO_SIGNAL } from './ask-user';

type Hit = { table: string; column: string; value: string; match: string };
const found = (...hits: Hit[]) => ({ hits });
const hit = (table: string, column: string, value: string, match = 'exact'): Hit => ({ table, column, value, match });

describe('ambiguitySignal, search_value', () => {
  it('takes a value differing only in case, accents or spacing as no reason to ask', () => {
    expect(
      ambiguitySignal('search_value', { query: 'South Dakota' }, found(hit('s', 'state', 'SouthDakota', 'compact'))),
    ).toBeNull();
    expect(
      ambiguitySignal('search_value', { query: 'physics' }, found(hit('s', 'subject', 'Physics', 'case'))),
    ).toBeNull();
    expect(ambiguitySignal('search_value', { query: 'Lyon' }, found(hit('s', 'city', 'Lyon')))).toBeNull();
    for (const text of [ASK_USER_RULE, NO_SIGNAL]) expect(text).not.toMatch(/case|spacing/);
  });

  const biology = found(
    hit('faculty', 'title', 'Biology'),
    hit('course', 'title', 'Biology'),
    hit('club', 'title', 'Biology'),
  );

  it('takes a value in several columns as a reason to ask when the question does not say which', () => {
    expect(unmark(ambiguitySignal('search_value', { query: 'biology' }, biology) ?? '')).toBe(
      '"Biology" is in faculty.title, course.title, club.title',
    );
    const asks = (question: string) => ambiguitySignal('search_value', { query: 'biology' }, biology, question);
    expect(asks('How many students study biology?')).not.toBeNull();
    expect(asks('List the biology courses and clubs.')).not.toBeNull(); // two named: still ambiguous
    expect(asks('What is the title of biology?')).not.toBeNull(); // the column every holder has
  });

  it('takes it as none when the question names one holder by its table or its column', () => {
    const asks = (question: string) => ambiguitySignal('search_value', { query: 'biology' }, biology, question);
    expect(asks('Which clubs are about Biology?')).toBeNull();
    expect(asks("Who leads the COURSE's biology section?")).toBeNull();
    const cities = found(hit('person', 'home_city', 'Lyon'), hit('person', 'work_city', 'Lyon'));
    expect(ambiguitySignal('search_value', { query: 'Lyon' }, cities, 'Who works in Lyon?')).not.toBeNull();
    expect(ambiguitySignal('search_value', { query: 'Lyon' }, cities, 'Whose work city is Lyon?')).toBeNull();
  });
});
