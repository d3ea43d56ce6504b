// An expanded table's columns are one Tab stop (issue 25: two stops per column put ~30 before the
// main area): the arrow keys move between columns (Up, Down, Home, End) and between the buttons
// of one column (Left, Right); Tab leaves the list. Buttons carry data-col and data-slot.

import { useState } from 'react';

interface At {
  col: string;
  slot: number;
}

export function useRovingColumns(columns: readonly string[]) {
  const [at, setAt] = useState<At | null>(null);
  const current: At | null = at && columns.includes(at.col) ? at : columns.length ? { col: columns[0], slot: 0 } : null;

  /** 0 for the one tabbable button, -1 for the others. */
  const tabIndex = (col: string, slot: number) => (current && current.col === col && current.slot === slot ? 0 : -1);

  const buttonsOf = (list: HTMLElement, col: string) =>
    Array.from(list.querySelectorAll<HTMLElement>(`[data-col="${CSS.escape(col)}"][data-slot]`));

  const onKeyDown = (e: React.KeyboardEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    const col = target.dataset.col;
    if (col === undefined || target.dataset.slot === undefined) return;
    const slot = Number(target.dataset.slot);
    const list = e.currentTarget;
    let next: At | null = null;
    const row = columns.indexOf(col);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const to = row + (e.key === 'ArrowDown' ? 1 : -1);
      if (to >= 0 && to < columns.length) next = { col: columns[to], slot: 0 };
    } else if (e.key === 'Home') next = { col: columns[0], slot: 0 };
    else if (e.key === 'End') next = { col: columns[columns.length - 1], slot: 0 };
    else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      const slots = buttonsOf(list, col).map((b) => Number(b.dataset.slot));
      const i = slots.indexOf(slot) + (e.key === 'ArrowRight' ? 1 : -1);
      if (i >= 0 && i < slots.length) next = { col, slot: slots[i] };
    } else return;
    e.preventDefault();
    if (!next) return;
    setAt(next);
    buttonsOf(list, next.col)
      .find((b) => Number(b.dataset.slot) === next.slot)
      ?.focus();
  };

  /** A click or focus on a column's button makes it the tabbable one. */
  const onFocus = (e: React.FocusEvent<HTMLElement>) => {
    const { col, slot } = (e.target as HTMLElement).dataset;
    if (col !== undefined && slot !== undefined) setAt({ col, slot: Number(slot) });
  };

  return { tabIndex, onKeyDown, onFocus };
}
