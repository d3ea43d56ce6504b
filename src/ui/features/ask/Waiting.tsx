import { useState } from 'react';
import type { AgentEvent } from '../../../core/agent/events';
import { answerAgent, continueAfterPlan } from '../../actions/ask';
import type { AskRun } from '../../store/ask-store';
import { shown, shownLines } from '../../lib/format';

/** What the run waits for: the agent's question (options as buttons, or own words), or Continue. */
export function Waiting({ run }: { run: AskRun }) {
  const [own, setOwn] = useState('');
  if (run.waitingFor === 'plan') {
    return (
      <div className="card waiting" data-testid="plan-waiting">
        <p>The plan is ready. Read it, then continue (or Stop and ask differently).</p>
        <button type="button" onClick={() => continueAfterPlan(run.dbId)}>
          Continue
        </button>
      </div>
    );
  }
  if (run.waitingFor !== 'answer') return null;
  const ask = [...run.events].reverse().find((e): e is Extract<AgentEvent, { type: 'ask' }> => e.type === 'ask');
  if (!ask) return null;
  return (
    <div className="card waiting" data-testid="clarification" role="group" aria-label="The agent asks">
      <p className="thought">{shownLines(ask.question)}</p>
      <div className="row gap">
        {ask.options.map((o) => (
          <button key={o} type="button" className="small" onClick={() => answerAgent(run.dbId, o)}>
            {shown(o)}
          </button>
        ))}
      </div>
      <form
        className="row gap"
        onSubmit={(e) => {
          e.preventDefault();
          if (own.trim()) answerAgent(run.dbId, own.trim());
        }}
      >
        <input
          aria-label="Your answer"
          placeholder="or answer in your own words"
          value={own}
          onChange={(e) => setOwn(e.target.value)}
        />
        <button type="submit" className="small secondary" disabled={!own.trim()}>
          Answer
        </button>
      </form>
    </div>
  );
}
