// @vitest-environment jsdom
// A panel that throws while drawing shows its own message; its neighbours keep working.

import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
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
});
