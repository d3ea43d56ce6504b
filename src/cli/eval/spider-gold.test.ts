// The harness checked on real data: the gold provider answers every Spider dev question with its
// reference SQL through the agent's whole path (plan, execute_sql, done, final, explanation) and
// the scoring must give exactly 100% on every executable question (972: wta_1's 62 have no
// database in ../shared). Skipped when ../shared/datasets is absent.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../core/eval/eval-record';
import type { CliIo } from '../command';
import { run } from '../main';

const spider = resolve(fileURLToPath(new URL('../../..', import.meta.url)), '../shared/datasets/spider');

describe.skipIf(!existsSync(join(spider, 'dev.json')))('gold answers on Spider dev (../shared/datasets/spider)', () => {
  it('scores exactly 100% on every executable question', { timeout: 600_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'dowser-gold-'));
    try {
      let stdout = '';
      const io: CliIo = {
        stdout: { write: (t: string) => (stdout += t) },
        stderr: { write: () => true },
        readFile: (p) => readFileSync(p),
      };
      const argv = ['eval', '--dataset', 'spider', '--data', spider, '--provider', 'gold', '--out', out];
      expect(await run([...argv, '--concurrency', '2'], io)).toBe(0);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
      expect(summary).toMatchObject({ ex: 100, n: 972, skipped: 62, failed: 0 });
      const records = readFileSync(join(out, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as QuestionRecord);
      const skipped = records.filter((r) => r.status === 'skipped');
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((r) => r.dbId === 'wta_1')).toBe(true);
      expect(records.filter((r) => r.status === 'correct' && r.verdict === 'match')).toHaveLength(972);
      expect(stdout).toContain('EX 100.00% over 972 scored questions (skipped 62, failed 0)');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
