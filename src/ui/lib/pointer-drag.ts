// A drag from pointerdown to pointerup: one place for the page's resize handles (the explorer's
// edge, a results column's edge).

/** Calls `onMove` with each pointer move on `target` until the pointer is released. */
export function followPointer(target: EventTarget, onMove: (e: PointerEvent) => void): void {
  const move = (e: Event) => onMove(e as PointerEvent);
  const up = () => {
    target.removeEventListener('pointermove', move);
    target.removeEventListener('pointerup', up);
  };
  target.addEventListener('pointermove', move);
  target.addEventListener('pointerup', up);
}
