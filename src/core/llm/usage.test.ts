import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { bounded, estimateUsage } from './usage';

describe('estimated usage', () => {
  it('counts ordinary text exactly as the tokenizer does', () => {
    const count = bounded(countTokens);
    for (const text of ['', 'SELECT name FROM customers WHERE city = ’Paris’', 'Thought: the plan.\nAction: done {}'])
      expect(count(text)).toBe(countTokens(text));
  });

  it('counts a long run without spaces in pieces: close to the whole, and a 300 KB reply does not freeze', async () => {
    const run = 'abcdefghij0123456789'.repeat(150); // 3,000 characters, no space
    const count = bounded(countTokens);
    const exact = countTokens(run);
    expect(Math.abs(count(run) - exact) / exact).toBeLessThan(0.1);
    expect(count(`before ${run} after`)).toBe(countTokens('before ') + count(run) + countTokens(' after'));
    // Quadratic before (100,000 such characters took 5.7 s): this would outlast the test's time limit.
    const usage = await estimateUsage([{ role: 'user', content: 'hi' }], undefined, 'x'.repeat(300_000), []);
    expect(usage.outputTokens).toBeGreaterThan(300_000 / 200);
    expect(usage.estimated).toBe(true);
  });
});
