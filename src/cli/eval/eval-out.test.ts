// The eval folder keeps the provider key out of what it writes, with the one redaction: a long
// key is cut out; a short local-server key ("x") is no secret and leaves the text whole (it was
// cut out of every "index", "ex" and SQL text holding an x, which broke the records).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../core/eval/eval-record';
import { EvalOut } from './eval-out';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function written(secret: string, record: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'dowser-eval-out-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'transcripts'));
  const out = new EvalOut(dir, secret);
  out.append(record as unknown as QuestionRecord);
  out.transcript('q1', { events: [record] });
  return {
    results: readFileSync(join(dir, 'results.jsonl'), 'utf8'),
    transcript: readFileSync(join(dir, 'transcripts/q1.json'), 'utf8'),
    reread: out.results(),
  };
}

describe('EvalOut and the provider key', () => {
  it('a one-letter key of a local server leaves the records whole', () => {
    const r = written('x', { id: 'q1', index: 0, ex: 1, finalSql: 'SELECT max(x) FROM t' });
    expect(r.results).not.toContain('[redacted]');
    expect(r.transcript).not.toContain('[redacted]');
    expect(r.reread.get('q1')).toMatchObject({ index: 0, ex: 1, finalSql: 'SELECT max(x) FROM t' });
  });

  it('a real key is cut out of the results and the transcripts', () => {
    const key = 'sk-live-9f8e7d6c5b4a3f2e1d0c';
    const r = written(key, { id: 'q1', index: 0, ex: 0, reason: `401: bad key ${key}` });
    expect(r.results).not.toContain(key);
    expect(r.results).toContain('[redacted]');
    expect(r.transcript).not.toContain(key);
  });
});
