// How much --concurrency buys `dowser eval` when the model is a network away: Spider dev's first
// 60 questions answered by the mock OpenAI-compatible server with a fixed delay per reply, at
// concurrency 1 and 4 (decision 022). Needs ../shared/datasets/spider.
//   npx tsx scripts/eval-concurrency.ts [delayMs]

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startMockLlm } from '../e2e/mock-llm/server';
import { knowingModel } from '../src/test-support/eval-fixtures';

const run = promisify(execFile);
const data = '../shared/datasets/spider';
const delay = Number(process.argv[2] ?? 300);
const dev = JSON.parse(readFileSync(join(data, 'dev.json'), 'utf8')) as Array<{ question: string; query: string }>;
const answer = knowingModel((q) => dev.find((x) => x.question === q)?.query);
const mock = await startMockLlm({ script: (req) => new Promise((r) => setTimeout(() => r(answer(req)), delay)) });
const dir = mkdtempSync(join(tmpdir(), 'dowser-concurrency-'));
try {
  for (const concurrency of ['1', '4']) {
    const t0 = Date.now();
    const args = ['bin/dowser.mjs', 'eval', '--dataset', 'spider', '--data', data, '--limit', '60'];
    args.push('--provider', 'openai', '--base-url', mock.url, '--model', 'mock', '--concurrency', concurrency);
    const { stdout } = await run(process.execPath, [...args, '--out', join(dir, concurrency)], { encoding: 'utf8' });
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(`concurrency ${concurrency}: ${seconds} s (${delay} ms per reply); ${stdout.split('\n')[0]}`);
  }
} finally {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
}
