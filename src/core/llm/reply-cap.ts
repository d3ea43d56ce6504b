// A model's turn has a size limit (issue 28): a server that streams without end, or a reply of
// megabytes without a space, would hold the page and the CLI for minutes. Past the limit the
// stream is stopped (the request cancelled) and the turn fails with a readable error.

import { LlmError, type ChatStreamPart } from './types';

/** Characters of text and tool-call arguments one turn may hold (an answer is far shorter). */
export const MAX_REPLY_CHARS = 1_000_000;

/** Characters a part adds to a reply: its text, or a tool call's name and arguments (the answer budget counts them too). */
export function partChars(part: ChatStreamPart): number {
  if (part.type === 'text') return part.text.length;
  if (part.type === 'tool_call') return (part.name?.length ?? 0) + (part.argumentsDelta?.length ?? 0);
  return 0;
}

export async function* capReply(
  parts: AsyncIterable<ChatStreamPart>,
  max: number = MAX_REPLY_CHARS,
): AsyncGenerator<ChatStreamPart> {
  let size = 0;
  for await (const part of parts) {
    size += partChars(part);
    if (size > max)
      throw new LlmError(
        'llm_bad_response',
        `The model's reply passed ${max.toLocaleString('en-US')} characters and was stopped: a turn that long is no answer.`,
      );
    yield part;
  }
}
