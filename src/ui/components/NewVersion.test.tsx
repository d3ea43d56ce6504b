// @vitest-environment jsdom
// After a deploy the open page is not taken over (decision 067): it shows "A new version of
// Dowser is ready" with Reload (keep the files, let the new build take over, then reload) and
// Dismiss; a part of the old build the server no longer has offers Reload, not "Try again".

import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServices, renderWithServices } from '../test-support/render';
import { useUpdate } from '../store/update-store';
import type { ReloadHandoff } from '../lib/reload-handoff';
import { Notices } from './Notices';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useUpdate.setState({ newVersion: null, dismissed: false });
});

function renderNotices() {
  const reloadHandoff: ReloadHandoff = { keep: vi.fn(async () => {}), take: async () => null };
  renderWithServices(<Notices />, fakeServices({ reloadHandoff }));
  return reloadHandoff;
}

describe('UpdateNotice', () => {
  it('appears in the notices live region when a new build waits; Dismiss hides it until another tab activates it', async () => {
    renderNotices();
    expect(screen.queryByTestId('update-notice')).toBeNull();
    act(() => useUpdate.getState().found('waiting'));
    const region = screen.getByRole('region', { name: 'Notices' });
    const notice = within(region).getByTestId('update-notice');
    expect(notice.closest('[aria-live="polite"]')).not.toBeNull();
    expect(notice.textContent).toContain('A new version of Dowser is ready.');
    expect(within(notice).getByRole('button', { name: 'Reload' })).toBeTruthy();
    await userEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('update-notice')).toBeNull();
    // Another tab let it take over: this page is the old build now, so it asks again.
    act(() => useUpdate.getState().found('active'));
    expect(screen.getByTestId('update-notice')).toBeTruthy();
  });

  it('Reload keeps the open files, lets the waiting build take over, and reloads only once it has', async () => {
    const handoff = renderNotices();
    const waiting = Object.assign(new EventTarget(), { state: 'installed', postMessage: vi.fn() });
    const container = Object.assign(new EventTarget(), {
      controller: {},
      getRegistration: async () => ({ waiting }),
    });
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { serviceWorker: container }));
    const reload = vi.fn();
    vi.stubGlobal('location', { reload });
    act(() => useUpdate.getState().found('waiting'));
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await vi.waitFor(() => expect(waiting.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' }));
    expect(handoff.keep).toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Reload' })).toHaveProperty('disabled', true);
    act(() => container.dispatchEvent(new Event('controllerchange')));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });
});
