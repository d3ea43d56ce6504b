// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MiniRows } from './MiniRows';

afterEach(cleanup);

describe('MiniRows', () => {
  const rows = [
    ['Canada', 146934000, 100234],
    ['<b>x</b>', 12.5, 7],
  ];
  it('groups the digits of numbers when asked (identifiers as stored) and keeps text as text', () => {
    render(<MiniRows columns={['country', 'people', 'order_id']} rows={rows} testId="t" numbers="locale" />);
    const cells = within(screen.getByTestId('t')).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['Canada', '146,934,000', '100234', '<b>x</b>', '12.5', '7']);
    expect(cells[1].className).toBe('num');
  });

  it('shows numbers as stored by default and in raw mode', () => {
    const { unmount } = render(<MiniRows columns={['country', 'people', 'id']} rows={rows} testId="t" />);
    expect(within(screen.getByTestId('t')).getAllByRole('cell')[1].textContent).toBe('146934000');
    unmount();
    render(<MiniRows columns={['country', 'people', 'id']} rows={rows} testId="t" numbers="raw" />);
    expect(within(screen.getByTestId('t')).getAllByRole('cell')[1].textContent).toBe('146934000');
  });
});
