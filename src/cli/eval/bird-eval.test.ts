// `dowser eval --dataset bird` on a generated BIRD-format folder (BIRD's own databases are not on
// this machine): question_id as the id, difficulty, evidence only with --hints on, column
// descriptions from database_description/, soft F1.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm, type MockReply, type RecordedRequest } from '../../../e2e/mock-llm/server';
import type { AgentEvent } from '../../core/agent/events';
import type { QuestionRecord } from '../../core/eval/eval-record';
import type { EvalSummary } from '../../core/eval/eval-summary';
import { BIRD_QUESTIONS, CLUB_DESCRIPTION, knowingModel, writeBirdFixture } from '../../test-support/eval-fixtures';
import { runCli } from '../test-support/run-cli';

let dir: string;
let data: string;
let n = 0;

const dowser = (...argv: string[]) => runCli(['eval', '--dataset', 'bird', '--data', data, ...argv]);
const read = <T>(out: string, name: string) => JSON.parse(readFileSync(join(out, name), 'utf8')) as T;
const summaryOf = (out: string) => read<EvalSummary>(out, 'summary.json');
const results = (out: string) =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as QuestionRecord);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-bird-'));
  data = join(dir, 'minidev');
  await writeBirdFixture(data);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dowser eval on BIRD-format data', () => {
  it('scores the references with EX and soft F1, by difficulty, ids from question_id', async () => {
    const out = join(dir, `out-${++n}`);
    const r = await dowser('--provider', 'gold', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('EX 100.00%, soft F1 100.00% over 3 scored questions (skipped 1, failed 0)');
    const summary = summaryOf(out);
    expect(Object.keys(summary)).toContain('softF1');
    expect(summary).toMatchObject({ ex: 100, softF1: 100, n: 3, skipped: 1 });
    expect(summary.byDifficulty).toEqual({
      simple: { n: 1, ex: 100, softF1: 100 },
      moderate: { n: 1, ex: 100, softF1: 100 },
      challenging: { n: 1, ex: 100, softF1: 100 },
    });
    expect(results(out).map((q) => q.id)).toEqual(['1312', '1313', '1320', '77']);
    expect(results(out).at(-1)).toMatchObject({ status: 'skipped', reason: expect.stringContaining('formula_1') });
  });

  describe('with a model (mock server)', () => {
    let mock: MockLlm | undefined;
    afterEach(async () => {
      await mock?.close();
      mock = undefined;
    });
    const sqlFor = (q: string) => BIRD_QUESTIONS.find((x) => x.question === q)?.SQL;

    async function runWith(script: (req: RecordedRequest) => MockReply, ...more: string[]) {
      mock = await startMockLlm({ script });
      const out = join(dir, `out-${++n}`);
      const r = await dowser('--provider', 'openai', '--base-url', mock.url, '--model', 'm', '--out', out, ...more);
      return { r, out, prompts: mock.requests.map((q) => JSON.stringify(q.messages)) };
    }

    it('gives the evidence as hints only with --hints on', async () => {
      const off = await runWith(knowingModel(sqlFor), '--ids', '1312');
      expect(off.r.code).toBe(0);
      expect(off.prompts.some((p) => p.includes('vice president refers to'))).toBe(false);
      const on = await runWith(knowingModel(sqlFor), '--ids', '1312', '--hints', 'on');
      expect(on.prompts[0]).toContain("vice president refers to position = 'Vice President'");
      expect(summaryOf(on.out)).toMatchObject({ ex: 100, n: 1 });
    });

    it('builds the tools with the column descriptions of database_description/', async () => {
      const script = knowingModel(sqlFor, [{ name: 'search_column', arguments: { query: 'shirt size' } }]);
      const { r, out } = await runWith(script, '--ids', '1312', '--mode', 'agent');
      expect(r.code).toBe(0);
      const transcript = read<{ events: AgentEvent[] }>(out, results(out)[0].transcript!);
      const seen = transcript.events.find((e) => e.type === 'observation' && e.tool === 'search_column');
      expect(seen).toMatchObject({ text: expect.stringContaining(CLUB_DESCRIPTION) });
    });

    it('scores a wrong answer 0 with its soft F1', async () => {
      const wrong = knowingModel(
        () =>
          "SELECT first_name, position FROM member WHERE member_id IN (SELECT link_to_member FROM expense WHERE expense_description = 'Posters')",
      );
      const { out } = await runWith(wrong, '--ids', '1320');
      const [q] = results(out);
      // Reference rows (Grant, Gilmour), (Luisa, Guidi); predicted (Grant, Vice President), (Luisa, Member):
      // half of each row matches, so precision = recall = 0.5.
      expect(q).toMatchObject({ status: 'wrong', ex: 0, softF1: 0.5 });
      expect(summaryOf(out)).toMatchObject({ ex: 0, softF1: 50 });
    });
  });
});
