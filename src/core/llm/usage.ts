// Estimated token usage for servers that send none (and the scripted model). o200k_base is not
// every model's tokenizer, so the numbers are marked `estimated`. The encoder is loaded lazily:
// its rank table is large and the page should not pay for it until a model has answered.

import type { ChatMessage, ToolCall, ToolSpec, Usage } from './types';

type CountTokens = (text: string) => number;
let loading: Promise<CountTokens> | undefined;

function counter(): Promise<CountTokens> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => bounded(m.countTokens as CountTokens));
  return loading;
}

/** Runs without a space longer than this are counted in pieces of this length. */
const LONG_RUN = 200;
const LONG_RUNS = new RegExp(`\\S{${LONG_RUN},}`, 'g');

/**
 * The counter in linear time (issue 28): BPE merges within a run of text without spaces take
 * time quadratic in its length (100,000 such characters took 5.7 s; a 2 MB reply minutes, with
 * Stop unable to react). Such runs are counted in pieces of LONG_RUN characters: a run's merges
 * rarely span 200 characters, so the estimate barely moves.
 */
export function bounded(count: CountTokens): CountTokens {
  return (text) => {
    let total = 0;
    let last = 0;
    for (const m of text.matchAll(LONG_RUNS)) {
      total += count(text.slice(last, m.index));
      for (let i = 0; i < m[0].length; i += LONG_RUN) total += count(m[0].slice(i, i + LONG_RUN));
      last = m.index + m[0].length;
    }
    return total + count(text.slice(last));
  };
}

// Chat formats add a few tokens per message for role markers; 4 is OpenAI's published figure.
const PER_MESSAGE = 4;

export async function estimateUsage(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[] | undefined,
  outputText: string,
  toolCalls: readonly ToolCall[],
): Promise<Usage> {
  const count = await counter();
  let input = 0;
  for (const m of messages) {
    input += PER_MESSAGE + count(m.content);
    if (m.role === 'assistant' && m.toolCalls) for (const c of m.toolCalls) input += count(c.name) + count(c.arguments);
  }
  if (tools?.length) input += count(JSON.stringify(tools));
  let output = count(outputText);
  for (const c of toolCalls) output += count(c.name) + count(c.arguments);
  return { inputTokens: input, outputTokens: output, estimated: true };
}
