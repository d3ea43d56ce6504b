// @vitest-environment jsdom
// A provider added to the registry (core/llm/providers.ts) is offered by the page's settings,
// with the fields its entry asks for, kept across a reload, bound to its own server's key, and
// made by the model factory (services/model-factory.test.ts; issue 27: one provider list).
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerProvider } from '../../../core/llm/providers';
import { fakeProvider } from '../../../test-support/fake-provider';
import { narrowConnections } from '../../lib/connect-policy';
import { keyTarget, loadModelSettings, saveModelSettings } from '../../lib/model-settings';
import { useAsk } from '../../store/ask-store';
import { ModelSettingsForm } from './ModelSettingsForm';

let unregister: () => void;
beforeAll(() => {
  unregister = registerProvider(fakeProvider({ inCli: false }).spec);
});
afterAll(() => unregister());
afterEach(cleanup);

describe('a provider added to the registry, in the page', () => {
  it('is offered with the fields its entry asks for, kept, and bound to its server', () => {
    render(<ModelSettingsForm />);
    const select = screen.getByLabelText('Provider');
    expect(screen.getByRole('option', { name: 'Echo (test)' })).toBeTruthy();
    fireEvent.change(select, { target: { value: 'echo' } });
    // Its server is fixed: no base URL or preset; it takes a key, bound to that server.
    expect(screen.queryByLabelText('Base URL')).toBeNull();
    fireEvent.change(screen.getByLabelText('Model name'), { target: { value: 'e1' } });
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'echo-key-123' } });
    expect(screen.getByTestId('key-target').textContent).toContain('https://echo.invalid');
    const settings = useAsk.getState().model;
    expect(keyTarget(settings)).toEqual({ provider: 'echo', origin: 'https://echo.invalid' });

    saveModelSettings(settings);
    expect(loadModelSettings().provider).toBe('echo');
  });
});

describe('a server the page was not loaded with', () => {
  it('is named with a Reload button, whichever provider needs it (not only a typed URL)', () => {
    narrowConnections([]); // the page loaded with the scripted demo: no server at all
    render(<ModelSettingsForm />);
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'anthropic' } });
    expect(screen.getByTestId('reload-note').textContent).toContain(
      'Reload the page to connect to https://api.anthropic.com',
    );
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'openai' } });
    fireEvent.change(screen.getByLabelText('Preset'), { target: { value: 'openai' } });
    expect(screen.getByTestId('reload-note').textContent).toContain(
      'Reload the page to connect to https://api.openai.com',
    );
  });
});
