import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { followPointer } from '../lib/pointer-drag';

const MIN_WIDTH = 180;
const MAX_WIDTH = 560;
const STEP = 24;

/**
 * The schema explorer's column: hidden with one button (the work area takes the whole width, as
 * a narrow window needs) or resized by dragging its edge or with the arrow keys on it.
 */
export function Sidebar({ children }: { children: ReactNode }) {
  const [collapsed, setCollapsed] = useState(false);
  // null: the CSS width, which follows the window (styles.css `.sidebar`).
  const [width, setWidth] = useState<number | null>(null);
  const aside = useRef<HTMLElement>(null);
  const clamp = (w: number) => Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w)));
  // The width the CSS gave, for the separator's value before the person resizes.
  const [measured, setMeasured] = useState(280);
  useLayoutEffect(() => {
    if (!collapsed && aside.current) setMeasured(aside.current.getBoundingClientRect().width);
  }, [collapsed]);
  const current = () => width ?? measured;

  if (collapsed)
    return (
      <aside id="schema-explorer" className="sidebar-collapsed" aria-label="Schema explorer (hidden)">
        <button
          type="button"
          className="small secondary"
          aria-expanded={false}
          aria-controls="schema-explorer"
          onClick={() => setCollapsed(false)}
          title="Show the tables of this database"
        >
          Tables ›
        </button>
      </aside>
    );

  const startDrag = (e: React.PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const left = aside.current?.getBoundingClientRect().left ?? 0;
    followPointer(window, (ev) => setWidth(clamp(ev.clientX - left)));
  };

  return (
    <aside
      ref={aside}
      id="schema-explorer"
      className="sidebar"
      aria-label="Schema explorer"
      style={width === null ? undefined : { width }}
    >
      <div className="sidebar-scroll">
        <div className="sidebar-head">
          <button
            type="button"
            className="link small"
            aria-expanded={true}
            aria-controls="schema-explorer"
            onClick={() => setCollapsed(true)}
            title="Hide the tables to give the work area the whole width"
          >
            ‹ Hide tables
          </button>
        </div>
        {children}
      </div>
      <div
        className="sidebar-resizer"
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the schema explorer"
        aria-valuemin={MIN_WIDTH}
        aria-valuemax={MAX_WIDTH}
        aria-valuenow={clamp(current())}
        tabIndex={0}
        onPointerDown={startDrag}
        onKeyDown={(e) => {
          if (e.key === 'ArrowLeft') setWidth(clamp(current() - STEP));
          else if (e.key === 'ArrowRight') setWidth(clamp(current() + STEP));
          else return;
          e.preventDefault();
        }}
      />
    </aside>
  );
}
