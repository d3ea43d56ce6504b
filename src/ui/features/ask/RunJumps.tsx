import type { RefObject } from 'react';

/**
 * Stays at the top of the Ask tab once a run has an answer: the plan (or, for a run without one,
 * its start) and the answer are one click apart.
 */
export function RunJumps({ box, hasPlan }: { box: RefObject<HTMLElement | null>; hasPlan: boolean }) {
  const go = (testId: string) => {
    const target = box.current?.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
    if (!target) return;
    target.scrollIntoView({ block: 'start' });
    // Focus follows, so keyboard and screen reader users land where they jumped.
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  };
  return (
    <nav className="run-jumps" aria-label="This run">
      <button type="button" className="link small" onClick={() => go(hasPlan ? 'plan-card' : 'run')}>
        {hasPlan ? '↑ Plan' : '↑ Start'}
      </button>
      <button type="button" className="link small" onClick={() => go('final')}>
        ↓ Answer
      </button>
    </nav>
  );
}
