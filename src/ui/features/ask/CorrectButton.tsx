import { useQuery } from '@tanstack/react-query';
import { deleteExample, markCorrect } from '../../actions/examples';
import { examplesQuery } from '../../queries';
import { useServices } from '../../services/context';
import type { AskRun } from '../../store/ask-store';

/** "✓ Correct" as a toggle: pressed while this run is one of the database's confirmed examples. */
export function CorrectButton({ run }: { run: AskRun }) {
  const examples = useQuery(examplesQuery(useServices(), run.dbName));
  const pressed = !!examples.data?.some((e) => e.id === run.id);
  return (
    <button
      type="button"
      className={pressed ? 'small pressed' : 'small secondary'}
      aria-pressed={pressed}
      onClick={() => void (pressed ? deleteExample(run.dbName, run.id) : markCorrect(run))}
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
