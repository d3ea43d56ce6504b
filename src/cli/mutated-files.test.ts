// 200 damaged database files through the CLI (issue 11, "fuzzing kept as tests"): `schema`
// (integrity check, introspection, statistics), `sql` and `tools search-value` (which builds the
// retrieval indexes) on each. Every command must end, within its limits, in success or a readable
// `error [code]: message` — no crash, no hang, no JavaScript error leaking out as the message.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzBaseDb, mutants, type Mutant } from '../test-support/mutate-db';
import type { CliIo } from './command';
import { run } from './main';

const FILES = 200;
const HANG_MS = 45_000;

let dir: string;
let files: Array<Mutant & { path: string }>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-mutants-'));
  files = mutants(await fuzzBaseDb(), FILES).map((m) => {
    const path = join(dir, `${m.name}.sqlite`);
    writeFileSync(path, m.bytes);
    return { ...m, path };
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function dowser(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const io: CliIo = {
    stdout: { write: () => undefined },
    stderr: { write: (t: string) => (stderr += t) },
    readFile: (p) => readFileSync(p),
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${argv.join(' ')}`)), HANG_MS);
  });
  try {
    return { code: await Promise.race([run(argv, io), hang]), stderr };
  } finally {
    clearTimeout(timer);
  }
}

// A JavaScript failure surfacing as the message means an unexpected path, not a readable refusal.
const JS_ERROR = /TypeError|RangeError|ReferenceError|undefined|null is not|is not a function|Cannot read prop/;

describe(`${FILES} mutated database files through the CLI`, () => {
  it('each command ends in success or a readable error', async () => {
    const failures: string[] = [];
    const outcomes = new Map<string, number>();
    for (const f of files) {
      for (const argv of [
        ['schema', '--db', f.path, '--json', '--budget', '5', '--timeout', '5'],
        ['sql', '--db', f.path, '--timeout', '5', 'SELECT * FROM customers ORDER BY city LIMIT 3'],
        ['tools', 'search-value', '--db', f.path, '--timeout', '5', 'Paris'],
      ]) {
        const r = await dowser(argv);
        const code = r.stderr.match(/^error \[([a-z_]+)\]: \S/)?.[1];
        const outcome = r.code === 0 ? 'ok' : (code ?? 'unreadable');
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        if (r.code !== 0 && r.code !== 1) failures.push(`${f.name} ${argv[0]}: exit ${r.code}`);
        else if (r.code === 1 && argv[0] !== 'tools' && !code) failures.push(`${f.name} ${argv[0]}: ${r.stderr}`);
        else if (JS_ERROR.test(r.stderr)) failures.push(`${f.name} ${argv[0]}: ${r.stderr}`);
      }
    }
    expect(failures).toEqual([]);
    // The corpus reaches both ends: files that still work and files refused for what they are.
    expect(outcomes.get('ok')).toBeGreaterThan(100);
    expect((outcomes.get('corrupt') ?? 0) + (outcomes.get('encrypted') ?? 0)).toBeGreaterThan(50);
  }, 600_000);
});
