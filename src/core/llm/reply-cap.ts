// A model's turn has a size limit (issue 28): a server that streams without end, or a reply of
// megabytes without a space, would hold the page and the CLI for minutes. Past the limit the
// stream is stopped (the request cancelled) and the turn fails with a readable error.

import { LlmError, type ChatStreamPart } from './types';

/** Characters of text and tool-call arguments one turn may hold (an answer is far shorter). */
export const MAX_REPLY_CHARS = 1_000_000;

export async function* capReply(
  parts: AsyncIterable<ChatStreamPart>,
  max: number = MAX_REPLY_CHARS,
): AsyncGenerator<ChatStreamPart> {
  let size = 0;
  for await (const part of parts) {
    if (part.type === 'text') size += part.text.length;
    else if (part.type === 'tool_call') size += (part.name?.length ?? 0) + (part.argumentsDelta?.length ?? 0);
    if (size > max)
      throw new LlmError(
        'llm_bad_response',
        `The model's reply passed ${max.toLocaleString('en-US')} characters and was stopped: a turn that long is no answer.`,
      );
    yield part;
  }
}
