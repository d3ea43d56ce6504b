// Estimated token usage for servers that send none (and the scripted model). o200k_base is not
// every model's tokenizer, so the numbers are marked `estimated`. The encoder is loaded lazily:
// its rank table is large and the page should not pay for it until a model has answered.

import type { ChatMessage, ToolCall, ToolSpec, Usage } from './types';

type CountTokens = (text: string) => number;
let loading: Promise<CountTokens> | undefined;

function counter(): Promise<CountTokens> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => m.countTokens as CountTokens);
  return loading;
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
