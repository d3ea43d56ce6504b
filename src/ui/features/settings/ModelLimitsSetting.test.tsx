// @vitest-environment jsdom
// The page's model limits (decision 068): shown with their finite defaults, changed in the
// settings the runs read (lib/app-settings.ts), and a value outside the form's range is not taken.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { answerLimitsOf, DEFAULT_SETTINGS, streamLimitsOf } from '../../lib/app-settings';
import { useApp } from '../../store/app-store';
import { ModelLimitsSetting } from './ModelLimitsSetting';

afterEach(() => {
  cleanup();
  useApp.setState({ settings: DEFAULT_SETTINGS });
});

describe('the model limits in Settings', () => {
  it('shows the defaults, takes a change, and hands it to the runs with its name', () => {
    render(<ModelLimitsSetting />);
    const wait = screen.getByLabelText<HTMLInputElement>('Wait for the model in seconds');
    const answer = screen.getByLabelText<HTMLInputElement>('Time limit of an answer in minutes');
    expect([wait.value, answer.value]).toEqual(['180', '15']);
    fireEvent.change(wait, { target: { value: '45' } });
    fireEvent.change(answer, { target: { value: '3' } });
    fireEvent.change(answer, { target: { value: '0' } });
    const settings = useApp.getState().settings;
    expect(settings).toMatchObject({ modelWaitMs: 45_000, answerTimeMs: 180_000 });
    expect(streamLimitsOf(settings)).toMatchObject({ firstByteMs: 45_000, idleMs: 45_000 });
    expect(answerLimitsOf(settings)).toMatchObject({ timeMs: 180_000, raiseHint: expect.stringContaining('Settings') });
  });
});
