// The skip link's target: the question box of the active database (the Ask tab is shown first).

import { useApp } from '../store/app-store';

export const QUESTION_ID = 'question';

export function focusQuestion(): void {
  if (useApp.getState().view !== 'ask') useApp.getState().setView('ask');
  // The Ask tab renders on the next frame when it was not shown.
  const focus = (tries: number) => {
    const box = document.getElementById(QUESTION_ID);
    if (box) box.focus();
    else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
  };
  focus(10);
}
