// Measures the redaction rule of core/security/redact.ts on real text (docs/decisions/042):
// how often ordinary text is rewritten (false positives) for short "keys" that local servers
// take and for random keys of real providers' shapes, over the recorded conversations and the
// Spider questions, SQL and schema names. Run: npx tsx scripts/measure-redaction.ts
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32 } from '../src/core/random';
import { REDACTED, redactSecrets } from '../src/core/security/redact';

const datasets = path.join(import.meta.dirname, '..', '..', 'shared', 'datasets');
if (!existsSync(datasets)) {
  console.log(`skipped: ${datasets} is absent`);
  process.exit(0);
}
const texts: string[] = [];
const recorded = path.join(datasets, 'recorded');
for (const f of readdirSync(recorded).filter((f) => f.endsWith('.json')))
  texts.push(readFileSync(path.join(recorded, f), 'utf8'));
const dev = JSON.parse(readFileSync(path.join(datasets, 'spider', 'dev.json'), 'utf8')) as Array<{
  question: string;
  query: string;
}>;
for (const d of dev) texts.push(d.question, d.query);
texts.push(readFileSync(path.join(datasets, 'spider', 'tables.json'), 'utf8'));
const chars = texts.reduce((n, t) => n + t.length, 0);

const random = mulberry32(11);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (n: number) => Array.from({ length: n }, () => ALNUM[Math.floor(random() * ALNUM.length)]).join('');
const shapes: Record<string, () => string> = {
  'openai sk-proj-': () => `sk-proj-${pick(48)}`,
  'anthropic sk-ant-': () => `sk-ant-api03-${pick(86)}`,
  'openrouter sk-or-v1- (hex)': () =>
    `sk-or-v1-${Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('')}`,
  'lower-case alnum (40)': () => pick(40).toLowerCase(),
  'groq gsk_': () => `gsk_${pick(52)}`,
};
const count = (text: string) => text.split(REDACTED).length - 1;
const baseline = texts.reduce((n, t) => n + count(redactSecrets(t)), 0);

console.log(
  `text: ${texts.length} pieces, ${(chars / 1e6).toFixed(2)} M characters; key-shaped matches without any key: ${baseline}`,
);
for (const key of ['x', 'ollama', 'lm-studio', 'sk-local', 'my-server-token']) {
  const n = texts.reduce((s, t) => s + count(redactSecrets(t, [key])), 0) - baseline;
  const substring = texts.reduce((s, t) => s + t.split(key).length - 1, 0);
  console.log(
    `short key ${JSON.stringify(key)} (${key.length} chars): ${n} rewrites (plain substring replacement: ${substring})`,
  );
}
for (const [name, make] of Object.entries(shapes)) {
  let n = 0;
  const keys = 200;
  for (let i = 0; i < keys; i++) {
    const key = make();
    n += texts.reduce((s, t) => s + count(redactSecrets(t, [key])), 0) - baseline;
  }
  // And how the keys' echoes fare: whole, without the prefix, the last 12, the first 20, JSON-escaped.
  let echoes = 0;
  let leaks = 0;
  for (let i = 0; i < keys; i++) {
    const key = make();
    const body = key.replace(/^(sk-[a-z]+-(v1-|api03-)?|sk-|gsk_)/, '');
    for (const echo of [key, body, key.slice(-12), key.slice(0, 20), JSON.stringify(key)]) {
      echoes++;
      const out = redactSecrets(`The server said: invalid key ${echo}.`, [key]);
      for (let j = 0; j + 6 <= key.length; j++)
        if (out.includes(key.slice(j, j + 6))) {
          leaks++;
          break;
        }
    }
  }
  console.log(
    `${keys} random ${name} keys: ${n} rewrites of ordinary text; ${leaks} of ${echoes} echoes leak 6+ characters`,
  );
}
