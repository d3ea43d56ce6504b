import { useCallback, useEffect, useRef, useState } from 'react';
import type { TableInfo } from '../../../core/types';

const KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End']);

/**
 * The table list is one Tab stop: only one table button is tabbable, the arrow keys (and Home,
 * End) move between tables. A virtualised list may not have the row in the DOM yet, so focus is
 * retried for a few frames after `scrollTo` brings it in.
 */
export function useRovingTables(
  tables: readonly TableInfo[],
  selected: string | null,
  scrollTo?: (index: number) => void,
) {
  const [current, setCurrent] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const pending = useRef<string | null>(null);
  const names = tables.map((t) => t.name);
  // The tabbable table: the one last moved to, else the selected one, else the first.
  const active =
    current !== null && names.includes(current)
      ? current
      : selected !== null && names.includes(selected)
        ? selected
        : (names[0] ?? null);

  const focusRow = useCallback((name: string, tries = 10) => {
    const button = list.current?.querySelector<HTMLButtonElement>(`li[data-table="${CSS.escape(name)}"] > .table-item`);
    if (button) {
      button.focus();
      pending.current = null;
    } else if (tries > 0) requestAnimationFrame(() => focusRow(name, tries - 1));
  }, []);

  useEffect(() => {
    if (pending.current) focusRow(pending.current);
  }, [current, focusRow]);

  const onKeyDown = (e: React.KeyboardEvent<HTMLUListElement>) => {
    if (!KEYS.has(e.key) || !(e.target as HTMLElement).classList.contains('table-item')) return;
    if (names.length === 0) return;
    e.preventDefault();
    const at = active === null ? 0 : names.indexOf(active);
    const next =
      e.key === 'Home'
        ? 0
        : e.key === 'End'
          ? names.length - 1
          : Math.min(names.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)));
    pending.current = names[next];
    scrollTo?.(next);
    setCurrent(names[next]);
    focusRow(names[next]);
  };

  /** Focus inside the list (a click, a Tab into it) makes that table the tabbable one. */
  const onFocus = (e: React.FocusEvent<HTMLUListElement>) => {
    const row = (e.target as HTMLElement).closest('li[data-table]');
    if ((e.target as HTMLElement).classList.contains('table-item') && row) setCurrent(row.getAttribute('data-table'));
  };

  return { list, active, onKeyDown, onFocus };
}
