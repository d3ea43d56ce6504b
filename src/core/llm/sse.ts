// Reads a server-sent-events body with eventsource-parser. Bytes are decoded with a streaming
// TextDecoder, so a multi-byte character split across network chunks comes out whole; events
// split mid-line are buffered by the parser. Abort cancels the reader even when the injected
// fetch ignores the signal, so the caller never waits on a dead stream.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { abortedError } from './errors';

/** Return 'stop' to end reading early (e.g. after `[DONE]`). */
export type SseHandler = (event: EventSourceMessage) => void | 'stop';

export async function readSse(response: Response, onEvent: SseHandler, signal?: AbortSignal): Promise<void> {
  let stopped = false;
  let handlerError: unknown;
  const parser = createParser({
    onEvent(event) {
      if (stopped) return;
      try {
        if (onEvent(event) === 'stop') stopped = true;
      } catch (e) {
        // The parser would swallow nothing, but keep the first failure and stop cleanly.
        handlerError = e;
        stopped = true;
      }
    },
  });

  if (!response.body) {
    // Some fetch shims give no stream: parse the whole text at once.
    parser.feed(`${await response.text()}\n\n`);
    if (handlerError) throw handlerError;
    return;
  }

  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  const onAbort = () => {
    reader.cancel().catch(() => {});
  };
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    while (!stopped) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (e) {
        if (signal?.aborted) throw abortedError(e);
        throw e;
      }
      if (signal?.aborted) throw abortedError();
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
    if (!stopped) {
      const tail = decoder.decode();
      if (tail) parser.feed(tail);
      // A last event without its closing blank line would be dropped by the spec; servers do end
      // that way (often on the usage chunk), so close it ourselves.
      parser.feed('\n\n');
    }
    if (handlerError) throw handlerError;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (stopped) reader.cancel().catch(() => {});
  }
}
