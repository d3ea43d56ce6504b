// @vitest-environment jsdom
// A panel that throws while drawing shows its own message; its neighbours keep working.

import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PanelBoundary } from './PanelBoundary';

afterEach(cleanup);

function Fragile({ broken }: { broken: boolean }) {
  if (broken) throw new Error('events is not iterable');
  return <p>run shown</p>;
}

function Page() {
  const [broken, setBroken] = useState(true);
  const [count, setCount] = useState(0);
  return (
    <>
      <PanelBoundary name="run">
        <Fragile broken={broken} />
      </PanelBoundary>
      <button type="button" onClick={() => setCount(count + 1)}>
        clicked {count}
      </button>
      <button type="button" onClick={() => setBroken(false)}>
        repair
      </button>
    </>
  );
}

describe('PanelBoundary (issue 11, item 8)', () => {
  it('keeps a throwing panel to itself and can try again', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Page />);
    expect(screen.getByRole('alert').textContent).toContain('The run panel could not be shown: events is not iterable');
    await userEvent.click(screen.getByRole('button', { name: /clicked/ }));
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'repair' }));
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('run shown')).toBeTruthy();
    quiet.mockRestore();
  });

  it('a part of the page the server no longer has (after a deploy) offers Reload, not a Try again that cannot work', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Gone = lazy(() =>
      Promise.reject(
        new TypeError('Failed to fetch dynamically imported module: http://x/assets/SqlEditor-DpWi4ZKT.js'),
      ),
    );
    render(
      <PanelBoundary name="SQL editor">
        <Suspense fallback="Loading the editor…">
          <Gone />
        </Suspense>
      </PanelBoundary>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'The SQL editor panel could not be loaded: a new version of Dowser was deployed since this page was opened.',
    );
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    quiet.mockRestore();
  });
});
