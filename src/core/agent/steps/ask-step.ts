// ask_user: once per run, only after a tool result showed an ambiguity signal; the person's
// answer (or the lack of a person) is the observation.

import { describeZodError } from '../../tools/registry';
import { AbortedError, raceAbort } from '../abort';
import {
  answerObservation,
  ASKED_ALREADY,
  askUserInput,
  defaultAnswerObservation,
  NO_PERSON,
  NO_SIGNAL,
} from '../ask-user';
import type { AgentEvent } from '../events';
import type { ArgsCall, RunHost, Step } from './run-host';

export async function* askStep(run: RunHost, call: ArgsCall, note: string): AsyncGenerator<AgentEvent, Step> {
  const parsed = askUserInput.safeParse(call.args);
  if (!parsed.success) {
    yield run.observe(call, `Bad arguments for ask_user: ${describeZodError(parsed.error)}.${note}`, false);
    return 'continue';
  }
  if (run.state.asked) {
    yield run.observe(call, ASKED_ALREADY + note, false);
    return 'continue';
  }
  // Asking must stay rare: only after a tool result showed one of the ambiguity signals.
  if (run.state.signals.length === 0) {
    yield run.observe(call, NO_SIGNAL + note, false);
    return 'continue';
  }
  run.state.asked = true;
  if (!run.o.askUser) {
    yield run.observe(call, NO_PERSON + note, true);
    return 'continue';
  }
  if (run.o.askUser === 'first-option') {
    const taken = parsed.data.options[0];
    yield run.ev({
      type: 'ask',
      question: parsed.data.question,
      options: parsed.data.options,
      defaultAnswer: taken,
      ...(call.id ? { callId: call.id } : {}),
    });
    yield run.observe(call, defaultAnswerObservation(taken) + note, true);
    return 'continue';
  }
  const askUser = run.o.askUser;
  yield run.ev({
    type: 'ask',
    question: parsed.data.question,
    options: parsed.data.options,
    ...(call.id ? { callId: call.id } : {}),
  });
  let answer: string;
  try {
    answer = await raceAbort(askUser(parsed.data), run.o.signal);
  } catch (e) {
    if (e instanceof AbortedError || run.o.signal?.aborted) throw e;
    yield run.observe(
      call,
      `The question could not be shown (${e instanceof Error ? e.message : String(e)}). ${NO_PERSON}${note}`,
      false,
    );
    return 'continue';
  }
  yield run.observe(call, answerObservation(answer) + note, true);
  return 'continue';
}
