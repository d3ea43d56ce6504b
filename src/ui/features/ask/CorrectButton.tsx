import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { deleteExample, markCorrect } from '../../actions/examples';
import { examplesQuery } from '../../queries';
import { useServices } from '../../services/context';
import type { AskRun } from '../../store/ask-store';

/**
 * The question an answer from an edited plan answers, as first offered: the plan's one
 * sub-question ("… in 2025") says it better than the question asked before the edit.
 */
const editedQuestion = (run: AskRun) => {
  const steps = run.confirmedPlan?.sub_questions ?? [];
  return steps.length === 1 ? steps[0].text : run.question;
};

/**
 * "✓ Correct" as a toggle: pressed while this run is one of the database's confirmed examples.
 * An answer from a plan the person edited answers the edited plan, not the question first asked:
 * the person says which question it answers before it is saved (issue 38, item 6).
 */
export function CorrectButton({ run }: { run: AskRun }) {
  const examples = useQuery(examplesQuery(useServices(), run.dbName));
  const pressed = !!examples.data?.some((e) => e.id === run.id);
  const [wording, setWording] = useState<string | null>(null);
  if (wording !== null)
    return (
      <form
        className="row gap small correct-question"
        onSubmit={(e) => {
          e.preventDefault();
          if (!wording.trim()) return;
          void markCorrect(run, wording.trim());
          setWording(null);
        }}
      >
        <label>
          The question this answer (from your edited plan) answers{' '}
          <input value={wording} onChange={(e) => setWording(e.target.value)} autoFocus size={40} />
        </label>
        <button type="submit" className="small" disabled={!wording.trim()}>
          Save example
        </button>
        <button type="button" className="small secondary" onClick={() => setWording(null)}>
          Cancel
        </button>
      </form>
    );
  return (
    <button
      type="button"
      className={pressed ? 'small pressed' : 'small secondary'}
      aria-pressed={pressed}
      onClick={() => {
        if (pressed) void deleteExample(run.dbName, run.id);
        else if (run.confirmedPlan) setWording(editedQuestion(run));
        else void markCorrect(run);
      }}
      title={
        pressed
          ? 'Saved as a confirmed example for this database; press again to remove it'
          : 'Save question, plan and SQL as a confirmed example for this database'
      }
    >
      ✓ Correct{pressed ? ' (saved)' : ''}
    </button>
  );
}
