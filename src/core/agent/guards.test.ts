import { describe, expect, it } from 'vitest';
import { AbortedError, TimeLimitError, withTimeLimit } from './abort';
import { parseExplanation } from './explain';
import { RepairGuard, RepeatGuard, stableJson } from './guards';

describe('guards', () => {
  it('treats calls with the same arguments in another key order as the same call', () => {
    expect(stableJson({ b: 1, a: [{ d: 2, c: null }] })).toBe(stableJson({ a: [{ c: null, d: 2 }], b: 1 }));
    const g = new RepeatGuard();
    expect([
      g.check('x', { a: 1, b: 2 }),
      g.check('x', { b: 2, a: 1 }),
      g.check('y', { a: 1, b: 2 }),
      g.check('x', { a: 1, b: 2 }),
    ]).toEqual(['new', 'repeat', 'new', 'stop']);
  });

  it('blocks execution after the allowed repairs until the approach changes', () => {
    const g = new RepairGuard(2);
    expect(g.record(false)).toContain('repair 1 of 2');
    expect(g.record(false)).toContain('repair 2 of 2');
    expect(g.record(false)).toContain('Repair limit reached');
    expect(g.blocked).toBe(true);
    g.changedApproach();
    expect(g.blocked).toBe(false);
    expect(g.record(true)).toBe('');
  });

  it('times out or aborts a wait, and tells the work to stop', async () => {
    let stopped = false;
    const never = (s: AbortSignal) =>
      new Promise<never>(() =>
        s.addEventListener('abort', () => {
          stopped = true;
        }),
      );
    await expect(withTimeLimit(never, 10)).rejects.toBeInstanceOf(TimeLimitError);
    expect(stopped).toBe(true);
    const c = new AbortController();
    setTimeout(() => c.abort(), 5);
    await expect(withTimeLimit(never, 10_000, c.signal)).rejects.toBeInstanceOf(AbortedError);
    await expect(withTimeLimit(async () => 4, 100)).resolves.toBe(4);
  });

  it('reads the explanation and its verdict', () => {
    expect(parseExplanation('Explanation: Counts loans.\nVerdict: Match')).toEqual({
      explanation: 'Counts loans.',
      verdict: 'match',
    });
    expect(parseExplanation('**Explanation:** Lists cities.\n**Verdict:** mismatch — it lists towns')).toEqual({
      explanation: 'Lists cities.',
      verdict: 'mismatch',
    });
    expect(parseExplanation('It returns the names.')).toEqual({
      explanation: 'It returns the names.',
      verdict: 'unsure',
    });
    expect(parseExplanation('  ')).toBeNull();
  });

  it.each([
    ['Verdict: match\nExplanation: Counts loans.', 'match', 'Counts loans.'],
    ['VERDICT - Does not match\nIt lists towns, not cities.', 'mismatch', 'It lists towns, not cities.'],
    ['Verdict: "Matches"\n\nExplanation: The five largest cities.', 'match', 'The five largest cities.'],
    ['verdict: partially — only 2023\nexplanation: Sales of 2023.', 'unsure', 'Sales of 2023.'],
    ['Verdict: yes\nThe count of loans.', 'match', 'The count of loans.'],
    ['It lists the singers by age. This matches the question.', 'match', null],
    ["It lists towns. This doesn't answer the question, which asks for cities.", 'mismatch', null],
  ])('reads a verdict however small models write it: %j', (reply, verdict, explanation) => {
    const parsed = parseExplanation(reply);
    expect(parsed?.verdict).toBe(verdict);
    if (explanation) expect(parsed?.explanation).toBe(explanation);
  });
});
