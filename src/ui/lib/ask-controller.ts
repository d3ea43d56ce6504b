// Run control for one database's agent run: the AbortController of the run under way, the
// person's pending answer (to ask_user, or Continue after the plan) and a plan edited while
// paused. The services hold one per database, so nothing about a run hides in module state.

import type { Plan } from '../../core/agent/plan';

export class AskController {
  private controller: AbortController | null = null;
  private waiting: ((answer: string | null) => void) | null = null;
  private editedPlan: Plan | null = null;

  /** Starts a run: a run already under way is stopped first. */
  start(): AbortSignal {
    this.controller?.abort();
    this.controller = new AbortController();
    return this.controller.signal;
  }

  /** The run whose signal this is ended (a newer run keeps its own controller). */
  ended(signal: AbortSignal): void {
    if (this.controller?.signal === signal) this.controller = null;
  }

  stop(): void {
    this.controller?.abort();
  }

  get running(): boolean {
    return !!this.controller && !this.controller.signal.aborted;
  }

  /** Waits for the person; resolves null when the run is stopped first. */
  waitForPerson(signal: AbortSignal, onSettled?: () => void): Promise<string | null> {
    return new Promise((resolve) => {
      const done = (answer: string | null) => {
        if (this.waiting === done) this.waiting = null;
        signal.removeEventListener('abort', onAbort);
        onSettled?.();
        resolve(answer);
      };
      const onAbort = () => done(null);
      this.waiting = done;
      if (signal.aborted) done(null);
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The person's answer to ask_user (an option or their own words). */
  answer(text: string): void {
    this.waiting?.(text);
  }

  /** Continue after the plan, with the person's edit when given. */
  continueAfterPlan(edited?: Plan): void {
    if (edited) this.editedPlan = edited;
    this.waiting?.('continue');
  }

  /** The plan edited while paused, once. */
  takeEditedPlan(): Plan | null {
    const plan = this.editedPlan;
    this.editedPlan = null;
    return plan;
  }
}

/** One AskController per database id. */
export class AskControllers {
  private readonly byDb = new Map<string, AskController>();

  for(dbId: string): AskController {
    let c = this.byDb.get(dbId);
    if (!c) this.byDb.set(dbId, (c = new AskController()));
    return c;
  }

  /** A closed database: its run is stopped and its controller dropped. */
  drop(dbId: string): void {
    this.byDb.get(dbId)?.stop();
    this.byDb.delete(dbId);
  }
}
