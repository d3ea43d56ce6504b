import { useEffect, useRef, type RefObject } from 'react';
import type { AskRun } from '../../store/ask-store';

/**
 * When a run the person watched ends with an answer, the answer scrolls into view (it is below
 * the plan and every step); the plan stays one "Back to the plan" link away (see RunJumps).
 */
export function useAnswerIntoView(run: AskRun | undefined, box: RefObject<HTMLElement | null>): void {
  const watched = useRef<string | null>(null);
  useEffect(() => {
    if (!run) return;
    if (run.status === 'running') {
      watched.current = run.id;
      return;
    }
    if (watched.current !== run.id) return;
    watched.current = null;
    const answer = box.current?.querySelector<HTMLElement>('[data-testid="final"]');
    if (!answer) return;
    answer.scrollIntoView({ block: 'start' });
  }, [run, box]);
}
