// Measures the key-echo test of core/security/key-echo.ts (decision 070, issue 35 item 15): how
// often ordinary server-sized text (sentences of at most 200 characters) is judged to echo a key
// it has nothing to do with — a false positive only withholds a server's message — and that
// every disguise of each random key is found. Texts: provider error messages as servers write
// them, Spider dev questions and gold SQL, the BIRD mini-dev questions and evidence, and the lines
// of the recorded conversations. Run: npx tsx scripts/measure-key-echo.ts
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32 } from '../src/core/random';
import { createEchoTest } from '../src/core/security/key-echo';
import { KEY_DISGUISES } from '../src/test-support/key-disguises';

const SERVER_MESSAGES = [
  "Invalid value for 'temperature': must be at most 2.",
  "This model's maximum context length is 128000 tokens. However, you requested 130512 tokens (129488 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
  'The model `gpt-4o-mini` does not exist or you do not have access to it.',
  'Rate limit reached for gpt-4o in organization on tokens per min (TPM): Limit 30000, Used 29812, Requested 1431. Please try again in 2.486s.',
  'prompt is too long: 210345 tokens > 200000 maximum',
  'max_tokens: 8193 > 8192, which is the maximum allowed number of output tokens for claude-3-5-haiku-20241022',
  'messages.1.content: Input should be a valid list',
  "model 'llama3.1:8b' not found, try pulling it first",
  'llama runner process has terminated: exit status 2',
  'The server is overloaded. Please try again later.',
  'Unrecognized request argument supplied: tool_choice',
  "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
  "Invalid schema for function 'search_value': In context=(), 'additionalProperties' is required to be supplied and to be false.",
  "Error code: 400 - {'object': 'error', 'message': \"This model's maximum context length is 32768 tokens.\", 'type': 'BadRequestError', 'param': None, 'code': 400}",
];

const datasets = path.join(import.meta.dirname, '..', '..', 'shared', 'datasets');
const texts: string[] = [...SERVER_MESSAGES];
const sentences = (t: string) =>
  t
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.trim())
    .filter((x) => x.length >= 10)
    .map((x) => x.slice(0, 200));
if (existsSync(datasets)) {
  const recorded = path.join(datasets, 'recorded');
  for (const f of readdirSync(recorded).filter((f) => f.endsWith('.json')))
    texts.push(...sentences(readFileSync(path.join(recorded, f), 'utf8').replace(/\\n/g, '\n')));
  const dev = JSON.parse(readFileSync(path.join(datasets, 'spider', 'dev.json'), 'utf8')) as Array<{
    question: string;
    query: string;
  }>;
  for (const d of dev) texts.push(d.question, d.query.slice(0, 200));
} else console.log(`(${datasets} is absent: provider messages only)`);

const random = mulberry32(35);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (n: number, from = ALNUM) =>
  Array.from({ length: n }, () => from[Math.floor(random() * from.length)]).join('');
const shapes: Record<string, () => string> = {
  'openai sk-proj-': () => `sk-proj-${pick(48)}`,
  'anthropic sk-ant-': () => `sk-ant-api03-${pick(86)}`,
  'openrouter sk-or-v1- (hex)': () => `sk-or-v1-${pick(64, '0123456789abcdef')}`,
  'lower-case alnum (40)': () => pick(40).toLowerCase(),
  'groq gsk_': () => `gsk_${pick(52)}`,
};

const KEYS = 20;
console.log(`${texts.length} texts of at most 200 characters (${SERVER_MESSAGES.length} provider messages)`);
for (const [name, make] of Object.entries(shapes)) {
  let flagged = 0;
  let flaggedMessages = 0;
  let found = 0;
  let disguises = 0;
  const t0 = performance.now();
  for (let k = 0; k < KEYS; k++) {
    const key = make();
    const echoes = createEchoTest([key]);
    for (const t of texts) if (echoes(t)) flagged++;
    for (const m of SERVER_MESSAGES) if (echoes(m)) flaggedMessages++;
    for (const disguise of Object.values(KEY_DISGUISES)) {
      disguises++;
      if (echoes(`Invalid key: ${disguise(key)}.`)) found++;
    }
  }
  const ms = (performance.now() - t0) / (KEYS * (texts.length + SERVER_MESSAGES.length + disguises / KEYS));
  console.log(
    `${KEYS} random ${name} keys: ${flagged} of ${KEYS * texts.length} texts judged an echo (${flaggedMessages} of ${KEYS * SERVER_MESSAGES.length} provider messages); ${found} of ${disguises} disguised echoes found; ${(ms * 1000).toFixed(0)} µs a text`,
  );
}
