import { describe, expect, it } from 'vitest';
import { AskControllers } from './ask-controller';

describe('AskController', () => {
  it('a new run stops the one under way; ended() of the old run leaves the new one', () => {
    const c = new AskControllers().for('db');
    const first = c.start();
    const second = c.start();
    expect(first.aborted).toBe(true);
    c.ended(first);
    expect(c.running).toBe(true);
    c.ended(second);
    expect(c.running).toBe(false);
  });

  it('hands the person answer to the waiting run, and null when the run stops', async () => {
    const c = new AskControllers().for('db');
    const signal = c.start();
    const answered = c.waitForPerson(signal);
    c.answer('Canada');
    expect(await answered).toBe('Canada');
    const stopped = c.waitForPerson(signal);
    c.stop();
    expect(await stopped).toBeNull();
  });

  it('keeps a plan edited while paused for exactly one take', async () => {
    const c = new AskControllers().for('db');
    const signal = c.start();
    const waiting = c.waitForPerson(signal);
    c.continueAfterPlan({ sub_questions: [{ text: 'q', tables: [] }] });
    expect(await waiting).toBe('continue');
    expect(c.takeEditedPlan()?.sub_questions[0].text).toBe('q');
    expect(c.takeEditedPlan()).toBeNull();
  });

  it('drop() stops the database run and forgets its controller', () => {
    const all = new AskControllers();
    const signal = all.for('db').start();
    all.drop('db');
    expect(signal.aborted).toBe(true);
    expect(all.for('db').running).toBe(false);
  });
});
