// Ctrl+C on a real `dowser eval` process: the finished questions stay, the report covers them,
// and the same command continues.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../e2e/mock-llm/server';
import { knowingModel, SPIDER_QUESTIONS, writeSpiderFixture } from '../../test-support/eval-fixtures';

const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
let dir: string;
let mock: MockLlm;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-eval-int-'));
  await writeSpiderFixture(join(dir, 'spider'));
  const answer = knowingModel((q) => SPIDER_QUESTIONS.find((x) => x.question === q)?.query);
  // Slow replies, so the run is still going when Ctrl+C comes.
  mock = await startMockLlm({ script: (req) => new Promise((r) => setTimeout(() => r(answer(req)), 150)) });
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

function start(out: string) {
  const args = ['eval', '--dataset', 'spider', '--data', join(dir, 'spider'), '--out', out];
  args.push('--provider', 'openai', '--base-url', mock.url, '--model', 'mock-model');
  const child = spawn(process.execPath, [join(repoRoot, 'bin/dowser.mjs'), ...args], { cwd: repoRoot });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, exit, stderr: () => stderr };
}

const lines = (out: string) =>
  existsSync(join(out, 'results.jsonl'))
    ? readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').filter(Boolean)
    : [];

describe('Ctrl+C during dowser eval', () => {
  it('leaves a consistent partial report, and the same command finishes the run', { timeout: 120_000 }, async () => {
    const out = join(dir, 'out');
    const first = start(out);
    while (lines(out).length < 1) await new Promise((r) => setTimeout(r, 50));
    first.child.kill('SIGINT');
    expect(await first.exit).toBe(130);
    expect(first.stderr()).toContain('not yet run; run the same command to continue');
    const kept = lines(out).map((l) => JSON.parse(l) as { status: string });
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThan(6);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.n + summary.skipped).toBe(kept.length);
    const details = JSON.parse(readFileSync(join(out, 'details.json'), 'utf8'));
    expect(details.pending).toBe(6 - kept.length);

    const second = start(out);
    expect(await second.exit).toBe(0);
    expect(second.stderr()).toContain(`${kept.length} already done`);
    expect(lines(out)).toHaveLength(6);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({ n: 5, skipped: 1, ex: 100 });
  });
});
