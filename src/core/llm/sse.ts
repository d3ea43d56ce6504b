// Reads a server-sent-events body with eventsource-parser, as an async iterable of events. Bytes
// are decoded with a streaming TextDecoder, so a multi-byte character split across network chunks
// comes out whole; events split mid-line are buffered by the parser. Abort cancels the reader even
// when the injected fetch ignores the signal, so the caller never waits on a dead stream; leaving
// the loop early (after `[DONE]`) cancels it too.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { abortedError } from './errors';

export async function* sseEvents(response: Response, signal?: AbortSignal): AsyncGenerator<EventSourceMessage> {
  const ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => void ready.push(event) });

  if (!response.body) {
    // Some fetch shims give no stream: parse the whole text at once.
    parser.feed(`${await response.text()}\n\n`);
    yield* ready.splice(0);
    return;
  }

  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  const onAbort = () => {
    reader.cancel().catch(() => {});
  };
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  try {
    for (;;) {
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
      yield* ready.splice(0);
    }
    const tail = decoder.decode();
    if (tail) parser.feed(tail);
    // A last event without its closing blank line would be dropped by the spec; servers do end
    // that way (often on the usage chunk), so close it ourselves.
    parser.feed('\n\n');
    yield* ready.splice(0);
    finished = true;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) reader.cancel().catch(() => {});
  }
}
