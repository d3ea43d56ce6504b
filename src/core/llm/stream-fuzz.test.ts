// Generated model outputs through the real clients and the action parser (issue 11, "fuzzing
// kept as tests"): 10,000 cases (src/test-support/model-output-corpus.ts), each an SSE stream
// (or an error answer) fed to the OpenAI-compatible or Anthropic client one byte at a time, and
// again in random chunks. Public behaviour only: a fake fetch in, stream parts or an LlmError out.
// Every case must end in a whole turn (one `finish`, well-formed) or a readable LlmError, and the
// same bytes must give the same turn however they are cut; every reply text and every tool call's
// arguments must read as actions or as an error the model can be shown, without the parser's
// safety net. A sample also runs as whole agent runs: each ends in one final or error event.

import { describe, expect, it } from 'vitest';
import { parseActions } from '../agent/action-parser';
import { parseToolArgs } from '../agent/lenient-json';
import { runAgent } from '../agent/loop';
import { mulberry32 } from '../random';
import { fetchFor, modelOutputCase, type ModelOutputCase } from '../../test-support/model-output-corpus';
import { createAnthropicModel } from './anthropic';
import { createOpenAiCompatibleModel } from './openai-compatible';
import { LlmError, type ChatModel, type ChatResponse, type ChatStreamPart } from './types';

const CASES = 10_000;
const AGENT_RUNS = 300;
const KEY = 'sk-fuzz-0123456789abcdef';
const CODES = new Set([
  'llm_auth',
  'llm_model_not_found',
  'llm_rate_limit',
  'llm_server',
  'llm_network',
  'llm_aborted',
  'llm_context_length',
  'llm_bad_response',
]);
const UNREADABLE = /undefined|\[object Object\]|^\s*$/;

function modelFor(c: ModelOutputCase, cut: number): ChatModel {
  const common = { model: 'fuzz-model', fetch: fetchFor(c, cut), maxRetries: 1, sleep: async () => {} };
  return c.provider === 'openai'
    ? createOpenAiCompatibleModel({ ...common, baseUrl: 'http://fuzz.test/v1', apiKey: KEY })
    : createAnthropicModel({ ...common, apiKey: KEY });
}

const REQUEST = { messages: [{ role: 'user' as const, content: 'How many customers live in Paris?' }] };

type Outcome = { ok: true; response: ChatResponse } | { ok: false; error: LlmError };

/** Reads one turn; anything but a whole turn or an LlmError is returned as a problem. */
async function readTurn(model: ChatModel): Promise<Outcome | { problem: string }> {
  const parts: ChatStreamPart[] = [];
  try {
    for await (const p of model.stream(REQUEST)) parts.push(p);
  } catch (e) {
    if (e instanceof LlmError) return { ok: false, error: e };
    return { problem: `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}` };
  }
  const finishes = parts.filter((p) => p.type === 'finish');
  if (finishes.length !== 1 || parts.at(-1)?.type !== 'finish') return { problem: 'not exactly one finish, last' };
  return { ok: true, response: (finishes[0] as Extract<ChatStreamPart, { type: 'finish' }>).response };
}

/** The turn as JSON, ids the client made up for calls that came without one left out. */
const comparable = (r: ChatResponse) =>
  JSON.stringify({ ...r, toolCalls: r.toolCalls.map((t) => ({ ...t, id: /^call_\d+$/.test(t.id) ? t.id : '' })) });

function turnProblems(r: ChatResponse): string[] {
  const problems: string[] = [];
  if (typeof r.text !== 'string') problems.push('text is not a string');
  if (!['stop', 'tool_calls', 'length', 'other'].includes(r.finishReason)) problems.push(`finish ${r.finishReason}`);
  for (const call of r.toolCalls) {
    if (typeof call.id !== 'string' || !call.id) problems.push('a tool call without an id');
    if (typeof call.name !== 'string' || typeof call.arguments !== 'string') problems.push('a tool call not as text');
    // The agent reads native arguments like this; a bad one must be an error it can show.
    const read = parseToolArgs(call.name, call.arguments);
    if ('error' in read && UNREADABLE.test(read.error)) problems.push(`unreadable argument error: ${read.error}`);
  }
  // The text protocol: actions or errors, never the parser's safety net (an exception inside).
  const parsed = parseActions(r.text);
  for (const a of parsed.actions) {
    if ('error' in a && (a.error.startsWith('The reply could not be read') || UNREADABLE.test(a.error)))
      problems.push(`action parser: ${a.error}`);
  }
  if (!parsed.actions.length && !parsed.noAction) problems.push('no action and no reason');
  return problems;
}

describe(`${CASES} generated model outputs through the real clients`, () => {
  it('each stream, one byte at a time and in random chunks, gives the same whole turn or a readable error', async () => {
    const failures: string[] = [];
    const tally: Record<string, number> = {};
    const cuts = mulberry32(5);
    for (let n = 0; n < CASES; n++) {
      const c = modelOutputCase(n);
      const byByte = await readTurn(modelFor(c, 1));
      const where = `case ${n} (${c.provider}, ${c.damage.join('+') || 'clean'})`;
      if ('problem' in byByte) {
        failures.push(`${where}: ${byByte.problem}`);
        continue;
      }
      if (byByte.ok) {
        tally.turn = (tally.turn ?? 0) + 1;
        for (const p of turnProblems(byByte.response)) failures.push(`${where}: ${p}`);
      } else {
        const e = byByte.error;
        tally[e.code] = (tally[e.code] ?? 0) + 1;
        if (!CODES.has(e.code) || UNREADABLE.test(e.message))
          failures.push(`${where}: unreadable ${e.code}: ${e.message}`);
        if (e.message.includes(KEY)) failures.push(`${where}: the key is in the message`);
      }
      const chunked = await readTurn(modelFor(c, 2 + Math.floor(cuts() * 200)));
      const same =
        'problem' in chunked
          ? false
          : chunked.ok && byByte.ok
            ? comparable(chunked.response) === comparable(byByte.response)
            : !chunked.ok && !byByte.ok && chunked.error.code === byByte.error.code;
      if (!same) failures.push(`${where}: differs when cut otherwise`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
    // The corpus reaches every ending: whole turns and each kind of failure.
    expect(tally.turn).toBeGreaterThan(CASES / 2);
    for (const code of ['llm_bad_response', 'llm_network', 'llm_server', 'llm_auth', 'llm_rate_limit'])
      expect(tally[code] ?? 0).toBeGreaterThan(0);
  }, 300_000);

  it(`${AGENT_RUNS} whole agent runs on such replies end in one final or error event, each action observed`, async () => {
    const failures: string[] = [];
    for (let n = 0; n < AGENT_RUNS; n++) {
      const c = modelOutputCase(CASES + n);
      const events = [];
      try {
        for await (const e of runAgent({
          question: 'How many customers live in Paris?',
          model: modelFor(c, 1),
          schema: { tables: [], foreignKeys: [] },
          tools: {
            call: async (tool) => ({ ok: false, tool, error: 'tool_failed', observation: `${tool}: ok`, ms: 0 }),
          },
          maxTurns: 3,
          mode: n % 2 ? 'text' : 'native',
        }))
          events.push(e);
      } catch (e) {
        failures.push(`run ${n}: threw ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      const ends = events.filter((e) => e.type === 'final' || e.type === 'error');
      if (ends.length !== 1 || events.at(-1) !== ends[0]) failures.push(`run ${n}: ${ends.length} endings`);
      const end = ends[0];
      if (end?.type === 'error' && UNREADABLE.test(end.message)) failures.push(`run ${n}: unreadable ${end.message}`);
      // Each action is answered: an observation, or the run's ending (a guard's error, done's final).
      const actions = events.filter((e) => e.type === 'action').length;
      const observations = events.filter((e) => e.type === 'observation').length;
      if (observations + ends.length < actions)
        failures.push(`run ${n}: ${actions} actions, ${observations} observations`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  }, 120_000);
});
