import { describe, expect, it } from 'vitest';
import { completeChat } from './complete';
import { createScriptedModel } from './scripted';
import { LlmError, type ChatDelta } from './types';

const messages = [{ role: 'user' as const, content: 'How many tracks?' }];

describe('scripted model', () => {
  it('replays turns in order, streamed in small deltas, with estimated usage', async () => {
    const model = createScriptedModel(
      [
        {
          text: 'I will count the tracks.',
          toolCalls: [{ name: 'ExecuteSQL', arguments: { sql: 'SELECT COUNT(*) FROM tracks' } }],
        },
        { text: 'There are 3503 tracks.' },
      ],
      { name: 'demo' },
    );
    expect(model.provider).toBe('scripted');
    expect(model.model).toBe('demo');
    const deltas: ChatDelta[] = [];
    const first = await completeChat(model, { messages }, (d) => deltas.push(d));
    expect(first.text).toBe('I will count the tracks.');
    expect(first.toolCalls).toEqual([
      { id: 'scripted_1_0', name: 'ExecuteSQL', arguments: '{"sql":"SELECT COUNT(*) FROM tracks"}' },
    ]);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.usage?.estimated).toBe(true);
    expect(deltas.filter((d) => d.type === 'text').length).toBeGreaterThan(2);
    const args = deltas.flatMap((d) => (d.type === 'tool_call' && d.argumentsDelta ? [d.argumentsDelta] : [])).join('');
    expect(args).toBe(first.toolCalls[0].arguments);

    const second = await completeChat(model, { messages });
    expect(second).toMatchObject({ text: 'There are 3503 tracks.', toolCalls: [], finishReason: 'stop' });
    expect(model.remaining).toBe(0);
  });

  it('throws llm_bad_response when the turns run out, and reset starts again', async () => {
    const model = createScriptedModel([{ text: 'only one' }]);
    await completeChat(model, { messages });
    const e = (await completeChat(model, { messages }).catch((x: unknown) => x)) as LlmError;
    expect(e).toBeInstanceOf(LlmError);
    expect(e.code).toBe('llm_bad_response');
    expect(e.message).toMatch(/scripted model has no more turns/);
    model.reset();
    expect((await completeChat(model, { messages })).text).toBe('only one');
  });

  it('stops on abort between deltas', async () => {
    const model = createScriptedModel([{ text: 'a long scripted answer that streams slowly' }], {
      delayMs: 5,
      pieceSize: 2,
    });
    const controller = new AbortController();
    const p = completeChat(model, { messages, signal: controller.signal }, () => controller.abort());
    await expect(p).rejects.toMatchObject({ code: 'llm_aborted' });
  });
});
